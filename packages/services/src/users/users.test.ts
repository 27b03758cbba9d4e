import { describe, expect, it } from "vitest";
import { forEachDialect } from "../__tests__/harness.js";

forEachDialect((h) => {
  describe("users", () => {
    it("creates an account with defaults from the settings and its personal namespace", async () => {
      await h().runtime.stores.settings.write({ default_projects_limit: 42 });
      h().runtime.settingsChanged();
      const user = await h().user("alice");
      expect(user).toMatchObject({
        projects_limit: 42,
        can_create_group: true,
        is_admin: false,
        state: "active",
      });
      expect(user.confirmed_at).not.toBeNull();
      expect(await h().runtime.stores.namespaces.findForUser(user.id)).toMatchObject({
        path: "alice",
        kind: "user",
      });
    });

    it("gives external users no project or group creation, on create and on every later change", async () => {
      const input = { email: "ext@example.com", name: "Ext", password: "password123" };
      const ext = await h().system.users.create({
        ...input,
        username: "ext",
        external: true,
        projects_limit: 10,
        can_create_group: true,
      });
      expect(ext).toMatchObject({ external: true, projects_limit: 0, can_create_group: false });
      const raised = await h().system.users.update({ id: ext.id, projects_limit: 5, can_create_group: true });
      expect(raised).toMatchObject({ projects_limit: 0, can_create_group: false });
      const released = await h().system.users.update({ id: ext.id, external: false, projects_limit: 5 });
      expect(released).toMatchObject({ external: false, projects_limit: 5, can_create_group: false });
      const regular = await h().user("regular");
      expect(await h().system.users.update({ id: regular.id, external: true })).toMatchObject({
        projects_limit: 0,
        can_create_group: false,
      });
    });

    it("refuses taken usernames and emails in any case, with the GitLab messages", async () => {
      await h().user("bob");
      const again = { name: "B", password: "password123" };
      await expect(
        h().system.users.create({ ...again, username: "BOB", email: "new@example.com" }),
      ).rejects.toMatchObject({
        code: "CONFLICT",
        cause: { failure: { kind: "conflict", reason: "username_taken" } },
      });
      await expect(
        h().system.users.create({ ...again, username: "bobby", email: "Bob@Example.com" }),
      ).rejects.toMatchObject({
        code: "CONFLICT",
        cause: { failure: { kind: "conflict", reason: "email_taken" } },
      });
    });

    // Both accounts are the same: the loser is told of whichever it ran into first, the username (at
    // the insert) or the email (its check ran after the winner committed); never a database error.
    it("answers the loser of two identical creations at once as a conflict, not a database error", async () => {
      const input = { username: "twin", email: "twin@example.com", name: "Twin", password: "password123" };
      for (let round = 0; round < 5; round++) {
        const username = `${input.username}${round}`;
        const both = await Promise.allSettled([
          h().system.users.create({ ...input, username, email: `${username}@example.com` }),
          h().system.users.create({ ...input, username, email: `${username}@example.com` }),
        ]);
        expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        const lost = both.find((r) => r.status === "rejected");
        expect(lost?.reason).toMatchObject({ code: "CONFLICT", cause: { failure: { kind: "conflict" } } });
        expect(["username_taken", "email_taken"]).toContain(lost?.reason.cause.failure.reason);
      }
    });

    it("is for administrators only", async () => {
      const carol = await h().user("carol");
      const input = { username: "x1", email: "x1@example.com", name: "x", password: "password123" };
      await expect(h().as(carol).users.create(input)).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(h().anonymous.users.create(input)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
      await expect(h().as(carol).users.block({ id: carol.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    });

    it("updates an account; a new username renames the namespace; the password changes", async () => {
      const dan = await h().user("dan");
      const updated = await h().system.users.update({
        id: dan.id,
        username: "daniel",
        name: "Daniel",
        password: "newpassword",
      });
      expect(updated).toMatchObject({ username: "daniel", name: "Daniel" });
      expect(await h().runtime.stores.namespaces.findForUser(dan.id)).toMatchObject({
        path: "daniel",
        name: "Daniel",
      });
      await expect(
        h().anonymous.session.signIn({ login: "daniel", password: "password123" }),
      ).rejects.toMatchObject({
        code: "UNAUTHORIZED",
      });
      expect((await h().anonymous.session.signIn({ login: "daniel", password: "newpassword" })).user.id).toBe(
        dan.id,
      );
    });

    it("keeps one's own username and email available to oneself, and refuses others'", async () => {
      const erin = await h().user("erin");
      await h().user("frank");
      expect(
        await h().system.users.update({ id: erin.id, username: "ERIN", email: "erin@example.com" }),
      ).toMatchObject({
        username: "ERIN",
      });
      await expect(h().system.users.update({ id: erin.id, username: "frank" })).rejects.toMatchObject({
        code: "CONFLICT",
      });
      await expect(
        h().system.users.update({ id: erin.id, email: "frank@example.com" }),
      ).rejects.toMatchObject({
        code: "CONFLICT",
      });
      await expect(h().system.users.update({ id: erin.id })).rejects.toMatchObject({ code: "BAD_REQUEST" });
      await expect(h().system.users.update({ id: 999_999, name: "x" })).rejects.toMatchObject({
        code: "NOT_FOUND",
        cause: { failure: { kind: "not_found", subject: "user" } },
      });
    });

    it("shows private fields to administrators only", async () => {
      const gina = await h().user("gina");
      const admin = await h().user("boss", { admin: true });
      expect(await h().as(gina).users.get({ id: admin.id })).toMatchObject({ full: false });
      expect(await h().as(admin).users.get({ id: gina.id })).toMatchObject({ full: true });
      const list = await h().as(gina).users.list({ per_page: 1, page: 2 });
      expect(list).toMatchObject({ page: 2, perPage: 1, total: 2 });
      expect(list.items[0]).toMatchObject({ full: false });
    });

    it("deletes an account with what it owns", async () => {
      const hank = await h().user("hank");
      expect((await h().system.users.remove({ id: hank.id })).username).toBe("hank");
      expect(await h().runtime.stores.namespaces.pathTaken("hank")).toBe(false);
      await expect(h().system.users.remove({ id: hank.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    });
  });

  describe("session", () => {
    it("signs in by username or email and returns the private token", async () => {
      const ivan = await h().user("ivan");
      const byName = await h().anonymous.session.signIn({ login: "ivan", password: "password123" });
      const byEmail = await h().anonymous.session.signIn({
        email: "IVAN@example.com",
        password: "password123",
      });
      expect(byName.privateToken).toBe(byEmail.privateToken);
      expect(byName.user.id).toBe(ivan.id);
      expect(byEmail.user.current_sign_in_at).not.toBeNull();
      expect(byEmail.user.last_sign_in_at).toBe(byName.user.current_sign_in_at);
    });

    it("refuses wrong passwords, unknown and blocked users alike", async () => {
      const jill = await h().user("jill");
      const wrong = { code: "UNAUTHORIZED", cause: { failure: { kind: "unauthenticated" } } };
      await expect(
        h().anonymous.session.signIn({ login: "jill", password: "nope-nope" }),
      ).rejects.toMatchObject(wrong);
      await expect(
        h().anonymous.session.signIn({ login: "ghost", password: "password123" }),
      ).rejects.toMatchObject(wrong);
      await h().system.users.block({ id: jill.id });
      await expect(
        h().anonymous.session.signIn({ login: "jill", password: "password123" }),
      ).rejects.toMatchObject(wrong);
      await expect(h().anonymous.session.signIn({ password: "password123" })).rejects.toMatchObject({
        cause: { failure: { kind: "missing_param", attribute: "login" } },
      });
    });

    it("is refused while sign-in is disabled", async () => {
      await h().user("kate");
      await h().runtime.stores.settings.write({ signin_enabled: false });
      h().runtime.settingsChanged();
      await expect(
        h().anonymous.session.signIn({ login: "kate", password: "password123" }),
      ).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
    });
  });
});
