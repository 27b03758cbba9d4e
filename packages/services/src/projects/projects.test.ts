import { AccessLevel, Visibility } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { forEachDialect } from "../__tests__/harness.js";

forEachDialect((h) => {
  const createAs = (
    user: Parameters<ReturnType<typeof h>["as"]>[0],
    name: string,
    extra: Record<string, unknown> = {},
  ) =>
    h()
      .as(user)
      .projects.create({ name, ...extra });

  describe("creating projects", () => {
    it("derives the path from the name, defaults to the caller's namespace, and makes the creator a master", async () => {
      const alice = await h().user("alice");
      const view = await createAs(alice, "My Project.v2");
      expect(view.project).toMatchObject({
        name: "My Project.v2",
        path: "my-project-v2",
        visibility_level: 0,
      });
      expect(view.namespace).toMatchObject({ path: "alice", kind: "user" });
      expect(view.owner?.id).toBe(alice.id);
      expect(view.runnersToken).toMatch(/^[A-Za-z0-9]{20}$/);
      const members = await h().as(alice).projectMembers.list({ id: view.project.id });
      expect(members.items.map((m) => [m.user.username, m.membership.access_level])).toEqual([
        ["alice", AccessLevel.MASTER],
      ]);
      const events = await h().as(alice).projects.events({ id: view.project.id });
      expect(events.items.map((e) => e.event.action)).toEqual([1]);
    });

    it("takes visibility_level over public, and the settings' default otherwise", async () => {
      const bob = await h().user("bob");
      expect((await createAs(bob, "a", { public: true })).project.visibility_level).toBe(Visibility.PUBLIC);
      expect(
        (await createAs(bob, "b", { public: true, visibility_level: 10 })).project.visibility_level,
      ).toBe(10);
      await h().system.settings.update({ default_project_visibility: 2 });
      expect((await createAs(bob, "c")).project.visibility_level).toBe(Visibility.PUBLIC);
    });

    it("refuses a name or path already used in the namespace with 409, and bad names with 400", async () => {
      const carol = await h().user("carol");
      await createAs(carol, "Thing");
      await expect(createAs(carol, "thing")).rejects.toMatchObject({ code: "CONFLICT" });
      await expect(createAs(carol, "Other", { path: "THING" })).rejects.toMatchObject({ code: "CONFLICT" });
      await expect(createAs(carol, "-bad")).rejects.toMatchObject({ code: "BAD_REQUEST" });
      await expect(createAs(carol, "ok", { path: "x.git" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
      // another user's namespace may hold the same name
      expect((await createAs(await h().user("dave"), "Thing")).project.path).toBe("thing");
    });

    it("enforces projects_limit with GitLab's message", async () => {
      const erin = await h().system.users.create({
        username: "erin",
        email: "erin@example.com",
        name: "Erin",
        password: "password123",
        projects_limit: 1,
      });
      await createAs(erin, "one");
      await expect(createAs(erin, "two")).rejects.toMatchObject({
        code: "FORBIDDEN",
        cause: { failure: { kind: "forbidden", reason: "projects_limit_reached", limit: 1 } },
      });
    });

    it("refuses restricted visibility levels to non-admins only", async () => {
      await h().system.settings.update({ restricted_visibility_levels: [20] });
      const frank = await h().user("frank");
      await expect(createAs(frank, "p", { visibility_level: 20 })).rejects.toMatchObject({
        cause: { kind: "validation", fields: { visibility_level: [expect.stringContaining("restricted")] } },
      });
      const admin = await h().user("boss", { admin: true });
      expect((await createAs(admin, "p", { visibility_level: 20 })).project.visibility_level).toBe(20);
    });

    it("only lets the caller create in their own namespace", async () => {
      const gina = await h().user("gina");
      const hank = await h().user("hank");
      const hankNamespace = await h().runtime.stores.namespaces.findForUser(hank.id);
      await expect(createAs(gina, "x", { namespace_id: hankNamespace?.id })).rejects.toMatchObject({
        cause: { kind: "validation", fields: { namespace: ["is not valid"] } },
      });
      const created = await h().system.projects.createForUser({ user_id: hank.id, name: "for hank" });
      expect(created.namespace.id).toBe(hankNamespace?.id);
    });
  });

  describe("reading and changing projects", () => {
    it("hides private projects from non-members as 404, by id and by path", async () => {
      const owner = await h().user("owner");
      const stranger = await h().user("stranger");
      const { project } = await createAs(owner, "secret");
      await expect(h().as(stranger).projects.get({ id: project.id })).rejects.toMatchObject({
        code: "NOT_FOUND",
        cause: { failure: { kind: "not_found", subject: "project" } },
      });
      await expect(h().as(stranger).projects.get({ id: "owner/secret" })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
      expect((await h().as(owner).projects.get({ id: "OWNER/Secret" })).project.id).toBe(project.id);
      const internal = await createAs(owner, "shared", { visibility_level: 10 });
      expect((await h().as(stranger).projects.get({ id: internal.project.id })).project.name).toBe("shared");
    });

    it("lets masters change settings but only owners rename or change visibility", async () => {
      const owner = await h().user("owner");
      const master = await h().user("master");
      const { project } = await createAs(owner, "proj");
      await h()
        .as(owner)
        .projectMembers.add({ id: project.id, user_id: master.id, access_level: AccessLevel.MASTER });
      const updated = await h()
        .as(master)
        .projects.update({ id: project.id, description: "new", issues_enabled: false });
      expect(updated.project).toMatchObject({ description: "new", issues_enabled: false });
      await expect(h().as(master).projects.update({ id: project.id, name: "renamed" })).rejects.toMatchObject(
        { code: "FORBIDDEN" },
      );
      await expect(
        h().as(master).projects.update({ id: project.id, visibility_level: 20 }),
      ).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      expect(
        (await h().as(owner).projects.update({ id: project.id, name: "renamed", path: "renamed" })).project
          .path,
      ).toBe("renamed");
    });

    it("stars once (304 after), unstars once, and keeps the count", async () => {
      const owner = await h().user("owner");
      const fan = await h().user("fan");
      const { project } = await createAs(owner, "popular", { visibility_level: 20 });
      expect((await h().as(fan).projects.star({ id: project.id })).project.star_count).toBe(1);
      await expect(h().as(fan).projects.star({ id: project.id })).rejects.toMatchObject({
        cause: { kind: "not_modified" },
      });
      const starred = await h().as(fan).projects.starred({});
      expect(starred.items.map((v) => v.project.id)).toEqual([project.id]);
      expect((await h().as(fan).projects.unstar({ id: project.id })).project.star_count).toBe(0);
      await expect(h().as(fan).projects.unstar({ id: project.id })).rejects.toMatchObject({
        cause: { kind: "not_modified" },
      });
    });

    it("archives idempotently, for owners only", async () => {
      const owner = await h().user("owner");
      const dev = await h().user("dev");
      const { project } = await createAs(owner, "old");
      await h()
        .as(owner)
        .projectMembers.add({ id: project.id, user_id: dev.id, access_level: AccessLevel.DEVELOPER });
      await expect(h().as(dev).projects.archive({ id: project.id })).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      expect((await h().as(owner).projects.archive({ id: project.id })).project.archived).toBe(true);
      expect((await h().as(owner).projects.archive({ id: project.id })).project.archived).toBe(true);
      expect((await h().as(owner).projects.unarchive({ id: project.id })).project.archived).toBe(false);
    });

    it("deletes for owners and admins only", async () => {
      const owner = await h().user("owner");
      const master = await h().user("master");
      const { project } = await createAs(owner, "doomed");
      await h()
        .as(owner)
        .projectMembers.add({ id: project.id, user_id: master.id, access_level: AccessLevel.MASTER });
      await expect(h().as(master).projects.remove({ id: project.id })).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      expect(await h().as(owner).projects.remove({ id: project.id })).toBe(true);
      await expect(h().as(owner).projects.get({ id: project.id })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
    });
  });

  describe("lists", () => {
    it("list the caller's projects, owned ones, visible ones and all (admins), with filters and order", async () => {
      const alice = await h().user("alice");
      const bob = await h().user("bob");
      const admin = await h().user("boss", { admin: true });
      const a1 = await createAs(alice, "alpha", { visibility_level: 0 });
      const a2 = await createAs(alice, "beta", { visibility_level: 20 });
      const b1 = await createAs(bob, "gamma", { visibility_level: 10 });
      await h().as(alice).projects.archive({ id: a1.project.id });

      const ids = (page: { items: { project: { id: number } }[] }) => page.items.map((v) => v.project.id);
      expect(ids(await h().as(alice).projects.list({}))).toEqual([a2.project.id, a1.project.id]);
      expect(ids(await h().as(alice).projects.list({ archived: false }))).toEqual([a2.project.id]);
      expect(ids(await h().as(alice).projects.list({ order_by: "name", sort: "asc" }))).toEqual([
        a1.project.id,
        a2.project.id,
      ]);
      expect(ids(await h().as(alice).projects.owned({ visibility: "public" }))).toEqual([a2.project.id]);
      expect(ids(await h().as(bob).projects.visible({}))).toEqual([b1.project.id, a2.project.id]);
      expect(ids(await h().as(bob).projects.search({ query: "ALP" }))).toEqual([]);
      expect(ids(await h().as(alice).projects.search({ query: "alp" }))).toEqual([a1.project.id]);
      // administrators get their own projects from /projects, everything from /projects/all
      expect(ids(await h().as(admin).projects.list({}))).toEqual([]);
      expect(ids(await h().as(admin).projects.all({ per_page: 2 }))).toEqual([b1.project.id, a2.project.id]);
      await expect(h().as(alice).projects.all({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    });
  });

  describe("members", () => {
    it("are managed by masters: add (idempotent), change, remove; levels above master are refused", async () => {
      const owner = await h().user("owner");
      const dev = await h().user("dev");
      const reporter = await h().user("reporter");
      const { project } = await createAs(owner, "team");
      const added = await h()
        .as(owner)
        .projectMembers.add({ id: project.id, user_id: dev.id, access_level: 30 });
      expect(added.membership.access_level).toBe(30);
      const again = await h()
        .as(owner)
        .projectMembers.add({ id: project.id, user_id: dev.id, access_level: 20 });
      expect(again.membership.access_level).toBe(30);
      await expect(
        h().as(owner).projectMembers.add({ id: project.id, user_id: reporter.id, access_level: 50 }),
      ).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
      await expect(
        h().as(dev).projectMembers.add({ id: project.id, user_id: reporter.id, access_level: 20 }),
      ).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      expect(
        (await h().as(owner).projectMembers.update({ id: project.id, user_id: dev.id, access_level: 40 }))
          .membership.access_level,
      ).toBe(40);
      expect(await h().as(owner).projectMembers.remove({ id: project.id, user_id: reporter.id })).toBeNull();
      expect((await h().as(owner).projectMembers.remove({ id: project.id, user_id: dev.id }))?.user.id).toBe(
        dev.id,
      );
      await expect(
        h().as(owner).projectMembers.get({ id: project.id, user_id: dev.id }),
      ).rejects.toMatchObject({ code: "NOT_FOUND" });
    });
  });

  describe("forks and shares", () => {
    it("forks into the caller's namespace, records the relation, and refuses a second fork of the same name", async () => {
      const owner = await h().user("owner");
      const forker = await h().user("forker");
      const { project } = await createAs(owner, "upstream", { visibility_level: 20, description: "d" });
      const fork = await h().as(forker).projectLinks.fork({ id: project.id });
      expect(fork.project).toMatchObject({
        name: "upstream",
        path: "upstream",
        visibility_level: 20,
        description: "d",
      });
      expect(fork.namespace.path).toBe("forker");
      expect(fork.forkedFrom?.project.id).toBe(project.id);
      expect((await h().as(owner).projects.get({ id: project.id })).forksCount).toBe(1);
      await expect(h().as(forker).projectLinks.fork({ id: project.id })).rejects.toMatchObject({
        code: "CONFLICT",
      });
    });

    it("lets administrators link and unlink fork relations", async () => {
      const owner = await h().user("owner");
      const a = await createAs(owner, "a");
      const b = await createAs(owner, "b");
      await expect(
        h().as(owner).projectLinks.linkFork({ id: b.project.id, forked_from_id: a.project.id }),
      ).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      expect(
        (await h().system.projectLinks.linkFork({ id: b.project.id, forked_from_id: a.project.id }))
          .forkedFrom?.project.id,
      ).toBe(a.project.id);
      await expect(
        h().system.projectLinks.linkFork({ id: b.project.id, forked_from_id: a.project.id }),
      ).rejects.toMatchObject({
        code: "CONFLICT",
      });
      expect((await h().system.projectLinks.unlinkFork({ id: b.project.id })).forkedFrom).toBeNull();
      await expect(h().system.projectLinks.unlinkFork({ id: b.project.id })).rejects.toMatchObject({
        cause: { kind: "not_modified" },
      });
    });

    it("shares with a group, giving its members at most group_access", async () => {
      const owner = await h().user("owner");
      const member = await h().user("member");
      const { project } = await createAs(owner, "shared");
      const group = await h().runtime.stores.namespaces.createGroup({
        name: "Team",
        path: "team",
        description: "",
        visibility_level: 10,
      });
      await h().runtime.stores.groupMembers.add(group.id, member.id, AccessLevel.OWNER);
      await expect(h().as(member).projects.get({ id: project.id })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
      const share = await h()
        .as(owner)
        .projectLinks.share({ id: project.id, group_id: group.id, group_access: 30 });
      expect(share).toMatchObject({ project_id: project.id, group_id: group.id, group_access: 30 });
      const seen = await h().as(member).projects.get({ id: project.id });
      expect(seen.sharedWithGroups).toEqual([
        { group_id: group.id, group_name: "Team", group_access_level: 30 },
      ]);
      await expect(h().as(member).projects.archive({ id: project.id })).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      await expect(
        h().as(owner).projectLinks.share({ id: project.id, group_id: group.id, group_access: 20 }),
      ).rejects.toMatchObject({
        code: "CONFLICT",
      });
      await h().as(owner).projectLinks.unshare({ id: project.id, group_id: group.id });
      await expect(h().as(member).projects.get({ id: project.id })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
    });
  });
});
