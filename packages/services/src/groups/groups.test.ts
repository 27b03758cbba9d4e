import { AccessLevel, Visibility } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { groupTeam, membersOf, projectIn } from "../__tests__/groups.js";
import { forEachDialect } from "../__tests__/harness.js";

const groupNotFound = { code: "NOT_FOUND", cause: { failure: { kind: "not_found", subject: "group" } } };
const invalidField = (field: string, message: unknown) => ({
  code: "BAD_REQUEST",
  cause: { kind: "validation", fields: { [field]: [message] } },
});

forEachDialect((h) => {
  describe("creating groups", () => {
    it("makes the creator the owner, private by default, and answers the detail", async () => {
      const alice = await h().user("alice");
      const detail = await h().as(alice).groups.create({ name: "Platform Team", path: "platform" });
      expect(detail.group).toMatchObject({
        name: "Platform Team",
        path: "platform",
        kind: "group",
        description: "",
        visibility_level: Visibility.PRIVATE,
      });
      expect(detail).toMatchObject({ projects: [], sharedProjects: [] });
      const members = await h().as(alice).groupMembers.list({ id: detail.group.id });
      expect(members.items.map((m) => [m.user.username, m.membership.access_level])).toEqual([
        ["alice", AccessLevel.OWNER],
      ]);
    });

    it("keeps paths unique across users and groups in any case, and refuses reserved or bad paths", async () => {
      const bob = await h().user("bob");
      await h().as(bob).groups.create({ name: "Ops", path: "ops" });
      const taken = invalidField("path", "has already been taken");
      await expect(h().as(bob).groups.create({ name: "x", path: "OPS" })).rejects.toMatchObject(taken);
      await expect(h().as(bob).groups.create({ name: "x", path: "Bob" })).rejects.toMatchObject(taken);
      // schema-level: the REST adapter reports these as `{"message":{"path":["is reserved"]}}`
      await expect(h().as(bob).groups.create({ name: "x", path: "admin" })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringContaining("is reserved"),
      });
      await expect(h().as(bob).groups.create({ name: "x", path: "-x" })).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
      await expect(h().as(bob).groups.create({ name: "a/b", path: "ab" })).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
    });

    it("gives exactly one of two racing creations the path; the loser gets the same 400", async () => {
      const carol = await h().user("carol");
      const results = await Promise.allSettled(
        [1, 2].map((n) =>
          h()
            .as(carol)
            .groups.create({ name: `Race ${n}`, path: "race" }),
        ),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const lost = results.find((r) => r.status === "rejected");
      expect(lost?.reason).toMatchObject(invalidField("path", "has already been taken"));
    });

    it("needs can_create_group, which administrators do not", async () => {
      const denied = await h().system.users.create({
        username: "dan",
        email: "dan@example.com",
        name: "dan",
        password: "password123",
        can_create_group: false,
      });
      await expect(h().as(denied).groups.create({ name: "D", path: "d" })).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      const admin = await h().system.users.create({
        username: "boss",
        email: "boss@example.com",
        name: "boss",
        password: "password123",
        admin: true,
        can_create_group: false,
      });
      expect((await h().as(admin).groups.create({ name: "B", path: "b" })).group.path).toBe("b");
    });

    it("refuses visibility levels restricted by the administrator to non-admins", async () => {
      await h().system.settings.update({ restricted_visibility_levels: [20] });
      const erin = await h().user("erin");
      await expect(
        h().as(erin).groups.create({ name: "E", path: "e", visibility_level: 20 }),
      ).rejects.toMatchObject(invalidField("visibility_level", expect.stringContaining("restricted")));
      const admin = await h().user("root2", { admin: true });
      const created = await h().as(admin).groups.create({ name: "E", path: "e", visibility_level: 20 });
      expect(created.group.visibility_level).toBe(20);
    });
  });

  describe("reading groups", () => {
    it("shows a private group to its members at every level and to admins, and hides it from others as 404", async () => {
      const team = await groupTeam(h(), Visibility.PRIVATE);
      for (const user of [...membersOf(team), team.admin]) {
        expect((await h().as(user).groups.get({ id: team.group.id })).group.id).toBe(team.group.id);
      }
      for (const user of [team.stranger, team.external]) {
        await expect(h().as(user).groups.get({ id: team.group.id })).rejects.toMatchObject(groupNotFound);
        await expect(h().as(user).groups.get({ id: "team" })).rejects.toMatchObject(groupNotFound);
      }
    });

    it("shows internal groups to every non-external user and public groups to everyone", async () => {
      const team = await groupTeam(h(), Visibility.INTERNAL);
      expect((await h().as(team.stranger).groups.get({ id: "TEAM" })).group.id).toBe(team.group.id);
      await expect(h().as(team.external).groups.get({ id: team.group.id })).rejects.toMatchObject(
        groupNotFound,
      );
      await h().as(team.owner).groups.update({ id: team.group.id, visibility_level: Visibility.PUBLIC });
      expect(
        (
          await h()
            .as(team.external)
            .groups.get({ id: String(team.group.id) })
        ).group.path,
      ).toBe("team");
    });

    it("finds groups by id or path only: unknown ids and user namespaces are 404 Group", async () => {
      const frank = await h().user("frank");
      await expect(h().as(frank).groups.get({ id: 999_999 })).rejects.toMatchObject(groupNotFound);
      await expect(h().as(frank).groups.get({ id: "frank" })).rejects.toMatchObject(groupNotFound);
    });

    it("shows a private group to whoever may read one of its projects, with only that project", async () => {
      const team = await groupTeam(h(), Visibility.PRIVATE);
      const open = await projectIn(h(), team.owner, team.group.id, "open");
      await projectIn(h(), team.owner, team.group.id, "closed");
      await h()
        .as(team.owner)
        .projectMembers.add({ id: open.id, user_id: team.stranger.id, access_level: AccessLevel.GUEST });
      const detail = await h().as(team.stranger).groups.get({ id: team.group.id });
      expect(detail.projects.map((view) => view.project.name)).toEqual(["open"]);
      await expect(h().as(team.stranger).groupMembers.list({ id: team.group.id })).resolves.toMatchObject({
        total: 5,
      });
    });

    it("lists in the detail the projects and shared projects the caller may read; admins see all", async () => {
      const team = await groupTeam(h(), Visibility.PUBLIC);
      await projectIn(h(), team.owner, team.group.id, "public", { visibility_level: Visibility.PUBLIC });
      await projectIn(h(), team.owner, team.group.id, "internal", { visibility_level: Visibility.INTERNAL });
      await projectIn(h(), team.owner, team.group.id, "private");
      const outsider = await h().user("outsider");
      const outside = (await h().as(outsider).projects.create({ name: "outside" })).project;
      await h()
        .as(team.admin)
        .projectLinks.share({ id: outside.id, group_id: team.group.id, group_access: AccessLevel.REPORTER });
      const seen = async (user: typeof team.owner) => {
        const detail = await h().as(user).groups.get({ id: team.group.id });
        return [detail.projects.map((v) => v.project.name), detail.sharedProjects.map((v) => v.project.name)];
      };
      expect(await seen(team.guest)).toEqual([["public", "internal", "private"], ["outside"]]);
      expect(await seen(team.admin)).toEqual([["public", "internal", "private"], ["outside"]]);
      expect(await seen(team.stranger)).toEqual([["public", "internal"], []]);
      expect(await seen(team.external)).toEqual([["public"], []]);
    });

    it("lists the caller's groups (all for admins), searches name or path, and paginates", async () => {
      const team = await groupTeam(h(), Visibility.PUBLIC);
      await h().as(team.stranger).groups.create({ name: "Alpha", path: "other-a" });
      await h().as(team.stranger).groups.create({ name: "Beta", path: "other-b" });
      const paths = async (user: typeof team.owner, input = {}) =>
        (await h().as(user).groups.list(input)).items.map((group) => group.path);
      expect(await paths(team.guest)).toEqual(["team"]);
      expect(await paths(team.stranger)).toEqual(["other-a", "other-b"]);
      expect(await paths(team.admin)).toEqual(["team", "other-a", "other-b"]);
      expect(await paths(team.admin, { search: "ALPHA" })).toEqual(["other-a"]);
      expect(await paths(team.admin, { search: "other" })).toEqual(["other-a", "other-b"]);
      const page = await h().as(team.admin).groups.list({ per_page: 2, page: 2 });
      expect(page).toMatchObject({ page: 2, perPage: 2, total: 3 });
      expect(page.items.map((group) => group.path)).toEqual(["other-b"]);
    });
  });

  describe("the projects of a group", () => {
    it("lists the group's projects the caller may read, with filters and ci_enabled_first", async () => {
      const team = await groupTeam(h(), Visibility.INTERNAL);
      await projectIn(h(), team.owner, team.group.id, "a-private");
      await projectIn(h(), team.owner, team.group.id, "b-internal", {
        visibility_level: Visibility.INTERNAL,
        builds_enabled: false,
      });
      await projectIn(h(), team.owner, team.group.id, "c-internal", {
        visibility_level: Visibility.INTERNAL,
      });
      const names = async (user: typeof team.owner, input = {}) =>
        (
          await h()
            .as(user)
            .groups.projects({ id: "team", order_by: "name", sort: "asc", ...input })
        ).items.map((view) => view.project.name);
      expect(await names(team.guest)).toEqual(["a-private", "b-internal", "c-internal"]);
      expect(await names(team.admin)).toEqual(["a-private", "b-internal", "c-internal"]);
      expect(await names(team.stranger)).toEqual(["b-internal", "c-internal"]);
      expect(await names(team.guest, { ci_enabled_first: true })).toEqual([
        "a-private",
        "c-internal",
        "b-internal",
      ]);
      expect(await names(team.guest, { visibility: "private" })).toEqual(["a-private"]);
      expect(await names(team.guest, { search: "C-INT" })).toEqual(["c-internal"]);
      await expect(h().as(team.external).groups.projects({ id: "team" })).rejects.toMatchObject(
        groupNotFound,
      );
    });
  });
});
