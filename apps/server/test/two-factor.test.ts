/**
 * Sign-in throttling and two-factor authentication over real HTTP: `POST /session` is limited per
 * client address (Rack::Attack's 10 a minute) and per account (locked after 10 failures), and,
 * from GitLab 9.0 on, refuses users with 2FA, who use personal access tokens.
 */
import type { UserPublic } from "@kiln/schemas";
import { actorOf, createCaller } from "@kiln/services";
import { createUser, type KilnProcess } from "@kiln/testkit";
import { describe, expect, it } from "vitest";
import { openBackend } from "../src/app.js";
import { readConfig } from "../src/config.js";
import { onEachDatabase, runKiln } from "./support.js";
import { totpAt } from "./totp.js";

/** Enrols a user in 2FA and gives them a personal access token, through the services on the server's database. */
async function enrolInProcess(server: KilnProcess, userId: number): Promise<{ pat: string }> {
  const { database, runtime } = await openBackend(readConfig(server.kilnEnv));
  try {
    const user = await runtime.stores.users.findById(userId);
    if (!user) throw new Error(`no user ${userId}`);
    const as = createCaller({ runtime, actor: actorOf({ user, method: "password" }), system: false });
    const { secret } = await as.twoFactor.begin();
    await as.twoFactor.confirm({ code: totpAt(secret, Date.now()) });
    const system = createCaller({ runtime, actor: null, system: true });
    return { pat: (await system.tokens.createPersonal({ user_id: userId, name: "cli" })).token };
  } finally {
    await database.close();
  }
}

onEachDatabase(
  "sign-in throttle and two-factor authentication",
  (served) => {
    const signIn = (login: string, password: string, localAddress: string) =>
      served().api<{ message: string }>({
        method: "POST",
        path: "/session",
        json: { login, password },
        localAddress,
      });

    describe("throttling POST /session", () => {
      it("answers the 11th attempt from one address within a minute with 429 and Retry-After", async () => {
        for (let i = 1; i <= 10; i++) {
          expect((await signIn(`nobody${i}`, "wrong-password", "127.0.0.5")).status).toBe(401);
        }
        const eleventh = await signIn("root", served().server.rootPassword, "127.0.0.5");
        expect(eleventh.status).toBe(429);
        const retryAfter = Number(eleventh.headers.get("retry-after"));
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(eleventh.body.message).toBe(
          `429 Too Many Requests: too many sign-in attempts from your address, retry in ${retryAfter} seconds`,
        );
        // Another client is not held back by this one.
        expect((await signIn("root", served().server.rootPassword, "127.0.0.6")).status).toBe(201);
      });

      it("locks an account after 10 failed sign-ins from any addresses, the right password included", async () => {
        await createUser(served().server, served().root, "locked");
        for (let i = 10; i < 20; i++) {
          expect((await signIn("locked", "wrong-password", `127.0.1.${i}`)).status).toBe(401);
        }
        const locked = await signIn("locked", "password123", "127.0.1.30");
        expect(locked.status).toBe(429);
        expect(locked.headers.get("retry-after")).toBe("600");
        expect(locked.body.message).toBe(
          "429 Too Many Requests: this account is locked after too many failed sign-ins, retry in 10 minutes",
        );
      });
    });

    describe("a user with two-factor authentication", () => {
      it("is refused by POST /session with GitLab's 2FA message, while their tokens work and show 2FA on", async () => {
        const alice = await createUser(served().server, served().root, "alice2fa");
        const { pat } = await enrolInProcess(served().server, alice.id);
        const refused = await signIn("alice2fa", "password123", "127.0.2.1");
        expect(refused.status).toBe(401);
        expect(refused.body).toEqual({
          message:
            "401 Unauthorized. You have 2FA enabled. Please use a personal access token to access the API",
        });
        for (const token of [pat, alice.token]) {
          const me = await served().api<UserPublic>({ path: "/user", token });
          expect(me.status).toBe(200);
          expect(me.body).toMatchObject({ username: "alice2fa", two_factor_enabled: true });
        }
        const bob = await createUser(served().server, served().root, "bobno2fa");
        const bobMe = await served().api<UserPublic>({ path: "/user", token: bob.token });
        expect(bobMe.body.two_factor_enabled).toBe(false);
      });
    });

    describe("kiln user disable-two-factor", () => {
      it("turns off the 2FA of a user who lost their device, on the server's database, and fails clearly otherwise", async () => {
        const lost = await createUser(served().server, served().root, "lostdevice");
        const { pat } = await enrolInProcess(served().server, lost.id);
        expect((await signIn("lostdevice", "password123", "127.0.2.2")).status).toBe(401);
        const disable = (...args: string[]) =>
          runKiln(["user", "disable-two-factor", ...args], served().server.kilnEnv);

        const disabled = await disable("--user", "lostdevice");
        expect(disabled.stderr).toBe("");
        expect(disabled.code).toBe(0);
        expect(disabled.stdout).toBe(
          "disabled two-factor authentication for lostdevice: their authenticator secret and recovery codes are deleted, and they sign in with their password alone until they enrol again; their web sessions and tokens are unchanged\n",
        );
        // The password alone signs in again, and the tokens they had still work.
        expect((await signIn("lostdevice", "password123", "127.0.2.3")).status).toBe(201);
        expect((await served().api({ path: "/user", token: pat })).status).toBe(200);

        expect(await disable("--user", "lostdevice")).toMatchObject({
          code: 1,
          stdout: "",
          stderr: "kiln: 400 (Bad request) two-factor authentication is not enabled\n",
        });
        expect(await disable("--user", "nobody-at-all")).toMatchObject({
          code: 1,
          stderr: "kiln: 404 User Not Found\n",
        });
        expect(await disable()).toMatchObject({
          code: 1,
          stderr: "kiln: --user is required (see kiln user disable-two-factor --help)\n",
        });
        // Four runs of the CLI, each starting node and opening the database: slow on a busy machine.
      }, 60_000);
    });

    describe("the require-2FA settings", () => {
      it("round-trip through /application/settings with their defaults and are validated", async () => {
        const settings = (method: string, json?: unknown) =>
          served().api<Record<string, unknown>>({
            method,
            path: "/application/settings",
            token: served().root.token,
            json,
          });
        expect((await settings("GET")).body).toMatchObject({
          require_two_factor_authentication: false,
          two_factor_grace_period: 48,
        });
        const changed = await settings("PUT", {
          require_two_factor_authentication: true,
          two_factor_grace_period: 24,
        });
        expect(changed.status).toBe(200);
        expect(changed.body).toMatchObject({
          require_two_factor_authentication: true,
          two_factor_grace_period: 24,
        });
        expect(changed.body).not.toHaveProperty("two_factor_required_since");
        expect((await settings("GET")).body).toMatchObject({
          require_two_factor_authentication: true,
          two_factor_grace_period: 24,
        });
        for (const bad of [-1, 1.5, "soon"]) {
          const refused = await settings("PUT", { two_factor_grace_period: bad });
          expect(refused.status).toBe(400);
          expect(refused.body).toHaveProperty("message.two_factor_grace_period");
        }
        expect((await settings("PUT", { require_two_factor_authentication: false })).status).toBe(200);
      });
    });
  },
  { env: { KILN_SIGN_IN_THROTTLE: "on" } },
);

describe("KILN_SIGN_IN_THROTTLE", () => {
  it("is on unless turned off", () => {
    expect(readConfig({}).signInThrottle).toBe(true);
    expect(readConfig({ KILN_SIGN_IN_THROTTLE: "off" }).signInThrottle).toBe(false);
    expect(() => readConfig({ KILN_SIGN_IN_THROTTLE: "maybe" })).toThrow(
      /KILN_SIGN_IN_THROTTLE must be on or off/,
    );
  });
});
