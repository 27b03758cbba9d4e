import { GroupDetailJson, GroupJson, ProjectJson } from "@kiln/schemas";
import { type ApiRequest, createUser, type TestUser } from "@kiln/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import { createCast, type DetailBody as Detail, groupSetup } from "./group-support.js";
import { onEachDatabase } from "./support.js";

onEachDatabase("groups API", (ctx) => {
  let owner: TestUser;
  let master: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  const root = () => ctx().root;
  const api = <T = unknown>(request: ApiRequest) => ctx().api<T>(request);
  const { createGroup, addMember, createProject } = groupSetup(ctx);

  beforeAll(async () => {
    ({ owner, master, guest, stranger } = await createCast(ctx()));
  });

  const base = () => `http://localhost:${ctx().server.port}`;

  describe("groups", () => {
    it("POST /groups answers 201 with the group detail and refuses taken, reserved and missing fields", async () => {
      const res = await api<Detail>({
        method: "POST",
        path: "/groups",
        token: owner.token,
        form: { name: "Core Team", path: "core", description: "the core", visibility_level: 10 },
      });
      expect(res.status).toBe(201);
      expect(GroupDetailJson.strict().parse(res.body)).toEqual({
        id: res.body.id,
        name: "Core Team",
        path: "core",
        description: "the core",
        visibility_level: 10,
        avatar_url: null,
        web_url: `${base()}/groups/core`,
        projects: [],
        shared_projects: [],
      });
      const post = (json: Record<string, unknown>, token = owner.token) =>
        api({ method: "POST", path: "/groups", token, json });
      expect(await post({ name: "x", path: "CORE" })).toMatchObject({
        status: 400,
        body: { message: { path: ["has already been taken"] } },
      });
      expect(await post({ name: "x", path: "master" })).toMatchObject({
        status: 400,
        body: { message: { path: ["has already been taken"] } },
      });
      expect(await post({ name: "x", path: "api" })).toMatchObject({
        status: 400,
        body: { message: { path: ["is reserved"] } },
      });
      expect(await post({ path: "nameless" })).toMatchObject({
        status: 400,
        body: { message: '400 (Bad request) "name" not given' },
      });
      expect(await post({ name: "x", path: "x", visibility_level: 15 })).toMatchObject({ status: 400 });
      expect((await api({ method: "POST", path: "/groups", json: { name: "x", path: "x" } })).status).toBe(
        401,
      );
      const limited = await createUser(ctx().server, root(), "limited", { can_create_group: false });
      expect(await post({ name: "x", path: "x" }, limited.token)).toMatchObject({ status: 403 });
    });

    it("GET /groups lists the caller's groups (all for admins) with search and pagination headers", async () => {
      await createGroup(stranger, "listed-a", { description: "A" });
      await createGroup(stranger, "listed-b");
      const mine = await api<GroupJson[]>({ path: "/groups", token: stranger.token });
      expect(mine.status).toBe(200);
      expect(mine.body.map((g) => GroupJson.strict().parse(g).path)).toEqual(["listed-a", "listed-b"]);
      expect(mine.body[0]).toMatchObject({
        description: "A",
        visibility_level: 0,
        web_url: `${base()}/groups/listed-a`,
      });
      const all = await api<GroupJson[]>({
        path: "/groups",
        token: root().token,
        query: { search: "LISTED" },
      });
      expect(all.body.map((g) => g.path)).toEqual(["listed-a", "listed-b"]);
      expect((await api<GroupJson[]>({ path: "/groups", token: guest.token })).body).toEqual([]);
      const paged = await api<GroupJson[]>({
        path: "/groups",
        token: stranger.token,
        query: { per_page: 1, page: 2 },
      });
      expect(paged.body.map((g) => g.path)).toEqual(["listed-b"]);
      expect([
        paged.headers.get("x-total"),
        paged.headers.get("x-page"),
        paged.headers.get("x-prev-page"),
      ]).toEqual(["2", "2", "1"]);
    });

    it("GET /groups/:id finds by id or path; private groups are 404 to outsiders; projects are readable ones", async () => {
      const group = await createGroup(owner, "secret");
      await addMember(owner, "secret", guest, 10);
      const hidden = await createProject(owner, { name: "hidden", namespace_id: group.id });
      const outside = await createProject(stranger, { name: "outside" });
      await api({
        method: "POST",
        path: `/projects/${outside.id}/share`,
        token: root().token,
        form: { group_id: group.id, group_access: 20 },
      });
      const asGuest = await api<Detail>({ path: "/groups/SECRET", token: guest.token });
      expect(asGuest.status).toBe(200);
      const detail = GroupDetailJson.strict().parse(asGuest.body);
      expect(detail.projects.map((p) => p.id)).toEqual([hidden.id]);
      expect(detail.shared_projects.map((p) => p.id)).toEqual([outside.id]);
      expect(() => ProjectJson.strict().parse(detail.projects[0])).not.toThrow();
      expect(detail.projects[0]).not.toHaveProperty("permissions");
      // GitLab's GroupDetail shows plain Project entities: no runners token, even to the owner.
      const asOwner = await api<Detail>({ path: `/groups/${group.id}`, token: owner.token });
      expect(asOwner.body.projects.map((p) => p.id)).toEqual([hidden.id]);
      expect(asOwner.body.projects[0]).not.toHaveProperty("runners_token");
      for (const ref of [group.id, "secret"]) {
        expect(await api({ path: `/groups/${ref}`, token: stranger.token })).toMatchObject({
          status: 404,
          body: { message: "404 Group Not Found" },
        });
      }
      expect((await api({ path: "/groups/999999", token: root().token })).status).toBe(404);
      expect((await api({ path: "/groups/owner", token: owner.token })).status).toBe(404);
    });

    it("PUT /groups/:id lets owners change the group (200), refuses masters (403) and lowering below a project (400)", async () => {
      const group = await createGroup(owner, "changing", { visibility_level: 20 });
      await addMember(owner, group.id, master, 40);
      await createProject(owner, { name: "public one", namespace_id: group.id, visibility_level: 20 });
      const put = (json: Record<string, unknown>, token = owner.token) =>
        api<Detail>({ method: "PUT", path: `/groups/${group.id}`, token, json });
      const renamed = await put({ name: "Changed", description: "new words" });
      expect(renamed.status).toBe(200);
      expect(GroupDetailJson.strict().parse(renamed.body)).toMatchObject({
        name: "Changed",
        description: "new words",
      });
      expect(renamed.body.projects.map((p) => p.name)).toEqual(["public one"]);
      expect((await put({ name: "Nope" }, master.token)).status).toBe(403);
      expect(await put({ path: "owner" })).toMatchObject({
        status: 400,
        body: { message: { path: ["has already been taken"] } },
      });
      expect(await put({ visibility_level: 10 })).toMatchObject({
        status: 400,
        body: {
          message: {
            visibility_level: [
              "internal is not allowed since this group contains projects with higher visibility.",
            ],
          },
        },
      });
      expect((await put({ visibility_level: 20, path: "changed" })).body).toMatchObject({
        path: "changed",
        web_url: `${base()}/groups/changed`,
      });
    });

    it("DELETE /groups/:id removes the group with its projects for owners (200), 403 for masters", async () => {
      const group = await createGroup(owner, "doomed");
      await addMember(owner, group.id, master, 40);
      const project = await createProject(owner, { name: "goes too", namespace_id: group.id });
      expect((await api({ method: "DELETE", path: "/groups/doomed", token: master.token })).status).toBe(403);
      const removed = await api<GroupJson>({ method: "DELETE", path: "/groups/doomed", token: owner.token });
      expect(removed.status).toBe(200);
      expect(GroupJson.strict().parse(removed.body)).toMatchObject({ id: group.id, path: "doomed" });
      expect((await api({ path: `/projects/${project.id}`, token: root().token })).status).toBe(404);
      expect((await api({ method: "DELETE", path: "/groups/doomed", token: owner.token })).status).toBe(404);
    });

    it("GET /groups/:id/projects lists readable projects with permissions, filters and ci_enabled_first", async () => {
      const group = await createGroup(owner, "builders", { visibility_level: 10 });
      await createProject(owner, { name: "a-private", namespace_id: group.id });
      await createProject(owner, {
        name: "b-nobuilds",
        namespace_id: group.id,
        visibility_level: 10,
        builds_enabled: false,
      });
      await createProject(owner, { name: "c-internal", namespace_id: group.id, visibility_level: 10 });
      const list = (token: string, query: Record<string, string | number | boolean> = {}) =>
        api<ProjectJson[]>({
          path: "/groups/builders/projects",
          token,
          query: { order_by: "name", sort: "asc", ...query },
        });
      const asOwner = await list(owner.token, { ci_enabled_first: true });
      expect(asOwner.body.map((p) => p.name)).toEqual(["a-private", "c-internal", "b-nobuilds"]);
      expect(ProjectJson.strict().parse(asOwner.body[0]).permissions).toEqual({
        project_access: null,
        group_access: { access_level: 50, notification_level: 3 },
      });
      expect((await list(stranger.token)).body.map((p) => p.name)).toEqual(["b-nobuilds", "c-internal"]);
      expect((await list(owner.token, { search: "C-INT" })).body.map((p) => p.name)).toEqual(["c-internal"]);
      expect((await list(owner.token, { per_page: 1 })).headers.get("x-total")).toBe("3");
      expect((await api({ path: "/groups/nope/projects", token: owner.token })).status).toBe(404);
    });

    it("POST /groups/:id/projects/:project_id transfers a project for admins (201), 403/404/409 otherwise", async () => {
      const group = await createGroup(owner, "receiving");
      const moving = await createProject(stranger, { name: "moving", visibility_level: 20 });
      const transfer = (ref: string | number, token = root().token) =>
        api<Detail>({ method: "POST", path: `/groups/receiving/projects/${ref}`, token });
      expect((await transfer(moving.id, owner.token)).status).toBe(403);
      const moved = await transfer("stranger%2Fmoving");
      expect(moved.status).toBe(201);
      expect(
        GroupDetailJson.strict()
          .parse(moved.body)
          .projects.map((p) => [p.path_with_namespace, p.visibility_level]),
      ).toEqual([["receiving/moving", 0]]);
      expect(await transfer(999999)).toMatchObject({
        status: 404,
        body: { message: "404 Project Not Found" },
      });
      expect(
        (await api({ method: "POST", path: `/groups/nope/projects/${moving.id}`, token: root().token }))
          .status,
      ).toBe(404);
      const twin = await createProject(stranger, { name: "moving" });
      expect((await transfer(twin.id)).status).toBe(409);
      expect(group.id).toBe(moved.body.id);
    });
  });
});
