/**
 * The editor's sign-in by browser, over real HTTP, with `@kiln/client`'s helpers as the VS Code
 * extension runs them: the built-in application `kiln-vscode` (a public client, PKCE only), sent
 * back to a code-server's `/callback` on loopback or shown out of band; the access token refreshed
 * before it expires, and two windows sharing one rotating refresh token.
 */
import {
  authorizationUrl,
  createKilnClient,
  createPkcePair,
  EDITOR_CLIENT_ID,
  exchangeAuthorizationCode,
  OAuthRefusal,
  type OAuthTokens,
  OOB_REDIRECT_URI,
  randomUrlSafe,
  readAuthorizationResponse,
  refreshingToken,
  revokeTokens,
} from "@kiln/client";
import { createUser } from "@kiln/testkit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { onEachDatabase } from "./support.js";
import { Browser, startRedirectTarget } from "./web-support.js";

/** A code-server's `/callback` on loopback: records the queries the browser brings it. */
async function startCodeServer() {
  const target = await startRedirectTarget("back in the editor");
  // What `vscode.env.asExternalUri` answers in code-server for `code-oss://kiln.kiln/auth`.
  const callback = `${target.origin}/stable-409c64e0/callback?vscode-reqid=7&vscode-scheme=code-oss&vscode-authority=kiln.kiln&vscode-path=%2Fauth`;
  return { ...target, callback };
}

onEachDatabase("sign-in by browser for the editor", (ctx) => {
  let codeServer: Awaited<ReturnType<typeof startCodeServer>>;

  beforeAll(async () => {
    codeServer = await startCodeServer();
    await createUser(ctx().server, ctx().root, "editor");
  });
  afterAll(() => codeServer?.close());

  /** Runs the consent page as the user would: sign in on the way, then approve or deny. */
  async function consent(redirectUri: string, decision: "authorize" | "deny" = "authorize") {
    const pkce = await createPkcePair();
    const state = randomUrlSafe();
    const url = authorizationUrl({
      url: ctx().server.url,
      clientId: EDITOR_CLIENT_ID,
      redirectUri,
      state,
      challenge: pkce.challenge,
    });
    const path = url.slice(ctx().server.url.length);
    const b = new Browser(ctx().server.url);
    await b.follow(await b.signIn("editor", "password123", path));
    expect(b.textOf("oauth_application_name")).toBe("Kiln for VS Code");
    const form = decision === "authorize" ? "oauth_authorize_form" : "oauth_deny_form";
    const action = decision === "authorize" ? "/oauth/authorize" : "/oauth/authorize/deny";
    const answered = await b.post(action, b.formFields(form), false);
    return { b, answered, pkce, state };
  }

  const redeem = (code: string, redirectUri: string, verifier: string) =>
    exchangeAuthorizationCode({
      url: ctx().server.url,
      clientId: EDITOR_CLIENT_ID,
      code,
      redirectUri,
      verifier,
    });

  const v3User = (token: string) =>
    fetch(`${ctx().server.url}/api/v3/user`, { headers: { Authorization: `Bearer ${token}` } });

  it("comes back to a code-server's callback with the code, redeemed with the verifier", async () => {
    const { answered, pkce, state } = await consent(codeServer.callback);
    expect(answered.status).toBe(302);
    const location = answered.headers.get("location") ?? "";
    expect(await (await fetch(location)).text()).toBe("back in the editor");
    const query = codeServer.received.at(-1) as URLSearchParams;
    // code-server's callback page needs its own parameters to find the window that asked.
    expect(query.get("vscode-reqid")).toBe("7");
    const response = readAuthorizationResponse(query, state);
    if (!("code" in response)) throw new Error(`no code: ${response.error}`);
    const tokens = await redeem(response.code, codeServer.callback, pkce.verifier);
    expect(tokens.scopes).toEqual(["api"]);
    expect(tokens.expiresAt).toBeGreaterThan(Date.now() + 3_600_000);
    const me = await createKilnClient({ url: ctx().server.url, token: tokens.accessToken }).users.me.query();
    expect(me.username).toBe("editor");
    // The code works once.
    await expect(redeem(response.code, codeServer.callback, pkce.verifier)).rejects.toMatchObject({
      code: "invalid_grant",
    });
    // Signing out revokes the pair by its refresh token: the access token stops working with it.
    await revokeTokens({ url: ctx().server.url, clientId: EDITOR_CLIENT_ID, token: tokens.refreshToken });
    expect((await v3User(tokens.accessToken)).status).toBe(401);
  });

  it("shows the code out of band when the editor cannot be called back", async () => {
    const { b, answered, pkce } = await consent(OOB_REDIRECT_URI);
    expect(answered.status).toBe(200);
    const code = b.textOf("authorization_code") ?? "";
    expect(code).toMatch(/^\w{20,}$/);
    await expect(redeem(code, OOB_REDIRECT_URI, "not-the-verifier")).rejects.toBeInstanceOf(OAuthRefusal);
    const tokens = await redeem(code, OOB_REDIRECT_URI, pkce.verifier);
    expect((await v3User(tokens.accessToken)).status).toBe(200);
  });

  it("tells a denial out of band on the page, with no code", async () => {
    const { b, answered } = await consent(OOB_REDIRECT_URI, "deny");
    expect(answered.status).toBe(200);
    expect(b.textOf("authorization_code")).toBeUndefined();
    expect(b.textOf("error_message")).toContain("denied");
  });

  /** A signed-in pair, as the editor keeps it. */
  async function signedIn(): Promise<OAuthTokens> {
    const { b, pkce } = await consent(OOB_REDIRECT_URI);
    return redeem(b.textOf("authorization_code") ?? "", OOB_REDIRECT_URI, pkce.verifier);
  }

  it("refreshes an access token about to expire, once for calls made together", async () => {
    const first = await signedIn();
    const saved: OAuthTokens[] = [];
    const token = refreshingToken({
      url: ctx().server.url,
      clientId: EDITOR_CLIENT_ID,
      tokens: { ...first, expiresAt: Date.now() + 1_000 },
      save: (tokens) => {
        saved.push(tokens);
      },
    });
    const client = createKilnClient({ url: ctx().server.url, token });
    const answers = await Promise.all([client.users.me.query(), client.todos.list.query({})]);
    expect(answers[0].username).toBe("editor");
    expect(saved).toHaveLength(1);
    expect(saved[0]?.refreshToken).not.toBe(first.refreshToken);
    // The rotated pair replaced the old one.
    expect((await v3User(first.accessToken)).status).toBe(401);
    expect((await v3User(saved[0]?.accessToken ?? "")).status).toBe(200);
  });

  it("takes the pair another window refreshed instead of failing on the rotated refresh token", async () => {
    let kept = await signedIn();
    const windowOf = () =>
      refreshingToken({
        url: ctx().server.url,
        clientId: EDITOR_CLIENT_ID,
        tokens: { ...kept, expiresAt: 0 },
        save: (tokens) => {
          kept = tokens;
        },
        latest: async () => kept,
      });
    const first = windowOf();
    const second = windowOf();
    const one = await first();
    // The second window still holds the refresh token the first one rotated.
    const two = await second();
    expect(two).toBe(one);
    expect((await v3User(two)).status).toBe(200);

    const alone = refreshingToken({
      url: ctx().server.url,
      clientId: EDITOR_CLIENT_ID,
      tokens: { ...kept, refreshToken: "not-a-refresh-token", expiresAt: 0 },
      save: () => undefined,
    });
    await expect(alone()).rejects.toMatchObject({ code: "invalid_grant", status: 400 });
  });
});
