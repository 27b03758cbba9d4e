import type { GroupDetailJson, ProjectJson } from "@kiln/schemas";
import { createUser, type TestUser } from "@kiln/testkit";
import { expect } from "vitest";
import type { Served } from "./support.js";

/** A group detail, or the error body that came instead. */
export type DetailBody = GroupDetailJson & { message?: unknown };

/** The users every groups suite starts with, none of them in a group yet. */
export interface GroupCast {
  owner: TestUser;
  master: TestUser;
  guest: TestUser;
  stranger: TestUser;
}

/** Creates the cast on the suite's server. */
export async function createCast(served: Served): Promise<GroupCast> {
  const make = (name: string) => createUser(served.server, served.root, name);
  return {
    owner: await make("owner"),
    master: await make("master"),
    guest: await make("guest"),
    stranger: await make("stranger"),
  };
}

/** Requests that set up groups and projects over HTTP, each checked for success. */
export function groupSetup(served: () => Served) {
  return {
    /** Creates a group as `user` (name `Group <path>`) and answers its detail. */
    async createGroup(user: TestUser, path: string, extra: Record<string, unknown> = {}) {
      const res = await served().api<DetailBody>({
        method: "POST",
        path: "/groups",
        token: user.token,
        json: { name: `Group ${path}`, path, ...extra },
      });
      expect(res.status).toBe(201);
      return res.body;
    },

    /** Adds `user` to a group at `level`, as `by` (an owner of it). */
    async addMember(by: TestUser, group: number | string, user: TestUser, level: number) {
      const res = await served().api({
        method: "POST",
        path: `/groups/${group}/members`,
        token: by.token,
        form: { user_id: user.id, access_level: level },
      });
      expect(res.status).toBe(201);
    },

    /** Creates a project as `user`. */
    async createProject(user: TestUser, form: Record<string, string | number | boolean>) {
      const res = await served().api<ProjectJson>({
        method: "POST",
        path: "/projects",
        token: user.token,
        form,
      });
      expect(res.status).toBe(201);
      return res.body;
    },
  };
}
