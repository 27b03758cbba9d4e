import type { User } from "@kiln/domain";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { forEachDialect } from "../__tests__/harness.js";
import { base32Decode, hotp, totpStep } from "../security/totp.js";
import { type PasswordSignIn, signInWithPassword } from "./sign-in.js";
import { twoFactorRequiredNow, verifySecondFactor } from "./two-factor.js";

/** The code an authenticator app shows for `secret`, `steps` steps from now. */
const codeOf = (secret: string, steps = 0) => hotp(base32Decode(secret), totpStep(Date.now()) + steps);

forEachDialect((h) => {
  // Codes depend on the clock: it stands still mid-step, so no test meets a step's end halfway.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(2030, 0, 1, 12, 0, 15));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const signIn = (login: string, password: string, extra: Partial<PasswordSignIn> = {}) =>
    signInWithPassword(h().runtime, { login, password, address: "192.0.2.1", surface: "api", ...extra });

  /** Enrols `user` through the operations; answers the secret and the recovery codes. */
  async function enrol(user: User) {
    const { secret } = await h().as(user).twoFactor.begin();
    const { recoveryCodes } = await h()
      .as(user)
      .twoFactor.confirm({ code: codeOf(secret) });
    return { secret, recoveryCodes };
  }

  describe("two-factor enrolment", () => {
    it("shows a secret with its otpauth URI and an SVG QR code, not in force until confirmed", async () => {
      const alice = await h().user("alice");
      const begun = await h().as(alice).twoFactor.begin();
      expect(begun.secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(begun.otpauthUri).toContain(`secret=${begun.secret}`);
      expect(begun.qrDataUri).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(Buffer.from(begun.qrDataUri.split(",")[1] as string, "base64").toString()).toContain("<svg");
      expect(await h().as(alice).twoFactor.status()).toMatchObject({ enabled: false, recoveryCodesLeft: 0 });
      // Pending only: the password still signs in through the API, the secret is no second factor yet.
      expect((await signIn("alice", "password123")).needsSecondFactor).toBe(false);
      expect(
        await verifySecondFactor(h().runtime, { userId: alice.id, code: codeOf(begun.secret), address: "a" }),
      ).toBe(false);
      // The stored secret is sealed, never in the clear.
      expect(JSON.stringify(await h().runtime.stores.twoFactor.find(alice.id))).not.toContain(begun.secret);
    });

    it("refuses a wrong confirmation code, and enables 2FA with ten recovery codes on a right one", async () => {
      const alice = await h().user("alice");
      const { secret } = await h().as(alice).twoFactor.begin();
      await expect(
        h()
          .as(alice)
          .twoFactor.confirm({ code: codeOf(secret, 5) }),
      ).rejects.toMatchObject({
        cause: { failure: { kind: "validation", fields: { code: ["is invalid"] } } },
      });
      const { recoveryCodes } = await h()
        .as(alice)
        .twoFactor.confirm({ code: codeOf(secret) });
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      expect(await h().as(alice).twoFactor.status()).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
      await expect(h().as(alice).twoFactor.begin()).rejects.toMatchObject({
        cause: { failure: { reason: "two_factor_already_enabled" } },
      });
    });

    it("refuses a confirmation before any enrolment was begun", async () => {
      const alice = await h().user("alice");
      await expect(h().as(alice).twoFactor.confirm({ code: "123456" })).rejects.toMatchObject({
        cause: { failure: { reason: "two_factor_not_begun" } },
      });
    });
  });

  describe("the second factor", () => {
    it("accepts a current code once: the same step is refused after, so a replayed code fails", async () => {
      const alice = await h().user("alice");
      const { secret } = await enrol(alice);
      const verify = (code: string) =>
        verifySecondFactor(h().runtime, { userId: alice.id, code, address: "192.0.2.9" });
      // The code that confirmed enrolment was for this step: it cannot sign in again.
      expect(await verify(codeOf(secret))).toBe(false);
      expect(await verify(codeOf(secret, 1))).toBe(true);
      expect(await verify(codeOf(secret, 1))).toBe(false);
      // An earlier step is refused too once a later one was accepted.
      expect(await verify(codeOf(secret, -1))).toBe(false);
      expect((await h().runtime.stores.users.findById(alice.id))?.current_sign_in_at).not.toBeNull();
    });

    it("accepts each recovery code once", async () => {
      const alice = await h().user("alice");
      const { recoveryCodes } = await enrol(alice);
      const verify = (code: string) =>
        verifySecondFactor(h().runtime, { userId: alice.id, code, address: "b" });
      const [first, second] = recoveryCodes as [string, string];
      expect(await verify(first)).toBe(true);
      expect(await verify(first)).toBe(false);
      expect(await verify(` ${second.toUpperCase()} `)).toBe(true);
      expect(await verify("")).toBe(false);
      expect(await h().as(alice).twoFactor.status()).toMatchObject({ recoveryCodesLeft: 8 });
      // New codes replace the old ones, with the password.
      const { recoveryCodes: fresh } = await h()
        .as(alice)
        .twoFactor.regenerateRecoveryCodes({ password: "password123" });
      expect(await verify(recoveryCodes[2] as string)).toBe(false);
      expect(await verify(fresh[0] as string)).toBe(true);
    });

    it("throttles wrong codes like passwords: ten lock the account", async () => {
      const alice = await h().user("alice");
      const { secret } = await enrol(alice);
      for (let i = 0; i < 10; i++) {
        expect(
          await verifySecondFactor(h().runtime, { userId: alice.id, code: "000000", address: `10.0.0.${i}` }),
        ).toBe(false);
      }
      await expect(
        verifySecondFactor(h().runtime, { userId: alice.id, code: codeOf(secret, 1), address: "10.1.1.1" }),
      ).rejects.toMatchObject({ failure: { kind: "rate_limited", reason: "sign_in_account_locked" } });
    });
  });

  describe("turning 2FA off", () => {
    it("needs the password; then the password alone signs in again", async () => {
      const alice = await h().user("alice");
      await enrol(alice);
      await expect(h().as(alice).twoFactor.disable({ password: "wrong-password" })).rejects.toMatchObject({
        cause: { failure: { kind: "validation", fields: { password: ["is invalid"] } } },
      });
      expect(await h().as(alice).twoFactor.status()).toMatchObject({ enabled: true });
      expect(await h().as(alice).twoFactor.disable({ password: "password123" })).toBe(true);
      expect(await h().as(alice).twoFactor.status()).toMatchObject({ enabled: false, recoveryCodesLeft: 0 });
      expect((await signIn("alice", "password123")).user.id).toBe(alice.id);
    });

    it("may be done by an administrator for another user, and by no one else", async () => {
      const alice = await h().user("alice");
      const bob = await h().user("bob");
      const admin = await h().user("boss", { admin: true });
      await enrol(alice);
      await expect(h().as(bob).twoFactor.disableForUser({ user_id: alice.id })).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      expect(await h().as(admin).twoFactor.disableForUser({ user_id: alice.id })).toBe(true);
      expect(await h().as(alice).twoFactor.status()).toMatchObject({ enabled: false });
      await expect(h().as(admin).twoFactor.disableForUser({ user_id: 999_999 })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
    });

    it("may be done by username (the CLI's system caller), and refuses a user without 2FA", async () => {
      const alice = await h().user("alice");
      await enrol(alice);
      const session = await signIn("alice", "password123", { surface: "web" });
      expect(session.needsSecondFactor).toBe(true);
      expect(await h().system.twoFactor.disableForUser({ username: "alice" })).toBe(true);
      expect(await h().as(alice).twoFactor.status()).toMatchObject({ enabled: false, recoveryCodesLeft: 0 });
      expect((await signIn("alice", "password123")).user.id).toBe(alice.id);
      await expect(h().system.twoFactor.disableForUser({ username: "alice" })).rejects.toMatchObject({
        cause: { failure: { kind: "bad_request", reason: "two_factor_not_enabled" } },
      });
      await expect(h().system.twoFactor.disableForUser({ username: "nobody" })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
    });
  });

  describe("password sign-in", () => {
    it("refuses a user with 2FA on the API and the OAuth password grant, and asks the web for the second step", async () => {
      const alice = await h().user("alice");
      await enrol(alice);
      for (const surface of ["api", "oauth_password"] as const) {
        await expect(signIn("alice", "password123", { surface })).rejects.toMatchObject({
          failure: { kind: "forbidden", reason: "two_factor_enabled" },
        });
      }
      // A wrong password is still just a wrong password: the refusal tells nothing without it.
      await expect(signIn("alice", "wrong-password")).rejects.toMatchObject({
        failure: { kind: "unauthenticated" },
      });
      const web = await signIn("alice", "password123", { surface: "web" });
      expect(web).toMatchObject({ user: { id: alice.id }, needsSecondFactor: true });
      // The tRPC session sign-in is the API's.
      await expect(
        h().anonymous.session.signIn({ login: "alice", password: "password123" }),
      ).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
    });

    it("refuses the 11th attempt from one address within a minute with TOO_MANY_REQUESTS", async () => {
      await h().user("alice");
      for (let i = 0; i < 10; i++) {
        await expect(signIn(`nobody${i}`, "wrong-password")).rejects.toMatchObject({
          failure: { kind: "unauthenticated" },
        });
      }
      await expect(signIn("alice", "password123")).rejects.toMatchObject({
        failure: { kind: "rate_limited", reason: "sign_in_address_throttled" },
        retryAfterSeconds: expect.any(Number),
      });
      expect((await signIn("alice", "password123", { address: "192.0.2.2" })).user.username).toBe("alice");
      await expect(
        h().anonymous.session.signIn({ login: "alice", password: "password123" }),
      ).resolves.toBeDefined();
    });

    it("locks an account after 10 failures from anywhere, even for the right password; a success before resets", async () => {
      await h().user("alice");
      const from = (i: number) => ({ address: `198.51.100.${i}` });
      for (let i = 0; i < 9; i++) await expect(signIn("alice", "wrong-password", from(i))).rejects.toThrow();
      await signIn("alice", "password123", from(100));
      for (let i = 0; i < 10; i++) await expect(signIn("alice", "wrong-password", from(i))).rejects.toThrow();
      await expect(signIn("alice", "password123", from(101))).rejects.toMatchObject({
        failure: { kind: "rate_limited", reason: "sign_in_account_locked", retryAfterSeconds: 600 },
      });
      // The email names the same account.
      await expect(signIn("alice@example.com", "password123", from(102))).rejects.toMatchObject({
        failure: { reason: "sign_in_account_locked" },
      });
    });
  });

  describe("the 2FA requirement", () => {
    it("gives each user the grace period from the requirement or their creation, whichever is later", async () => {
      const alice = await h().user("alice");
      expect(await h().as(alice).twoFactor.status()).toMatchObject({
        requiredSince: null,
        graceEndsAt: null,
      });
      await h().system.settings.update({
        require_two_factor_authentication: true,
        two_factor_grace_period: 0,
      });
      const status = await h().as(alice).twoFactor.status();
      expect(status.requiredSince).not.toBeNull();
      expect(status.graceEndsAt).toBe(status.requiredSince);
      expect(await twoFactorRequiredNow(h().runtime, alice)).toBe(true);
      await enrol(alice);
      const enrolled = (await h().runtime.stores.users.findById(alice.id)) as User;
      expect(await twoFactorRequiredNow(h().runtime, enrolled)).toBe(false);

      await h().system.settings.update({ two_factor_grace_period: 48 });
      const bob = await h().user("bob");
      const bobStatus = await h().as(bob).twoFactor.status();
      expect(Date.parse(bobStatus.graceEndsAt as string) - Date.parse(bob.created_at)).toBe(48 * 3_600_000);
      expect(await twoFactorRequiredNow(h().runtime, bob)).toBe(false);

      await h().system.settings.update({ require_two_factor_authentication: false });
      expect(await h().as(bob).twoFactor.status()).toMatchObject({ requiredSince: null, graceEndsAt: null });
    });
  });
});
