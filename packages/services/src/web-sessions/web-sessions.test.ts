import { describe, expect, it } from "vitest";
import { forEachDialect } from "../__tests__/harness.js";
import { identifyToken } from "../auth/identify.js";
import { endWebSession, resumeWebSession, startWebSession } from "./sessions.js";

const BROWSER = { address: "127.0.0.1", userAgent: "test-browser" };

forEachDialect((h) => {
  describe("web sessions", () => {
    it("resume from the cookie's value as the user, and stop once ended", async () => {
      const alice = await h().user("alice");
      const { cookieValue, session } = await startWebSession(h().runtime, { userId: alice.id, ...BROWSER });
      expect(session.csrf_token).toMatch(/^[A-Za-z0-9]{32}$/);
      const resumed = await resumeWebSession(h().runtime, cookieValue);
      expect(resumed?.actor.user.id).toBe(alice.id);
      expect(resumed?.session.id).toBe(session.id);
      expect(await resumeWebSession(h().runtime, `${cookieValue}x`)).toBeNull();
      expect(await resumeWebSession(h().runtime, "")).toBeNull();
      await endWebSession(h().runtime, cookieValue);
      expect(await resumeWebSession(h().runtime, cookieValue)).toBeNull();
    });

    it("expire once unused for longer than session_expire_delay", async () => {
      const alice = await h().user("alice");
      const { cookieValue, session } = await startWebSession(h().runtime, { userId: alice.id, ...BROWSER });
      await h().system.settings.update({ session_expire_delay: 10 });
      await h().runtime.stores.webSessions.touch(session.id, new Date(Date.now() - 9 * 60_000).toISOString());
      const resumed = await resumeWebSession(h().runtime, cookieValue);
      expect(resumed?.touched).toBe(true);
      await h().runtime.stores.webSessions.touch(
        session.id,
        new Date(Date.now() - 11 * 60_000).toISOString(),
      );
      expect(await resumeWebSession(h().runtime, cookieValue)).toBeNull();
      expect(await h().as(alice).webSessions.listMine()).toEqual([]);
    });

    it("stop working for a blocked user", async () => {
      const alice = await h().user("alice");
      const { cookieValue } = await startWebSession(h().runtime, { userId: alice.id, ...BROWSER });
      await h().system.users.block({ id: alice.id });
      expect(await resumeWebSession(h().runtime, cookieValue)).toBeNull();
    });

    it("are listed and ended by their user only, one or all", async () => {
      const alice = await h().user("alice");
      const bob = await h().user("bob");
      const first = await startWebSession(h().runtime, { userId: alice.id, ...BROWSER });
      const second = await startWebSession(h().runtime, { userId: alice.id, ...BROWSER });
      const bobs = await startWebSession(h().runtime, { userId: bob.id, ...BROWSER });
      expect((await h().as(alice).webSessions.listMine()).map((s) => s.id).sort()).toEqual(
        [first.session.id, second.session.id].sort(),
      );
      await expect(h().as(alice).webSessions.endMine({ id: bobs.session.id })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
      await h().as(alice).webSessions.endMine({ id: first.session.id });
      expect(await resumeWebSession(h().runtime, first.cookieValue)).toBeNull();
      expect(await h().as(alice).webSessions.endAllMine()).toBe(1);
      expect(await resumeWebSession(h().runtime, second.cookieValue)).toBeNull();
      expect(await resumeWebSession(h().runtime, bobs.cookieValue)).not.toBeNull();
    });
  });

  describe("one's own account", () => {
    it("changes the password given the current one, and ends the web sessions", async () => {
      const alice = await h().user("alice");
      const { cookieValue } = await startWebSession(h().runtime, { userId: alice.id, ...BROWSER });
      const me = h().as(alice);
      await expect(
        me.account.changePassword({
          current_password: "wrong",
          password: "newpassword",
          password_confirmation: "newpassword",
        }),
      ).rejects.toMatchObject({ cause: { fields: { current_password: ["is invalid"] } } });
      await expect(
        me.account.changePassword({
          current_password: "password123",
          password: "newpassword",
          password_confirmation: "other",
        }),
      ).rejects.toMatchObject({ cause: { fields: { password_confirmation: ["doesn't match Password"] } } });
      expect(await resumeWebSession(h().runtime, cookieValue)).not.toBeNull();
      await me.account.changePassword({
        current_password: "password123",
        password: "newpassword",
        password_confirmation: "newpassword",
      });
      expect(await resumeWebSession(h().runtime, cookieValue)).toBeNull();
      const hash = await h().runtime.stores.users.passwordHash(alice.id);
      expect(await h().runtime.passwords.verify(hash ?? "", "newpassword")).toBe(true);
    });

    it("changes name and email, validated, never to another user's email", async () => {
      const alice = await h().user("alice");
      await h().user("bob");
      const me = h().as(alice);
      const updated = await me.account.updateProfile({ name: "Alice A.", email: "alice@new.example.com" });
      expect(updated).toMatchObject({ name: "Alice A.", email: "alice@new.example.com", username: "alice" });
      await expect(me.account.updateProfile({ email: "bob@example.com" })).rejects.toMatchObject({
        cause: { failure: { kind: "conflict", reason: "email_taken" } },
      });
      await expect(me.account.updateProfile({ email: "not an email" })).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
      await expect(me.account.updateProfile({ name: "" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    });

    it("resets the private token: the new one works, the old one no longer", async () => {
      const alice = await h().user("alice");
      const old = await h().runtime.secrets.open(
        (await h().runtime.stores.users.sealedPrivateToken(alice.id)) ?? "",
      );
      expect(await identifyToken(h().runtime, old)).not.toBeNull();
      const token = await h().as(alice).account.resetPrivateToken();
      expect(token).not.toBe(old);
      expect(await identifyToken(h().runtime, old)).toBeNull();
      expect((await identifyToken(h().runtime, token))?.user.id).toBe(alice.id);
    });
  });
});
