import { describe, expect, it } from "vitest";
import { forEachDialect } from "../__tests__/harness.js";
import { ensureRootUser } from "../bootstrap.js";

forEachDialect((h) => {
  async function privateTokenOf(username: string, password = "password123") {
    return (await h().anonymous.session.signIn({ login: username, password })).privateToken;
  }

  describe("identify", () => {
    it("resolves a private token and a personal access token to their user", async () => {
      const alice = await h().user("alice");
      const token = await privateTokenOf("alice");
      expect(await h().anonymous.auth.identify({ token })).toMatchObject({
        user: { id: alice.id },
        method: "private_token",
      });
      const pat = await h().system.tokens.createPersonal({ user_id: alice.id, name: "ci" });
      expect(pat.token).toMatch(/^[A-Za-z0-9]{20}$/);
      expect(await h().anonymous.auth.identify({ token: pat.token })).toMatchObject({
        user: { id: alice.id },
        method: "personal_access_token",
      });
      expect(await h().anonymous.auth.identify({ token: "nope" })).toBeNull();
    });

    it("stops accepting a token at once when it is revoked or its user is blocked", async () => {
      const bob = await h().user("bob");
      const token = await privateTokenOf("bob");
      const pat = await h().system.tokens.createPersonal({ user_id: bob.id, name: "ci" });
      // warm any cache first
      expect(await h().anonymous.auth.identify({ token: pat.token })).not.toBeNull();
      await h().as(bob).tokens.revokePersonal({ id: pat.id });
      expect(await h().anonymous.auth.identify({ token: pat.token })).toBeNull();

      expect(await h().anonymous.auth.identify({ token })).not.toBeNull();
      await h().system.users.block({ id: bob.id });
      expect(await h().anonymous.auth.identify({ token })).toBeNull();
      await h().system.users.unblock({ id: bob.id });
      expect(await h().anonymous.auth.identify({ token })).not.toBeNull();
    });

    it("refuses an expired personal access token", async () => {
      const carol = await h().user("carol");
      await expect(
        h().system.tokens.createPersonal({ user_id: carol.id, name: "old", expires_at: "2001-01-01" }),
      ).rejects.toThrow();
      const pat = await h().system.tokens.createPersonal({
        user_id: carol.id,
        name: "new",
        expires_at: "2999-01-01",
      });
      expect(pat.expires_at).toBe("2999-01-01T00:00:00.000Z");
      expect(await h().anonymous.auth.identify({ token: pat.token })).not.toBeNull();
    });

    it("lets users mint tokens only for themselves", async () => {
      const dan = await h().user("dan");
      const erin = await h().user("erin");
      await expect(h().as(dan).tokens.createPersonal({ user_id: erin.id, name: "x" })).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      await expect(
        h().anonymous.tokens.createPersonal({ user_id: erin.id, name: "x" }),
      ).rejects.toMatchObject({
        code: "UNAUTHORIZED",
      });
      expect((await h().as(dan).tokens.createPersonal({ name: "mine" })).user_id).toBe(dan.id);
    });
  });

  describe("sudo", () => {
    it("lets an administrator act as an active user named by id or username", async () => {
      const admin = await h().user("boss", { admin: true });
      const frank = await h().user("frank");
      expect((await h().as(admin).auth.sudo({ target: "frank" })).user.id).toBe(frank.id);
      const byId = await h()
        .as(admin)
        .auth.sudo({ target: String(frank.id) });
      expect(byId).toMatchObject({ user: { id: frank.id }, sudoBy: { id: admin.id } });
    });

    it("refuses non-admins and unknown or blocked targets with the v3 messages", async () => {
      const admin = await h().user("boss", { admin: true });
      const gina = await h().user("gina");
      await expect(h().as(gina).auth.sudo({ target: "boss" })).rejects.toMatchObject({
        cause: { failure: { kind: "forbidden", reason: "sudo_requires_admin" } },
      });
      await expect(h().as(admin).auth.sudo({ target: "ghost" })).rejects.toMatchObject({
        cause: { failure: { kind: "not_found", reason: "sudo_target_unknown", target: "ghost" } },
      });
      await h().system.users.block({ id: gina.id });
      await expect(h().as(admin).auth.sudo({ target: "gina" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    });

    it("answers an id past the integer range or a name with a NUL as naming nobody, on every database", async () => {
      const admin = await h().user("chief", { admin: true });
      for (const target of ["2147483648", "99999999999999999999999999", "chief\0"]) {
        await expect(h().as(admin).auth.sudo({ target })).rejects.toMatchObject({
          cause: { failure: { kind: "not_found", reason: "sudo_target_unknown", target } },
        });
      }
    });
  });

  describe("password sign-in", () => {
    it("refuses a login with a NUL character as wrong credentials, on every database", async () => {
      await h().user("hank");
      for (const login of ["hank\0", "\0"]) {
        await expect(h().anonymous.session.signIn({ login, password: "password123" })).rejects.toMatchObject({
          code: "UNAUTHORIZED",
        });
      }
    });
  });

  describe("first start", () => {
    it("creates root once, with a generated password when none is configured", async () => {
      const first = await ensureRootUser(h().runtime, undefined);
      expect(first).toMatchObject({ created: true });
      const password = first.created ? first.generatedPassword : null;
      expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
      const session = await h().anonymous.session.signIn({ login: "root", password: password as string });
      expect(session.user).toMatchObject({
        username: "root",
        name: "Administrator",
        email: "admin@example.com",
        is_admin: true,
      });
      expect(await ensureRootUser(h().runtime, "something-else")).toEqual({ created: false });
    });
  });
});
