import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createUser, seedRepository, type TestUser } from "@kiln/testkit";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GitClient, gitClient, repoUrl } from "../git-client.js";
import { onEachDatabase } from "../support.js";
import { totpAt } from "../totp.js";
import { BROWSER_TEST_MS, browserUnavailable, launchBrowser, newVisitor } from "./support.js";

// Two-factor authentication and the OAuth 2.0 authorization-code flow as a user lives them, in a
// real chromium: enrol with an authenticator's code, sign in with one, register an application,
// and let a small third-party client get a token with PKCE, use it on the API and with git.
const unavailable = browserUnavailable();

interface TokenJson {
  access_token?: string;
  error?: string;
}

describe.skipIf(unavailable !== null)(
  `two-factor sign-in and OAuth in chromium${unavailable ? `: ${unavailable}` : ""}`,
  { timeout: BROWSER_TEST_MS },
  () => {
    let browser: Browser;
    let client: ThirdPartyClient;
    let git: GitClient;
    beforeAll(async () => {
      browser = await launchBrowser();
      client = await thirdPartyClient();
      git = gitClient();
    });
    afterAll(async () => {
      await browser?.close();
      client?.server.close();
      git?.remove();
    });

    async function signIn(url: string, login: string): Promise<Page> {
      const page = await (await newVisitor(browser, url)).newPage();
      await page.goto("/users/sign_in");
      await page.getByLabel("Username or email").fill(login);
      await page.getByLabel("Password").fill("password123");
      await page.getByRole("button", { name: "Sign in" }).click();
      return page;
    }

    onEachDatabase("accounts", (ctx) => {
      let dave: TestUser;
      let projectPath: string;
      beforeAll(async () => {
        await createUser(ctx().server, ctx().root, "erin");
        dave = await createUser(ctx().server, ctx().root, "dave");
        const project = await ctx().api<{ id: number; path_with_namespace: string }>({
          method: "POST",
          path: "/projects",
          token: dave.token,
          json: { name: "plans", visibility_level: 0 },
        });
        seedRepository(ctx().server, project.body.id, [
          { message: "first plan", files: { "plan.md": "# Plan\n" } },
        ]);
        projectPath = project.body.path_with_namespace;
      });

      it("enrols in two-factor authentication, then signs in with a code and once with a recovery code", async () => {
        const page = await signIn(ctx().server.url, "erin");
        await page.waitForURL("**/profile");
        await page.goto("/profile/two_factor_auth");
        await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
        expect(await page.locator("img#two_factor_qr").getAttribute("src")).toMatch(
          /^data:image\/svg\+xml;base64,/,
        );
        const secret = ((await page.locator("#two_factor_secret").textContent()) ?? "").replace(/\s/g, "");
        await page.getByLabel("Code from the app").fill(totpAt(secret, Date.now()));
        await page.getByRole("button", { name: "Enable two-factor authentication" }).click();
        const recoveryCodes = await page.locator("ul#recovery_codes code").allTextContents();
        expect(recoveryCodes).toHaveLength(10);
        await page.getByRole("button", { name: "Sign out" }).click();
        await page.waitForURL("**/users/sign_in");
        await page.context().close();

        // The password alone no longer signs in: a second step asks for the code.
        const withCode = await signIn(ctx().server.url, "erin");
        await withCode.waitForURL("**/users/two_factor");
        await withCode.getByLabel("Authentication code").fill("000000");
        await withCode.getByRole("button", { name: "Verify code" }).click();
        await expect
          .poll(() => withCode.locator("#form_errors").textContent())
          .toContain("Invalid two-factor code");
        // The code of the next step: the one accepted at enrolment may not be accepted twice.
        await withCode.getByLabel("Authentication code").fill(totpAt(secret, Date.now() + 30_000));
        await withCode.getByRole("button", { name: "Verify code" }).click();
        await withCode.waitForURL("**/profile");
        await withCode.context().close();

        const recovered = await signIn(ctx().server.url, "erin");
        await recovered.waitForURL("**/users/two_factor");
        await recovered.getByLabel("Authentication code").fill(recoveryCodes[0] as string);
        await recovered.getByRole("button", { name: "Verify code" }).click();
        await recovered.waitForURL("**/profile");
        await recovered.context().close();

        const reused = await signIn(ctx().server.url, "erin");
        await reused.waitForURL("**/users/two_factor");
        await reused.getByLabel("Authentication code").fill(recoveryCodes[0] as string);
        await reused.getByRole("button", { name: "Verify code" }).click();
        await expect
          .poll(() => reused.locator("#form_errors").textContent())
          .toContain("Invalid two-factor code");
        await reused.context().close();

        // The API's password sign-in refuses the user now, as GitLab 9.0 does.
        const session = await ctx().api<{ message: string }>({
          method: "POST",
          path: "/session",
          json: { login: "erin", password: "password123" },
        });
        expect(session.status).toBe(401);
        expect(session.body.message).toContain("personal access token");
      });

      it("registers an application and lets a client get a token with PKCE, for the API and git", async () => {
        const page = await signIn(ctx().server.url, "dave");
        await page.waitForURL("**/profile");
        await page.goto("/profile/applications");
        await page.getByLabel("Name", { exact: true }).fill("Plan viewer");
        await page.getByLabel("Redirect URIs (one per line)").fill(client.redirectUri);
        await page.locator("#scopes_api").check();
        await page.getByRole("button", { name: "Save application" }).click();
        const clientId = ((await page.locator("#oauth_application_uid").textContent()) ?? "").trim();
        expect(clientId).not.toBe("");

        // The client sends the user to Kiln; Kiln asks for consent and sends the user back with a code.
        const verifier = randomBytes(32).toString("base64url");
        const state = randomBytes(8).toString("hex");
        await page.goto(
          `/oauth/authorize?${new URLSearchParams({
            client_id: clientId,
            redirect_uri: client.redirectUri,
            response_type: "code",
            scope: "api",
            state,
            code_challenge: createHash("sha256").update(verifier).digest("base64url"),
            code_challenge_method: "S256",
          })}`,
        );
        await expect.poll(() => page.locator("#oauth_application_name").textContent()).toBe("Plan viewer");
        await page.getByRole("button", { name: "Authorize" }).click();
        await page.waitForURL(`${client.redirectUri}?**`);
        const callback = await client.nextCallback();
        expect(callback.get("state")).toBe(state);
        const code = callback.get("code") as string;

        const exchange = () =>
          fetch(`${ctx().server.url}/oauth/token`, {
            method: "POST",
            body: new URLSearchParams({
              grant_type: "authorization_code",
              client_id: clientId,
              code,
              redirect_uri: client.redirectUri,
              code_verifier: verifier,
            }),
          });
        const token = (await (await exchange()).json()) as TokenJson;
        expect(token.access_token).toBeTruthy();
        const me = await fetch(`${ctx().server.url}/api/v3/user`, {
          headers: { Authorization: `Bearer ${token.access_token}` },
        });
        expect(((await me.json()) as { username: string }).username).toBe("dave");
        const dest = join(git.root, `plans-${randomBytes(3).toString("hex")}`);
        const url = repoUrl(ctx().server.url, projectPath, {
          username: "oauth2",
          secret: token.access_token as string,
        });
        await git.ok(["clone", "--quiet", url, dest]);
        expect(await git.ok(["log", "--format=%s"], dest)).toBe("first plan");

        // A code replayed (stolen from a log, say) gets nothing, and the token it gave stops working.
        const replay = await exchange();
        expect(replay.status).toBe(400);
        expect(((await replay.json()) as TokenJson).error).toBe("invalid_grant");
        const after = await fetch(`${ctx().server.url}/api/v3/user`, {
          headers: { Authorization: `Bearer ${token.access_token}` },
        });
        expect(after.status).toBe(401);
        await page.context().close();
      });

      it("shows an error, and sends the user nowhere, for a redirect URI the application did not register", async () => {
        const page = await signIn(ctx().server.url, "dave");
        await page.waitForURL("**/profile");
        const apps = await ctx().api<{ application_id: string }>({
          method: "POST",
          path: "/applications",
          token: ctx().root.token,
          json: { name: "Registered", redirect_uri: client.redirectUri, scopes: "api" },
        });
        const response = await page.goto(
          `/oauth/authorize?${new URLSearchParams({
            client_id: apps.body.application_id,
            redirect_uri: `${client.redirectUri}/../steal`,
            response_type: "code",
          })}`,
        );
        expect(response?.status()).toBe(400);
        expect(new URL(page.url()).origin).toBe(ctx().server.url);
        expect(await page.locator("#error_message").textContent()).toMatch(/redirect URI/i);
        await page.context().close();
      });
    });
  },
);

/** A third-party application's callback endpoint on loopback, which records the codes it receives. */
interface ThirdPartyClient {
  server: Server;
  redirectUri: string;
  /** The query of the next request to the callback (or of one that came already). */
  nextCallback(): Promise<URLSearchParams>;
}

async function thirdPartyClient(): Promise<ThirdPartyClient> {
  const received: URLSearchParams[] = [];
  const waiting: ((query: URLSearchParams) => void)[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://client.invalid");
    res.writeHead(url.pathname === "/callback" ? 200 : 404, { "Content-Type": "text/plain" });
    res.end(url.pathname === "/callback" ? "signed in to the plan viewer" : "");
    if (url.pathname !== "/callback") return;
    const query = url.searchParams;
    const waiter = waiting.shift();
    if (waiter) waiter(query);
    else received.push(query);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    server,
    redirectUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    nextCallback: () => {
      const early = received.shift();
      return early ? Promise.resolve(early) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}
