import type { ApiRequest } from "@kiln/testkit";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { onEachDatabase } from "./support.js";

// Values no database column can hold answer the same on SQLite and PostgreSQL, as a client error:
// ids and integers past the 32-bit integer range, and text with a NUL character (PostgreSQL
// refuses both, SQLite would look them up or store them). Nothing reaches the 500 path.

const BEYOND = "2147483648";
const HUGE = "99999999999999999999999999";
const TOO_BIG = ["must be less than or equal to 2147483647"];
const NUL = ["can't contain a null character"];
const NOT_FOUND = { message: "404 Not Found" };
const noSudoUser = (target: string) => ({ message: `404 Not Found: No user id or username for: ${target}` });

onEachDatabase("values past what the database holds", (ctx) => {
  let token: string;
  let projectId: number;
  let issueId: number;
  const api = (request: ApiRequest) => ctx().api(request);
  const answer = async (request: ApiRequest) => {
    const res = await api({ token, ...request });
    return { status: res.status, body: res.body };
  };

  let logsBefore = 0;
  beforeEach(() => {
    logsBefore = ctx().server.logs.length;
  });
  /** Error lines logged since the test began (log lines are written every 200 ms). */
  const errorLinesAfterFlush = async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return ctx()
      .server.logs.slice(logsBefore)
      .filter((line) => line["level"] === "error");
  };

  beforeAll(async () => {
    token = ctx().root.token;
    const project = await api({ method: "POST", path: "/projects", token, json: { name: "values" } });
    projectId = (project.body as { id: number }).id;
    const issue = await api({
      method: "POST",
      path: `/projects/${projectId}/issues`,
      token,
      json: { title: "an issue" },
    });
    issueId = (issue.body as { id: number }).id;
  });

  describe("ids past the integer range", () => {
    it("name nothing in a path: 404", async () => {
      for (const id of [BEYOND, HUGE]) {
        for (const path of [
          `/projects/${id}`,
          `/users/${id}`,
          `/groups/${id}`,
          `/projects/${projectId}/issues/${id}`,
          `/projects/${projectId}/merge_requests/${id}`,
          `/projects/${projectId}/milestones/${id}`,
          `/projects/${projectId}/members/${id}`,
        ]) {
          expect(await answer({ path }), path).toEqual({ status: 404, body: NOT_FOUND });
        }
        expect(await answer({ method: "DELETE", path: `/todos/${id}` })).toEqual({
          status: 404,
          body: NOT_FOUND,
        });
      }
      // A label is named by id or title: digits past the range can only be a title.
      expect(
        await answer({ method: "POST", path: `/projects/${projectId}/labels/${BEYOND}/subscription` }),
      ).toEqual({ status: 404, body: { message: "404 Label Not Found" } });
      expect(await errorLinesAfterFlush()).toEqual([]);
    });

    it("name nobody as sudo, in the header or the parameter", async () => {
      for (const target of [BEYOND, HUGE]) {
        expect(await answer({ path: "/user", headers: { SUDO: target } })).toEqual({
          status: 404,
          body: noSudoUser(target),
        });
        expect(await answer({ path: "/user", query: { sudo: target } })).toEqual({
          status: 404,
          body: noSudoUser(target),
        });
      }
    });

    it("are refused as filters and body ids with the attribute's message: 400", async () => {
      for (const name of ["author_id", "project_id"]) {
        expect(await answer({ path: "/todos", query: { [name]: BEYOND } })).toEqual({
          status: 400,
          body: { message: { [name]: TOO_BIG } },
        });
      }
      expect(await answer({ path: `/projects/${projectId}/issues`, query: { iid: BEYOND } })).toEqual({
        status: 400,
        body: { message: { iid: TOO_BIG } },
      });
      const refused = [
        { method: "POST", path: "/projects", json: { name: "p", namespace_id: Number(BEYOND) } },
        {
          method: "POST",
          path: `/projects/${projectId}/members`,
          json: { user_id: BEYOND, access_level: 30 },
        },
        {
          method: "POST",
          path: `/projects/${projectId}/issues/${issueId}/move`,
          form: { to_project_id: BEYOND },
        },
        { method: "PUT", path: "/users/1", form: { projects_limit: BEYOND } },
        {
          method: "POST",
          path: `/projects/${projectId}/labels`,
          json: { name: "l", color: "#fff", priority: BEYOND },
        },
      ];
      for (const request of refused) {
        const { status, body } = await answer(request);
        expect(
          { status, fields: Object.values((body as { message: object }).message) },
          request.path,
        ).toEqual({
          status: 400,
          fields: [TOO_BIG],
        });
      }
      expect(
        await answer({ method: "POST", path: `/projects/fork/${projectId}`, form: { namespace: HUGE } }),
      ).toMatchObject({
        status: 400,
        body: { message: { namespace: expect.any(Array) } },
      });
      expect(await errorLinesAfterFlush()).toEqual([]);
    });

    it("leave an issue without assignee or milestone, as an id naming nothing does", async () => {
      const created = await answer({
        method: "POST",
        path: `/projects/${projectId}/issues`,
        json: { title: "unassigned", assignee_id: Number(BEYOND), milestone_id: Number(BEYOND) },
      });
      expect(created).toMatchObject({ status: 200, body: { assignee: null, milestone: null } });
      const edited = await answer({
        method: "PUT",
        path: `/projects/${projectId}/issues/${issueId}`,
        form: { assignee_id: BEYOND, milestone_id: BEYOND },
      });
      expect(edited).toMatchObject({ status: 200, body: { assignee: null, milestone: null } });
    });
  });

  describe("a NUL character", () => {
    it("is refused in any text parameter with the attribute's message: 400", async () => {
      const cases: [ApiRequest, string][] = [
        [{ method: "POST", path: "/session", json: { login: "root\u0000", password: "x" } }, "login"],
        [{ method: "POST", path: `/projects/${projectId}/issues`, json: { title: "a\u0000b" } }, "title"],
        [
          {
            method: "PUT",
            path: `/projects/${projectId}/issues/${issueId}`,
            form: { description: "\u0000" },
          },
          "description",
        ],
        [
          { method: "POST", path: `/projects/${projectId}/labels`, json: { name: "l\u0000", color: "#fff" } },
          "name",
        ],
        [{ method: "POST", path: "/groups", json: { name: "g", path: "g\u0000" } }, "path"],
        [{ path: "/users", query: { search: "a\u0000" } }, "search"],
        [{ path: `/projects/${projectId}/issues`, query: { labels: "x,y\u0000" } }, "labels"],
        [
          {
            method: "POST",
            path: `/projects/${projectId}/repository/branches`,
            json: { branch_name: "b", ref: "m\u0000" },
          },
          "ref",
        ],
      ];
      for (const [request, field] of cases) {
        const anonymous = request.path === "/session";
        const res = anonymous ? await api(request) : await answer(request);
        expect({ status: res.status, body: res.body }, `${request.path} ${field}`).toEqual({
          status: 400,
          body: { message: { [field]: NUL } },
        });
      }
      expect(await errorLinesAfterFlush()).toEqual([]);
    });

    it("names nothing in a path: 404", async () => {
      for (const path of [
        `/projects/root%2Fvalues%00`,
        "/groups/a%00",
        "/projects/search/a%00",
        `/projects/${projectId}/labels/a%00/subscription`,
      ]) {
        const method = path.endsWith("subscription") ? "POST" : "GET";
        expect(await answer({ method, path }), path).toMatchObject({ status: 404 });
      }
      expect(await errorLinesAfterFlush()).toEqual([]);
    });

    it("authenticates nobody: a token is a 401, sudo a 404, git's Basic credentials a 401", async () => {
      expect(await api({ path: "/user", query: { private_token: "a\u0000" } })).toMatchObject({
        status: 401,
      });
      expect(await answer({ path: "/user", query: { sudo: "root\u0000" } })).toEqual({
        status: 404,
        body: noSudoUser("root\u0000"),
      });
      const basic = Buffer.from(`root\u0000:${ctx().server.rootPassword}`).toString("base64");
      const git = await fetch(`${ctx().server.url}/root/values.git/info/refs?service=git-upload-pack`, {
        headers: { Authorization: `Basic ${basic}` },
      });
      expect(git.status).toBe(401);
      expect(await errorLinesAfterFlush()).toEqual([]);
    });
  });
});
