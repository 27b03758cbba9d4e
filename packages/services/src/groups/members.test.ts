import { AccessLevel, Visibility } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { groupTeam, membersOf } from "../__tests__/groups.js";
import { forEachDialect } from "../__tests__/harness.js";

const groupNotFound = { code: "NOT_FOUND", cause: { failure: { kind: "not_found", subject: "group" } } };
const memberNotFound = { code: "NOT_FOUND", cause: { failure: { kind: "not_found", subject: "member" } } };
const lastOwner = { code: "FORBIDDEN", cause: { failure: { kind: "forbidden", reason: "last_owner" } } };

forEachDialect((h) => {
  describe("listing group members", () => {
    it("lets anyone who may read the group list its members, filtered by query", async () => {
      const team = await groupTeam(h(), Visibility.PRIVATE);
      for (const user of [...membersOf(team), team.admin]) {
        const page = await h().as(user).groupMembers.list({ id: team.group.id });
        expect(page.items.map((m) => [m.user.username, m.membership.access_level])).toEqual([
          ["owner", AccessLevel.OWNER],
          ["guest", AccessLevel.GUEST],
          ["reporter", AccessLevel.REPORTER],
          ["developer", AccessLevel.DEVELOPER],
          ["master", AccessLevel.MASTER],
        ]);
      }
      await expect(h().as(team.stranger).groupMembers.list({ id: "team" })).rejects.toMatchObject(
        groupNotFound,
      );
      const found = await h().as(team.guest).groupMembers.list({ id: "team", query: "REPORT" });
      expect(found.items.map((m) => m.user.username)).toEqual(["reporter"]);
      expect(
        (await h().as(team.guest).groupMembers.get({ id: "team", user_id: team.master.id })).membership,
      ).toMatchObject({ access_level: AccessLevel.MASTER });
      await expect(
        h().as(team.guest).groupMembers.get({ id: "team", user_id: team.stranger.id }),
      ).rejects.toMatchObject(memberNotFound);
    });

    it("shows the members of a public group to non-members", async () => {
      const team = await groupTeam(h(), Visibility.PUBLIC);
      expect((await h().as(team.external).groupMembers.list({ id: "team" })).total).toBe(5);
    });
  });

  describe("adding and changing group members", () => {
    it("lets owners and admins add members at any level up to owner", async () => {
      const team = await groupTeam(h(), Visibility.PRIVATE);
      const added = await h()
        .as(team.owner)
        .groupMembers.add({ id: "team", user_id: team.stranger.id, access_level: AccessLevel.OWNER });
      expect(added).toMatchObject({ user: { username: "stranger" }, membership: { access_level: 50 } });
      const byAdmin = await h()
        .as(team.admin)
        .groupMembers.add({ id: "team", user_id: team.external.id, access_level: AccessLevel.GUEST });
      expect(byAdmin.membership.access_level).toBe(AccessLevel.GUEST);
    });

    it("refuses non-owners (403), existing members (409), unknown users (404) and bad levels (400)", async () => {
      const team = await groupTeam(h(), Visibility.PRIVATE);
      const add = (as: typeof team.owner, userId: number, level: number) =>
        h().as(as).groupMembers.add({ id: "team", user_id: userId, access_level: level });
      for (const member of [team.master, team.developer, team.reporter, team.guest]) {
        await expect(add(member, team.stranger.id, 10)).rejects.toMatchObject({ code: "FORBIDDEN" });
      }
      await expect(add(team.stranger, team.stranger.id, 10)).rejects.toMatchObject(groupNotFound);
      await expect(add(team.owner, team.guest.id, 30)).rejects.toMatchObject({
        code: "CONFLICT",
        cause: { failure: { kind: "conflict", reason: "member_exists" } },
      });
      await expect(add(team.owner, 999_999, 30)).rejects.toMatchObject({
        code: "NOT_FOUND",
        cause: { failure: { kind: "not_found", subject: "user" } },
      });
      for (const level of [0, 5, 60]) {
        await expect(add(team.owner, team.stranger.id, level)).rejects.toMatchObject({ code: "BAD_REQUEST" });
      }
      const members = await h().as(team.owner).groupMembers.list({ id: "team" });
      expect(members.items.find((m) => m.user.id === team.guest.id)?.membership.access_level).toBe(10);
      expect(members.total).toBe(5);
    });

    it("lets owners change levels; 404 for non-members; the last owner cannot be demoted", async () => {
      const team = await groupTeam(h(), Visibility.PRIVATE);
      const update = (as: typeof team.owner, userId: number, level: number) =>
        h().as(as).groupMembers.update({ id: "team", user_id: userId, access_level: level });
      expect((await update(team.owner, team.guest.id, 40)).membership.access_level).toBe(40);
      await expect(update(team.master, team.guest.id, 20)).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(update(team.owner, team.stranger.id, 20)).rejects.toMatchObject(memberNotFound);
      await expect(update(team.owner, team.owner.id, 40)).rejects.toMatchObject(lastOwner);
      await expect(update(team.admin, team.owner.id, 10)).rejects.toMatchObject(lastOwner);
      await update(team.owner, team.master.id, 50);
      expect((await update(team.master, team.owner.id, 30)).membership.access_level).toBe(30);
      await expect(update(team.owner, team.master.id, 40)).rejects.toMatchObject({ code: "FORBIDDEN" });
    });
  });

  describe("removing group members", () => {
    it("lets owners remove members and anyone leave; others get 403; non-members 404", async () => {
      const team = await groupTeam(h(), Visibility.PRIVATE);
      const remove = (as: typeof team.owner, userId: number) =>
        h().as(as).groupMembers.remove({ id: "team", user_id: userId });
      await expect(remove(team.master, team.developer.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
      expect((await remove(team.owner, team.developer.id)).user.username).toBe("developer");
      await expect(remove(team.owner, team.developer.id)).rejects.toMatchObject(memberNotFound);
      expect((await remove(team.guest, team.guest.id)).membership.access_level).toBe(AccessLevel.GUEST);
      // having left, the guest no longer sees the private group
      await expect(h().as(team.guest).groups.get({ id: "team" })).rejects.toMatchObject(groupNotFound);
      await expect(remove(team.stranger, team.stranger.id)).rejects.toMatchObject(groupNotFound);
      expect((await remove(team.admin, team.reporter.id)).user.username).toBe("reporter");
    });

    it("never removes the last owner, not even for administrators", async () => {
      const team = await groupTeam(h(), Visibility.PUBLIC);
      const remove = (as: typeof team.owner, userId: number) =>
        h().as(as).groupMembers.remove({ id: "team", user_id: userId });
      await expect(remove(team.owner, team.owner.id)).rejects.toMatchObject(lastOwner);
      await expect(remove(team.admin, team.owner.id)).rejects.toMatchObject(lastOwner);
      await h().as(team.owner).groupMembers.update({ id: "team", user_id: team.master.id, access_level: 50 });
      expect((await remove(team.owner, team.owner.id)).user.username).toBe("owner");
      await expect(remove(team.master, team.master.id)).rejects.toMatchObject(lastOwner);
    });

    it("keeps one owner when owners remove each other at the same time", async () => {
      const team = await groupTeam(h(), Visibility.PRIVATE);
      const owners = [team.owner, team.master, team.developer, team.reporter];
      for (const user of owners.slice(1)) {
        await h().as(team.owner).groupMembers.update({ id: "team", user_id: user.id, access_level: 50 });
      }
      const results = await Promise.allSettled(
        owners.flatMap((actor) =>
          owners.map((target) => h().as(actor).groupMembers.remove({ id: "team", user_id: target.id })),
        ),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(owners.length - 1);
      const left = await h().runtime.stores.groupMembers.countAtLevel(team.group.id, AccessLevel.OWNER);
      expect(left).toBe(1);
    });

    it("runs membership changes of one group one after the other, through the group's row lock", async () => {
      const team = await groupTeam(h(), Visibility.PRIVATE);
      const { stores } = h().runtime;
      const steps: string[] = [];
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const first = stores.transaction(async (tx) => {
        await tx.namespaces.lock(team.group.id);
        steps.push("first locked");
        await held;
        steps.push("first done");
      });
      while (!steps.includes("first locked")) await new Promise((resolve) => setTimeout(resolve, 5));
      const second = stores.transaction(async (tx) => {
        await tx.namespaces.lock(team.group.id);
        steps.push("second locked");
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      steps.push("released");
      release();
      await Promise.all([first, second]);
      expect(steps).toEqual(["first locked", "released", "first done", "second locked"]);
    });
  });
});
