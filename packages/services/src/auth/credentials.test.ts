import { describe, expect, it } from "vitest";
import { forEachDialect } from "../__tests__/harness.js";
import { base32Decode, hotp, totpStep } from "../security/totp.js";
import { type Credentials, identifyActor } from "./credentials.js";
import { signInWithPassword } from "./sign-in.js";

forEachDialect((h) => {
  async function privateTokenOf(username: string, password = "password123") {
    return (await h().anonymous.session.signIn({ login: username, password })).privateToken;
  }
  const identify = (credentials: Credentials) => identifyActor(h().runtime, credentials);
  const header = (token: string): Credentials => ({ kind: "token", token, via: "private_token_header" });
  const basic = (username: string, password: string): Credentials => ({ kind: "basic", username, password });

  describe("credentials into an actor", () => {
    it("turns a private token, by parameter or header, into its user acting as themselves with the api scope", async () => {
      const alice = await h().user("alice");
      const token = await privateTokenOf("alice");
      const actor = { user: { id: alice.id }, method: "private_token", sudoBy: null, scopes: ["api"] };
      expect(await identify(header(token))).toMatchObject(actor);
      expect(await identify({ kind: "token", token, via: "private_token_param" })).toMatchObject(actor);
    });

    it("turns a personal access token into its user", async () => {
      const alice = await h().user("alice");
      const pat = await h().system.tokens.createPersonal({ user_id: alice.id, name: "ci" });
      expect(await identify(header(pat.token))).toMatchObject({
        user: { id: alice.id },
        method: "personal_access_token",
        scopes: ["api"],
      });
    });

    it("turns Basic credentials into the user of the password, or of a token given as the password", async () => {
      const alice = await h().user("alice");
      await h().user("bob");
      const token = await privateTokenOf("alice");
      const pat = await h().system.tokens.createPersonal({ user_id: alice.id, name: "git" });
      for (const login of ["alice", "alice@example.com"]) {
        expect(await identify(basic(login, "password123"))).toMatchObject({
          user: { id: alice.id },
          method: "password",
          scopes: ["api"],
        });
      }
      // A token decides alone, before any password: whatever the username, even another user's.
      expect(await identify(basic("bob", token))).toMatchObject({
        user: { id: alice.id },
        method: "private_token",
      });
      expect(await identify(basic("", pat.token))).toMatchObject({
        user: { id: alice.id },
        method: "personal_access_token",
      });
    });

    it("names nobody for a wrong or empty token, a wrong password, or unreadable credentials", async () => {
      await h().user("alice");
      expect(await identify(header("not-a-token"))).toBeNull();
      expect(await identify(header(""))).toBeNull();
      expect(await identify(basic("alice", "wrong-one"))).toBeNull();
      expect(await identify(basic("alice", ""))).toBeNull();
      expect(await identify(basic("", "password123"))).toBeNull();
      expect(await identify({ kind: "unreadable" })).toBeNull();
    });

    it("refuses passwords but still takes tokens over Basic while password sign-in is disabled", async () => {
      const alice = await h().user("alice");
      const token = await privateTokenOf("alice");
      await h().system.settings.update({ signin_enabled: false });
      expect(await identify(basic("alice", "password123"))).toBeNull();
      expect(await identify(basic("alice", token))).toMatchObject({ user: { id: alice.id } });
    });

    it("refuses the password of a user with two-factor authentication over Basic, but takes their tokens", async () => {
      const alice = await h().user("alice");
      const token = await privateTokenOf("alice");
      const { secret } = await h().as(alice).twoFactor.begin();
      await h()
        .as(alice)
        .twoFactor.confirm({ code: hotp(base32Decode(secret), totpStep(Date.now())) });
      expect(await identify(basic("alice", "password123"))).toBeNull();
      expect(await identify(basic("alice", token))).toMatchObject({ user: { id: alice.id } });
    });

    it("refuses every credential of a blocked user at once, and takes them again when unblocked", async () => {
      const bob = await h().user("bob");
      const token = await privateTokenOf("bob");
      const pat = await h().system.tokens.createPersonal({ user_id: bob.id, name: "ci" });
      const all = [header(token), header(pat.token), basic("bob", "password123"), basic("x", token)];
      // Warm any cache first.
      for (const credentials of all) expect(await identify(credentials)).not.toBeNull();
      await h().system.users.block({ id: bob.id });
      for (const credentials of all) expect(await identify(credentials)).toBeNull();
      await h().system.users.unblock({ id: bob.id });
      for (const credentials of all) expect(await identify(credentials)).not.toBeNull();
    });

    it("names nobody for credentials holding a NUL character, on every database", async () => {
      await h().user("hank");
      const token = await privateTokenOf("hank");
      for (const credentials of [
        header(`${token}\0`),
        header("\0"),
        basic("hank\0", "password123"),
        basic("\0", "password123"),
        basic("hank", "password123\0"),
        basic("hank", `${token}\0`),
      ]) {
        expect(await identify(credentials)).toBeNull();
      }
    });

    it("answers a token the identity cache knows without a promise", async () => {
      await h().user("ivy");
      const token = await privateTokenOf("ivy");
      expect(await identify(header(token))).not.toBeNull();
      const again = identify(header(token));
      if (h().runtime.identities) expect(again).not.toBeInstanceOf(Promise);
      expect(await again).toMatchObject({ user: { username: "ivy" } });
    });
  });

  describe("throttling passwords over Basic (git)", () => {
    const fromAddress = (credentials: Credentials, address: string) =>
      identifyActor(h().runtime, credentials, address);
    /** The throttle's refusal of `attempt`, or null when it was answered. */
    const throttled = async (attempt: () => unknown) => {
      try {
        await attempt();
        return null;
      } catch (error) {
        return (error as { failure?: unknown }).failure ?? error;
      }
    };

    it("locks the account after 10 wrong passwords, sign-ins' failures included, while its tokens still work", async () => {
      const alice = await h().user("alice");
      const token = await privateTokenOf("alice");
      const signIn = (password: string) =>
        signInWithPassword(h().runtime, { login: "alice", password, address: "203.0.113.1", surface: "api" });
      for (let i = 0; i < 5; i++) await expect(signIn("wrong")).rejects.toThrow();
      for (let i = 0; i < 5; i++) {
        expect(await fromAddress(basic("alice", "wrong"), `198.51.100.${i}`)).toBeNull();
      }
      // Locked: the right password is refused before any hash, over Basic and at sign-in alike.
      for (const attempt of [
        () => fromAddress(basic("alice@example.com", "password123"), "198.51.100.99"),
        () => signIn("password123"),
      ]) {
        expect(await throttled(attempt)).toMatchObject({
          kind: "rate_limited",
          reason: "sign_in_account_locked",
          retryAfterSeconds: 600,
        });
      }
      expect(await fromAddress(basic("alice", token), "198.51.100.99")).toMatchObject({
        user: { id: alice.id },
      });
    });

    it("counts failures only: a right password forgets them, so a clone's many requests never lock", async () => {
      await h().user("alice");
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 9; i++)
          expect(await fromAddress(basic("alice", "wrong"), `198.51.100.${i}`)).toBeNull();
        for (let i = 0; i < 12; i++) {
          expect(await fromAddress(basic("alice", "password123"), "198.51.100.1")).not.toBeNull();
        }
      }
    });

    it("bans an address after 10 wrong git passwords on any logins; tokens and other addresses still pass", async () => {
      const alice = await h().user("alice");
      const token = await privateTokenOf("alice");
      for (let i = 0; i < 10; i++)
        expect(await fromAddress(basic(`nobody${i}`, "guess"), "192.0.2.7")).toBeNull();
      expect(await throttled(() => fromAddress(basic("alice", "password123"), "192.0.2.7"))).toMatchObject({
        kind: "rate_limited",
        reason: "git_address_banned",
        retryAfterSeconds: 3600,
      });
      expect(await fromAddress(basic("alice", token), "192.0.2.7")).toMatchObject({ user: { id: alice.id } });
      expect(await fromAddress(basic("alice", "password123"), "192.0.2.8")).toMatchObject({
        user: { id: alice.id },
      });
      // Sign-ins are limited their own way, not by the git ban.
      const signedIn = await signInWithPassword(h().runtime, {
        login: "alice",
        password: "password123",
        address: "192.0.2.7",
        surface: "api",
      });
      expect(signedIn.user.id).toBe(alice.id);
    });

    it("does not count an address's right passwords, nor its tokens, toward its ban", async () => {
      await h().user("alice");
      const token = await privateTokenOf("alice");
      for (let i = 0; i < 9; i++)
        expect(await fromAddress(basic(`nobody${i}`, "guess"), "192.0.2.9")).toBeNull();
      for (let i = 0; i < 20; i++) {
        expect(await fromAddress(basic("alice", "password123"), "192.0.2.9")).not.toBeNull();
        expect(await fromAddress(basic("alice", token), "192.0.2.9")).not.toBeNull();
      }
      expect(await fromAddress(basic("alice", "password123"), "192.0.2.9")).not.toBeNull();
    });
  });
});
