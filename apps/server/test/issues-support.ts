import { IssueJson } from "@kiln/schemas";
import type { ApiRequest, ApiResponse } from "@kiln/testkit";
import { expect } from "vitest";
import type { Served } from "./support.js";

/** An issue answer, or the error body that came instead. */
export type IssueBody = IssueJson & { message?: unknown; error?: unknown };

/** Requests the issue suites share, bound to the suite's server. */
export function issueClient(served: () => Served) {
  const api = <T = IssueBody>(request: ApiRequest): Promise<ApiResponse<T>> => served().api<T>(request);
  return {
    api,

    /** Opens an issue as `token`; answers the raw response. */
    open(projectId: number, token: string, json: Record<string, unknown>) {
      return api({ method: "POST", path: `/projects/${projectId}/issues`, token, json });
    },

    /** Opens an issue as `token` and checks the answer is a valid v3 Issue (200). */
    async create(projectId: number, token: string, json: Record<string, unknown>): Promise<IssueJson> {
      const res = await api({ method: "POST", path: `/projects/${projectId}/issues`, token, json });
      expect(res.status, res.text).toBe(200);
      return IssueJson.strict().parse(res.body);
    },

    /** Edits an issue as `token`; answers the raw response. */
    edit(issue: Pick<IssueJson, "id" | "project_id">, token: string, json: Record<string, unknown>) {
      return api({ method: "PUT", path: `/projects/${issue.project_id}/issues/${issue.id}`, token, json });
    },

    /** Reads an issue as `token`; answers the raw response. */
    get(issue: Pick<IssueJson, "id" | "project_id">, token: string) {
      return api({ path: `/projects/${issue.project_id}/issues/${issue.id}`, token });
    },

    /** Creates a milestone as `token` (a master or above). */
    async milestone(projectId: number, token: string, title: string): Promise<{ id: number; title: string }> {
      const res = await api<{ id: number; title: string }>({
        method: "POST",
        path: `/projects/${projectId}/milestones`,
        token,
        json: { title },
      });
      expect(res.status, res.text).toBe(201);
      return res.body;
    },

    /** Creates a project as `token`; answers its id and path. */
    async project(token: string, name: string, visibility_level = 0) {
      const res = await api<{ id: number; path_with_namespace: string }>({
        method: "POST",
        path: "/projects",
        token,
        json: { name, visibility_level },
      });
      expect(res.status, res.text).toBe(201);
      return res.body;
    },

    /** Adds a member to a project as `token`. */
    async addMember(projectId: number, token: string, userId: number, access_level: number) {
      const res = await api({
        method: "POST",
        path: `/projects/${projectId}/members`,
        token,
        json: { user_id: userId, access_level },
      });
      expect(res.status, res.text).toBe(201);
    },
  };
}
