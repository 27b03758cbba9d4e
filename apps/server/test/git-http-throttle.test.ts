/**
 * Git's passwords over HTTP are throttled as sign-ins are, with the real git client against the
 * real server: wrong ones count toward the account lock every sign-in shares (Devise lockable) and
 * toward a ban of the client's address (Rack::Attack's `git_basic_auth`); right ones and tokens
 * never count, so a clone's many requests cannot lock anyone. Git's connections are relayed from
 * other loopback addresses, so each test is another client.
 */
import { join } from "node:path";
import type { ProjectJson } from "@kiln/schemas";
import { createUser, type TestUser } from "@kiln/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AddressRelay, type GitClient, gitClient, relayFrom, repoUrl } from "./git-client.js";
import { onEachDatabase } from "./support.js";

const LOCKED =
  "remote: This account is locked after too many failed sign-ins. Retry in 10 minutes, or use a personal access token as the password.";
const BANNED =
  "remote: Too many failed git sign-ins from your address: passwords are refused for 60 minutes. A personal access token still works as the password.";
/** What git prints when the server refused its credentials. */
const AUTH_FAILED = "Authentication failed";

const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;

onEachDatabase(
  "git passwords over HTTP, throttled",
  (served) => {
    let client: GitClient;
    const relays: AddressRelay[] = [];
    beforeAll(() => {
      client = gitClient();
    });
    afterAll(async () => {
      for (const relay of relays) await relay.close();
      client?.remove();
    });

    /** The server's base URL for git connecting from `address`. */
    async function from(address: string): Promise<string> {
      const relay = await relayFrom(served().server.url, address);
      relays.push(relay);
      return relay.url;
    }

    /** A new user with a private project holding one commit (pushed with their token). */
    async function userWithRepository(username: string): Promise<{ user: TestUser; path: string }> {
      const user = await createUser(served().server, served().root, username);
      const created = await served().api<ProjectJson>({
        method: "POST",
        path: "/projects",
        token: user.token,
        json: { name: `${username}-code` },
      });
      expect(created.status).toBe(201);
      const path = created.body.path_with_namespace;
      const work = join(client.root, `${username}-work`);
      await client.ok(["init", "--quiet", "--initial-branch=master", work]);
      await client.commit(work, "initial commit");
      const target = repoUrl(served().server.url, path, { username, secret: user.token });
      await client.ok(["push", "--quiet", target, "master"], work);
      return { user, path };
    }

    const lsRemote = (base: string, path: string, username: string, secret: string) =>
      client.run(["ls-remote", repoUrl(base, path, { username, secret })]);
    const clone = (base: string, path: string, username: string, secret: string, name: string) =>
      client.run(["clone", "--quiet", repoUrl(base, path, { username, secret }), join(client.root, name)]);
    /** git's first request, with Basic credentials, sent from `localAddress`; answers its status and Retry-After. */
    async function infoRefs(path: string, username: string, password: string, localAddress: string) {
      const answer = await served().api({
        path: `${served().server.url}/${path}.git/info/refs?service=git-upload-pack`,
        headers: { Authorization: basic(username, password) },
        localAddress,
      });
      return { status: answer.status, retryAfter: Number(answer.headers.get("retry-after")) };
    }

    describe("the account lock", () => {
      it("locks an account after 10 wrong git passwords from any addresses: the right one gets 429 while its token still clones", async () => {
        const { user, path } = await userWithRepository("gitlocked");
        for (let i = 1; i <= 10; i++) {
          const wrong = await lsRemote(await from(`127.0.3.${i}`), path, user.username, "wrong-password");
          expect(wrong.stderr).toContain(AUTH_FAILED);
        }
        const base = await from("127.0.3.50");
        const refused = await lsRemote(base, path, user.username, "password123");
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toContain(LOCKED);
        expect(refused.stderr).toContain("429");
        expect(refused.stderr).not.toContain(AUTH_FAILED);
        const answered = await infoRefs(path, user.username, "password123", "127.0.3.51");
        expect(answered.status).toBe(429);
        expect(answered.retryAfter).toBeGreaterThan(0);
        expect(answered.retryAfter).toBeLessThanOrEqual(600);
        // One lock for every surface: POST /session is refused too.
        const session = await served().api({
          method: "POST",
          path: "/session",
          json: { login: user.username, password: "password123" },
          localAddress: "127.0.3.52",
        });
        expect(session.status).toBe(429);
        const byToken = await clone(base, path, "anyone", user.token, "locked-by-token");
        expect(byToken.code, byToken.stderr).toBe(0);
      });

      it("counts failures only: clones with the right password, request after request, never lock", async () => {
        const { user, path } = await userWithRepository("gitbusy");
        const base = await from("127.0.4.50");
        for (const [round, address] of ["127.0.4.1", "127.0.4.2"].entries()) {
          // Nine failures: one more would lock, and a clone makes several requests with the password.
          const wrongFrom = await from(address);
          for (let i = 0; i < 9; i++) {
            expect((await lsRemote(wrongFrom, path, user.username, "wrong-password")).stderr).toContain(
              AUTH_FAILED,
            );
          }
          const cloned = await clone(base, path, user.username, "password123", `busy-${round}`);
          expect(cloned.code, cloned.stderr).toBe(0);
          const fetched = await client.run(
            ["fetch", "--quiet", "origin"],
            join(client.root, `busy-${round}`),
          );
          expect(fetched.code, fetched.stderr).toBe(0);
        }
      });
    });

    describe("the ban of an address", () => {
      it("refuses an address's git passwords for an hour after 10 failures on any logins; its tokens and other addresses still work", async () => {
        const { user, path } = await userWithRepository("gitbanned");
        const banned = await from("127.0.5.1");
        for (let i = 0; i < 10; i++) {
          expect((await lsRemote(banned, path, `nobody${i}`, "guess")).stderr).toContain(AUTH_FAILED);
        }
        const refused = await lsRemote(banned, path, user.username, "password123");
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toContain(BANNED);
        const answered = await infoRefs(path, user.username, "password123", "127.0.5.1");
        expect(answered.status).toBe(429);
        expect(answered.retryAfter).toBeGreaterThan(600);
        expect(answered.retryAfter).toBeLessThanOrEqual(3600);
        const byToken = await clone(banned, path, user.username, user.token, "banned-by-token");
        expect(byToken.code, byToken.stderr).toBe(0);
        const elsewhere = await clone(
          await from("127.0.5.2"),
          path,
          user.username,
          "password123",
          "elsewhere",
        );
        expect(elsewhere.code, elsewhere.stderr).toBe(0);
      });
    });
  },
  { env: { KILN_SIGN_IN_THROTTLE: "on" } },
);
