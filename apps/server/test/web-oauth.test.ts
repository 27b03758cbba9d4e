/**
 * OAuth 2.0 through the pages, over real HTTP: an application registered on the profile, the
 * authorization-code flow with PKCE through the consent page to a client listening on loopback, the
 * token exchanged and used on the API; deny, an unknown client or redirect URI, a forged consent.
 */
import { createHash, randomBytes } from "node:crypto";
import { createUser } from "@kiln/testkit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { onEachDatabase } from "./support.js";
import { Browser, startRedirectTarget } from "./web-support.js";

/** A client's redirect endpoint on loopback, at `/callback`. */
async function startClient() {
  const target = await startRedirectTarget("client got it");
  return { ...target, redirectUri: `${target.origin}/callback` };
}

onEachDatabase("OAuth 2.0 through the pages", (ctx) => {
  const owner = `owner${randomBytes(3).toString("hex")}`;
  let client: Awaited<ReturnType<typeof startClient>>;
  let app: { uid: string; secret: string };

  beforeAll(async () => {
    client = await startClient();
    await createUser(ctx().server, ctx().root, owner, { name: "App Owner" });
    await createUser(ctx().server, ctx().root, "consenter");
  });
  afterAll(() => client?.close());

  const browser = () => new Browser(ctx().server.url);
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const authorizePath = (extra: Record<string, string> = {}) =>
    `/oauth/authorize?${new URLSearchParams({
      client_id: app.uid,
      redirect_uri: client.redirectUri,
      response_type: "code",
      scope: "read_user api",
      state: "st&te <1>",
      code_challenge: challenge,
      code_challenge_method: "S256",
      ...extra,
    })}`;

  /** A browser signed in as `login` that opened the consent page of `path`. */
  async function atConsent(login: string, path = authorizePath()): Promise<Browser> {
    const b = browser();
    const asked = await b.get(path);
    expect(asked.status).toBe(303);
    expect(asked.headers.get("location")).toBe(
      `/users/sign_in?${new URLSearchParams({ redirect_to: path })}`,
    );
    const signedIn = await b.signIn(login, "password123", path);
    expect(signedIn.headers.get("location")).toBe(path);
    await b.follow(signedIn);
    return b;
  }

  it("registers an application on the profile, its secret shown once", async () => {
    const b = browser();
    await b.follow(await b.signIn(owner, "password123", "/profile/applications"));
    const created = await b.post("/profile/applications", {
      name: "Loopback <b>client</b>",
      redirect_uri: `${client.redirectUri}\r\nhttp://127.0.0.1:1/other`,
      "scopes[]": ["api", "read_user"],
    });
    expect(created.status).toBe(200);
    app = {
      uid: b.textOf("oauth_application_uid") ?? "",
      secret: b.textOf("oauth_application_secret") ?? "",
    };
    expect(app.uid).toMatch(/^\w{20,}$/);
    expect(app.secret).toMatch(/^\w{20,}$/);
    expect(b.html).toContain("Loopback &lt;b>client&lt;/b>");
    await b.get("/profile/applications");
    expect(b.html).toContain(app.uid);
    expect(b.html).not.toContain(app.secret);
  });

  it("runs the authorization-code flow with PKCE through the consent page to an API call", async () => {
    const b = await atConsent("consenter");
    expect(b.textOf("oauth_application_name")).toBe("Loopback &lt;b>client&lt;/b>");
    expect(b.html).toContain('id="oauth_scope_read_user"');
    expect(b.html).toContain('id="oauth_scope_api"');
    const consent = await b.get(authorizePath());
    expect(consent.status).toBe(200);
    expect(consent.headers.get("x-frame-options")).toBe("DENY");
    const csp = consent.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`form-action 'self' ${new URL(client.redirectUri).origin}`);

    const approved = await b.post("/oauth/authorize", b.formFields("oauth_authorize_form"), false);
    expect(approved.status).toBe(302);
    const location = approved.headers.get("location") ?? "";
    expect(location.startsWith(`${client.redirectUri}?code=`)).toBe(true);
    expect(await (await fetch(location)).text()).toBe("client got it");
    const query = client.received.at(-1) as URLSearchParams;
    expect(query.get("state")).toBe("st&te <1>");

    const exchanged = await fetch(`${ctx().server.url}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        client_id: app.uid,
        code: query.get("code") ?? "",
        redirect_uri: client.redirectUri,
        code_verifier: verifier,
      }),
    });
    expect(exchanged.status).toBe(200);
    const token = (await exchanged.json()) as { access_token: string; scope: string };
    expect(token.scope).toBe("read_user api");
    const me = await fetch(`${ctx().server.url}/api/v3/user`, {
      headers: { Authorization: `Bearer ${token.access_token}` },
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { username: string }).username).toBe("consenter");

    // The application is listed as authorised, and revoking it ends the token.
    await b.get("/profile/applications");
    const row = /id="oauth_authorization_(\d+)"/.exec(b.html);
    expect(row).not.toBeNull();
    const revoked = await b.post("/profile/applications/revoke_authorization", {
      application_id: row?.[1] ?? "",
    });
    expect(revoked.status).toBe(303);
    const after = await fetch(`${ctx().server.url}/api/v3/user`, {
      headers: { Authorization: `Bearer ${token.access_token}` },
    });
    expect(after.status).toBe(401);
  });

  it("sends the client access_denied when the user denies", async () => {
    const b = await atConsent("consenter");
    const denied = await b.post("/oauth/authorize/deny", b.formFields("oauth_deny_form"), false);
    expect(denied.status).toBe(302);
    const location = new URL(denied.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(client.redirectUri);
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe("st&te <1>");
    expect(location.searchParams.has("code")).toBe(false);
  });

  it("tells the client an error it may know through its redirect URI", async () => {
    const b = browser();
    await b.follow(await b.signIn("consenter", "password123"));
    const refused = await b.get(authorizePath({ response_type: "token" }));
    expect(refused.status).toBe(302);
    const location = new URL(refused.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(client.redirectUri);
    expect(location.searchParams.get("error")).toBe("unsupported_response_type");
    expect(location.searchParams.get("state")).toBe("st&te <1>");
  });

  it("shows an error page, never a redirect, for an unknown client or an unregistered redirect URI", async () => {
    const b = browser();
    await b.follow(await b.signIn("consenter", "password123"));
    for (const [extra, words] of [
      [{ client_id: "nope" }, "unknown"],
      [{ redirect_uri: "http://127.0.0.1:9/evil" }, "redirect URI"],
      [{ redirect_uri: `${client.redirectUri}/more` }, "redirect URI"],
    ] as const) {
      const page = await b.get(authorizePath(extra));
      expect(page.status).toBe(400);
      expect(page.headers.get("location")).toBeNull();
      expect(b.textOf("error_message")).toContain(words);
    }
    // A consent form edited to another redirect URI is checked again.
    await b.get(authorizePath());
    const forged = { ...b.formFields("oauth_authorize_form"), redirect_uri: "http://127.0.0.1:9/evil" };
    const posted = await b.post("/oauth/authorize", forged, false);
    expect(posted.status).toBe(400);
    expect(posted.headers.get("location")).toBeNull();
  });

  it("refuses a consent posted without the CSRF token", async () => {
    const b = await atConsent("consenter");
    const { authenticity_token: _token, ...fields } = b.formFields("oauth_authorize_form");
    const posted = await b.post("/oauth/authorize", fields, false);
    expect(posted.status).toBe(403);
    expect(posted.headers.get("location")).toBeNull();
  });

  it("lets the owner reset the secret (shown once) and delete the application", async () => {
    const b = browser();
    await b.follow(await b.signIn(owner, "password123", "/profile/applications"));
    const id = /id="oauth_application_(\d+)"/.exec(b.html)?.[1] ?? "";
    await b.post("/profile/applications/reset_secret", { id });
    const secret = b.textOf("oauth_application_secret") ?? "";
    expect(secret).not.toBe(app.secret);
    const exchange = (clientSecret: string) =>
      fetch(`${ctx().server.url}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "password",
          client_id: app.uid,
          client_secret: clientSecret,
          username: owner,
          password: "password123",
        }),
      });
    expect((await exchange(app.secret)).status).toBe(401);
    expect((await exchange(secret)).status).toBe(200);
    // Another user cannot touch it.
    const other = browser();
    await other.follow(await other.signIn("consenter", "password123", "/profile/applications"));
    expect((await other.post("/profile/applications/delete", { id })).status).toBe(404);
    expect((await b.post("/profile/applications/delete", { id })).status).toBe(303);
    await b.get("/profile/applications");
    expect(b.html).toContain('id="no_oauth_applications"');
  });

  it("keeps registration to administrators when user_oauth_applications is off", async () => {
    const settings = (value: boolean) =>
      ctx().api({
        method: "PUT",
        path: "/application/settings",
        token: ctx().root.token,
        json: { user_oauth_applications: value },
      });
    expect((await settings(false)).status).toBe(200);
    try {
      const b = browser();
      await b.follow(await b.signIn("consenter", "password123", "/profile/applications"));
      expect(b.html).toContain('id="oauth_applications_disabled"');
      expect(b.html).not.toContain('id="new_oauth_application_form"');
      const refused = await b.post("/profile/applications", {
        name: "x",
        redirect_uri: client.redirectUri,
        "scopes[]": "api",
      });
      expect(refused.status).toBe(400);
      expect(b.html).toContain('id="oauth_applications_disabled"');
    } finally {
      await settings(true);
    }
  });
});
