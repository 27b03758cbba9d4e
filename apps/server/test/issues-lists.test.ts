import { IssueJson } from "@kiln/schemas";
import { createUser, type TestUser } from "@kiln/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import { issueClient } from "./issues-support.js";
import { onEachDatabase } from "./support.js";

const titles = (body: unknown) =>
  IssueJson.array()
    .parse(body)
    .map((issue) => issue.title);

onEachDatabase("issues API: lists", (ctx) => {
  const client = issueClient(ctx);
  const { api, create, edit } = client;
  let owner: TestUser;
  let reporter: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  beforeAll(async () => {
    const make = (name: string) => createUser(ctx().server, ctx().root, name);
    owner = await make("il-owner");
    reporter = await make("il-reporter");
    guest = await make("il-guest");
    outsider = await make("il-outsider");
  });

  describe("GET /projects/:id/issues", () => {
    let projectId: number;
    const list = (user: TestUser, query: Record<string, string | number> = {}) =>
      api<unknown>({ path: `/projects/${projectId}/issues`, token: user.token, query });
    const ids: Record<string, IssueJson> = {};

    beforeAll(async () => {
      projectId = (await client.project(owner.token, "il-list")).id;
      await client.addMember(projectId, owner.token, reporter.id, 20);
      await client.addMember(projectId, owner.token, guest.id, 10);
      const m1 = await client.milestone(projectId, owner.token, "m1");
      ids.A = await create(projectId, owner.token, { title: "A", labels: "bug", milestone_id: m1.id });
      ids.B = await create(projectId, owner.token, { title: "B", labels: "feature" });
      ids.C = await create(projectId, owner.token, { title: "C", labels: "bug,feature" });
      ids.D = await create(projectId, owner.token, { title: "D", confidential: true });
      ids.E = await create(projectId, guest.token, { title: "E", confidential: true });
      await edit(ids.B, owner.token, { state_event: "close" });
      await edit(ids.C, owner.token, { state_event: "close" });
      await edit(ids.C, owner.token, { state_event: "reopen" });
      const updated = { A: "2020-01-03", B: "2020-01-01", C: "2020-01-02", D: "2020-01-05", E: "2020-01-04" };
      for (const [name, day] of Object.entries(updated)) {
        const res = await edit(ids[name]!, owner.token, { title: name, updated_at: `${day}T00:00:00Z` });
        expect(res.status).toBe(200);
      }
    });

    it("lists every state, newest first, with X-Total from the counters", async () => {
      const res = await list(reporter);
      expect(res.status).toBe(200);
      expect(titles(res.body)).toEqual(["E", "D", "C", "B", "A"]);
      expect(res.headers.get("x-total")).toBe("5");
      expect(res.headers.get("x-total-pages")).toBe("1");
      expect(
        IssueJson.array()
          .parse(res.body)
          .find((i) => i.title === "C")?.state,
      ).toBe("reopened");
    });

    it("leaves out confidential issues a guest did not write, and counts without them", async () => {
      const res = await list(guest);
      expect(titles(res.body)).toEqual(["E", "C", "B", "A"]);
      expect(res.headers.get("x-total")).toBe("4");
    });

    it("filters by state: opened includes reopened, closed only closed", async () => {
      expect(titles((await list(reporter, { state: "opened" })).body)).toEqual(["E", "D", "C", "A"]);
      expect(titles((await list(reporter, { state: "closed" })).body)).toEqual(["B"]);
      expect(titles((await list(reporter, { state: "all" })).body)).toHaveLength(5);
      expect((await list(reporter, { state: "merged" })).status).toBe(400);
    });

    it("filters by labels (any of them), milestone title and iid", async () => {
      expect(titles((await list(reporter, { labels: "bug" })).body)).toEqual(["C", "A"]);
      expect(titles((await list(reporter, { labels: "bug,feature" })).body)).toEqual(["C", "B", "A"]);
      expect(titles((await list(reporter, { labels: "nothing-like-it" })).body)).toEqual([]);
      expect(titles((await list(reporter, { milestone: "m1" })).body)).toEqual(["A"]);
      expect(titles((await list(reporter, { milestone: "no-such" })).body)).toEqual([]);
      expect(titles((await list(reporter, { iid: ids.B!.iid })).body)).toEqual(["B"]);
    });

    it("orders by created_at or updated_at, either way", async () => {
      expect(titles((await list(reporter, { sort: "asc" })).body)).toEqual(["A", "B", "C", "D", "E"]);
      const byUpdate = await list(reporter, { order_by: "updated_at", sort: "asc" });
      expect(titles(byUpdate.body)).toEqual(["B", "C", "A", "E", "D"]);
      expect(titles((await list(reporter, { order_by: "updated_at" })).body)).toEqual([
        "D",
        "E",
        "A",
        "C",
        "B",
      ]);
      expect((await list(reporter, { order_by: "title" })).status).toBe(400);
    });

    it("paginates with GitLab's headers", async () => {
      const res = await list(reporter, { per_page: 2, page: 2 });
      expect(titles(res.body)).toEqual(["C", "B"]);
      expect(
        Object.fromEntries(
          ["x-total", "x-total-pages", "x-per-page", "x-page", "x-next-page", "x-prev-page"].map((h) => [
            h,
            res.headers.get(h),
          ]),
        ),
      ).toEqual({
        "x-total": "5",
        "x-total-pages": "3",
        "x-per-page": "2",
        "x-page": "2",
        "x-next-page": "3",
        "x-prev-page": "1",
      });
      const link = res.headers.get("link") ?? "";
      for (const rel of ["prev", "next", "first", "last"]) expect(link).toContain(`rel="${rel}"`);
      const filtered = await list(reporter, { per_page: 1, labels: "bug" });
      expect(filtered.headers.get("x-total")).toBe("2");
    });

    it("is 404 for outsiders of a private project", async () => {
      expect(await list(outsider)).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    });
  });

  describe("GET /issues", () => {
    let author: TestUser;
    let sharedId: number;
    beforeAll(async () => {
      author = await createUser(ctx().server, ctx().root, "il-author");
      const pub = await client.project(owner.token, "il-public", 20);
      const own = await client.project(author.token, "il-own");
      const shared = await client.project(owner.token, "il-shared");
      sharedId = shared.id;
      await client.addMember(shared.id, owner.token, author.id, 20);
      await create(pub.id, author.token, { title: "U1" });
      await create(own.id, author.token, { title: "U2", labels: "x" });
      await create(shared.id, author.token, { title: "U3", labels: "y" });
      await create(pub.id, owner.token, { title: "Not mine" });
      const closed = await create(own.id, author.token, { title: "U4" });
      await edit(closed, author.token, { state_event: "close" });
    });
    const mine = (query: Record<string, string | number> = {}) =>
      api<unknown>({ path: "/issues", token: author.token, query });

    it("lists only the issues the caller wrote, every state, newest first", async () => {
      const res = await mine();
      expect(res.status).toBe(200);
      expect(titles(res.body)).toEqual(["U4", "U3", "U2", "U1"]);
      expect(res.headers.get("x-total")).toBe("4");
    });

    it("filters by state and labels (any) and orders as asked", async () => {
      expect(titles((await mine({ state: "opened" })).body)).toEqual(["U3", "U2", "U1"]);
      expect(titles((await mine({ state: "closed" })).body)).toEqual(["U4"]);
      expect(titles((await mine({ labels: "x,y" })).body)).toEqual(["U3", "U2"]);
      expect(titles((await mine({ sort: "asc", per_page: 2 })).body)).toEqual(["U1", "U2"]);
    });

    it("drops issues of projects the caller may no longer read", async () => {
      const removed = await api({
        method: "DELETE",
        path: `/projects/${sharedId}/members/${author.id}`,
        token: owner.token,
      });
      expect(removed.status).toBe(200);
      expect(titles((await mine()).body)).toEqual(["U4", "U2", "U1"]);
    });
  });

  describe("GET /groups/:id/issues", () => {
    let groupId: number;
    let groupPath: string;
    let groupReporter: TestUser;
    let groupGuest: TestUser;
    let projectMember: TestUser;
    beforeAll(async () => {
      const make = (name: string) => createUser(ctx().server, ctx().root, name);
      groupReporter = await make("il-g-reporter");
      groupGuest = await make("il-g-guest");
      projectMember = await make("il-g-member");
      const group = await api<{ id: number; path: string }>({
        method: "POST",
        path: "/groups",
        token: owner.token,
        json: { name: "il-grp", path: "il-grp" },
      });
      expect(group.status).toBe(201);
      groupId = group.body.id;
      groupPath = group.body.path;
      for (const [user, level] of [
        [groupReporter, 20],
        [groupGuest, 10],
      ] as const) {
        const added = await api({
          method: "POST",
          path: `/groups/${groupId}/members`,
          token: owner.token,
          json: { user_id: user.id, access_level: level },
        });
        expect(added.status).toBe(201);
      }
      const inGroup = async (name: string) => {
        const res = await api<{ id: number }>({
          method: "POST",
          path: "/projects",
          token: owner.token,
          json: { name, namespace_id: groupId },
        });
        expect(res.status, res.text).toBe(201);
        return res.body.id;
      };
      const p1 = await inGroup("il-g-one");
      const p2 = await inGroup("il-g-two");
      await client.addMember(p1, owner.token, projectMember.id, 20);
      const gm = await client.milestone(p1, owner.token, "gm");
      await create(p1, owner.token, { title: "G1", labels: "x,y", milestone_id: gm.id });
      const g2 = await create(p1, owner.token, { title: "G2", labels: "x" });
      await edit(g2, owner.token, { state_event: "close" });
      await create(p1, owner.token, { title: "G3", confidential: true });
      await create(p2, owner.token, { title: "G4", labels: "x,y" });
    });
    const groupIssues = (
      user: TestUser,
      query: Record<string, string | number> = {},
      ref: string | number = groupId,
    ) => api<unknown>({ path: `/groups/${ref}/issues`, token: user.token, query });

    it("lists the open issues of the group's projects by default, confidential ones for reporters", async () => {
      const res = await groupIssues(groupReporter);
      expect(res.status).toBe(200);
      expect(titles(res.body)).toEqual(["G4", "G3", "G1"]);
      expect(titles((await groupIssues(groupReporter, {}, groupPath)).body)).toEqual(["G4", "G3", "G1"]);
      expect(titles((await groupIssues(groupReporter, { state: "all" })).body)).toEqual([
        "G4",
        "G3",
        "G2",
        "G1",
      ]);
      expect(titles((await groupIssues(groupReporter, { state: "closed" })).body)).toEqual(["G2"]);
    });

    it("hides confidential issues from group guests and projects from those who may not read them", async () => {
      expect(titles((await groupIssues(groupGuest)).body)).toEqual(["G4", "G1"]);
      expect(titles((await groupIssues(projectMember)).body)).toEqual(["G3", "G1"]);
    });

    it("matches issues carrying all the labels, and milestones by title", async () => {
      expect(titles((await groupIssues(groupReporter, { labels: "x,y" })).body)).toEqual(["G4", "G1"]);
      expect(titles((await groupIssues(groupReporter, { labels: "x", state: "all" })).body)).toEqual([
        "G4",
        "G2",
        "G1",
      ]);
      expect(titles((await groupIssues(groupReporter, { milestone: "gm" })).body)).toEqual(["G1"]);
      expect(titles((await groupIssues(groupReporter, { sort: "asc" })).body)).toEqual(["G1", "G3", "G4"]);
    });

    it("is 404 Group Not Found for a private group the caller may not see", async () => {
      expect(await groupIssues(outsider)).toMatchObject({
        status: 404,
        body: { message: "404 Group Not Found" },
      });
      expect((await groupIssues(outsider, {}, 99_999_999)).status).toBe(404);
    });
  });
});
