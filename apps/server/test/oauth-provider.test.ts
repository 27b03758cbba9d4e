import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { createUser, seedRepository, type TestUser } from "@kiln/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GitClient, gitClient, repoUrl } from "./git-client.js";
import { onEachDatabase } from "./support.js";
import { trpcCall } from "./trpc-support.js";

// The OAuth 2.0 provider over real HTTP: the authorize step driven through tRPC (the consent page's
// operations), the token endpoint, the tokens on the API and git, and the admin API.

const REDIRECT = "http://127.0.0.1/callback";

interface TokenJson {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
  scope: string;
  created_at: number;
}
interface OAuthErrorJson {
  error: string;
  error_description: string;
}

onEachDatabase("OAuth 2.0 provider", (ctx) => {
  let alice: TestUser;
  let app: { id: number; application_id: string; secret: string };
  let client: GitClient;
  let projectPath = "";

  beforeAll(async () => {
    alice = await createUser(ctx().server, ctx().root, `oa-${randomBytes(3).toString("hex")}`);
    const created = await ctx().api<typeof app>({
      method: "POST",
      path: "/applications",
      token: ctx().root.token,
      json: { name: "Test client", redirect_uri: REDIRECT, scopes: "api read_user" },
    });
    expect(created.status).toBe(201);
    app = created.body;
    const project = await ctx().api<{ id: number; path_with_namespace: string }>({
      method: "POST",
      path: "/projects",
      token: alice.token,
      json: { name: "secret-code", visibility_level: 0 },
    });
    projectPath = project.body.path_with_namespace;
    seedRepository(ctx().server, project.body.id, [{ message: "first", files: { "README.md": "hi\n" } }]);
    client = gitClient();
  });
  afterAll(() => client?.remove());

  const tokenEndpoint = (body: Record<string, string>, as: "form" | "json" = "form", headers = {}) =>
    ctx().api<TokenJson & OAuthErrorJson>({
      method: "POST",
      path: `${ctx().server.url}/oauth/token`,
      headers,
      ...(as === "form" ? { form: body } : { json: body }),
    });
  const me = (token: string) => ctx().api({ path: "/user", headers: { Authorization: `Bearer ${token}` } });

  async function approve(user: TestUser, extra: Record<string, string> = {}) {
    const input = {
      client_id: app.application_id,
      redirect_uri: REDIRECT,
      response_type: "code",
      state: "xyz",
      ...extra,
    };
    const res = await trpcCall<{ redirectTo: string }>(ctx(), "mutation", "oauth.approve", input, {
      token: user.token,
    });
    expect(res.status).toBe(200);
    const url = new URL(res.body.result?.data.redirectTo as string);
    expect(url.searchParams.get("state")).toBe("xyz");
    return url.searchParams.get("code") as string;
  }

  async function passwordToken(scope?: string): Promise<TokenJson> {
    const res = await tokenEndpoint({
      grant_type: "password",
      username: alice.username,
      password: "password123",
      ...(scope ? { scope } : {}),
    });
    expect(res.status).toBe(200);
    return res.body;
  }

  describe("the authorization-code flow", () => {
    it("exchanges a code and its PKCE verifier for a token that works on the API; a replay revokes it", async () => {
      const verifier = randomBytes(32).toString("base64url");
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      const code = await approve(alice, { code_challenge: challenge, code_challenge_method: "S256" });
      const grant = {
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        client_id: app.application_id,
        code_verifier: verifier,
      };
      const res = await tokenEndpoint(grant);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.body).toMatchObject({ token_type: "bearer", expires_in: 7200, scope: "api read_user" });
      expect((await me(res.body.access_token)).body).toMatchObject({ id: alice.id });
      const projects = await ctx().api<unknown[]>({
        path: "/projects",
        query: { access_token: res.body.access_token },
      });
      expect(projects.status).toBe(200);

      const replay = await tokenEndpoint(grant, "json");
      expect(replay.status).toBe(400);
      expect(replay.body.error).toBe("invalid_grant");
      expect((await me(res.body.access_token)).status).toBe(401);
    });

    it("refuses a code sent with another redirect URI, and a wrong client secret with 401", async () => {
      const code = await approve(alice);
      const grant = { grant_type: "authorization_code", code, client_id: app.application_id };
      const wrongUri = await tokenEndpoint({
        ...grant,
        client_secret: app.secret,
        redirect_uri: "http://127.0.0.1/other",
      });
      expect(wrongUri.status).toBe(400);
      expect(wrongUri.body.error).toBe("invalid_grant");
      const basic = `Basic ${Buffer.from(`${app.application_id}:wrong`).toString("base64")}`;
      const wrongSecret = await tokenEndpoint({ ...grant, redirect_uri: REDIRECT }, "form", {
        Authorization: basic,
      });
      expect(wrongSecret.status).toBe(401);
      expect(wrongSecret.body.error).toBe("invalid_client");
      expect(wrongSecret.headers.get("www-authenticate")).toMatch(/^Basic/);
      const right = await tokenEndpoint({ ...grant, redirect_uri: REDIRECT, client_secret: app.secret });
      expect(right.status).toBe(200);
    });

    it("never redirects to a redirect URI the application did not register", async () => {
      const input = {
        client_id: app.application_id,
        redirect_uri: "https://evil.example/cb",
        response_type: "code",
      };
      const res = await trpcCall(ctx(), "mutation", "oauth.approve", input, { token: alice.token });
      expect(res.status).toBe(400);
      expect(res.body.error?.data).toMatchObject({ failure: { reason: "oauth_invalid_redirect_uri" } });
    });
  });

  describe("the password and refresh grants, revoke and token info", () => {
    it("rotates refresh tokens, revokes, and tells about live tokens only", async () => {
      const first = await passwordToken();
      expect(first.scope).toBe("api");
      const refreshed = await tokenEndpoint(
        { grant_type: "refresh_token", refresh_token: first.refresh_token },
        "json",
      );
      expect(refreshed.status).toBe(200);
      expect((await me(first.access_token)).status).toBe(401);
      const again = await tokenEndpoint({ grant_type: "refresh_token", refresh_token: first.refresh_token });
      expect(again.body.error).toBe("invalid_grant");

      const second = refreshed.body;
      const info = await ctx().api({
        path: `${ctx().server.url}/oauth/token/info`,
        headers: { Authorization: `Bearer ${second.access_token}` },
      });
      expect(info.status).toBe(200);
      expect(info.body).toMatchObject({ resource_owner_id: alice.id, scopes: ["api"], application: null });
      const revoke = await ctx().api({
        method: "POST",
        path: `${ctx().server.url}/oauth/revoke`,
        form: { token: second.access_token },
      });
      expect(revoke.status).toBe(200);
      expect((await me(second.access_token)).status).toBe(401);
      const gone = await ctx().api({
        path: `${ctx().server.url}/oauth/token/info`,
        headers: { Authorization: `Bearer ${second.access_token}` },
      });
      expect(gone.status).toBe(401);
    });

    it("answers RFC 6749's errors, never a 500", async () => {
      const wrong = await tokenEndpoint({
        grant_type: "password",
        username: alice.username,
        password: "nope",
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe("invalid_grant");
      expect((await tokenEndpoint({ grant_type: "implicit" })).body.error).toBe("unsupported_grant_type");
      expect((await tokenEndpoint({})).body.error).toBe("invalid_request");
      const scope = await tokenEndpoint({
        grant_type: "password",
        username: alice.username,
        password: "password123",
        scope: "sudo",
      });
      expect(scope.body.error).toBe("invalid_scope");
      const malformed = await ctx().api<OAuthErrorJson>({
        method: "POST",
        path: `${ctx().server.url}/oauth/token`,
        headers: { "Content-Type": "application/json" },
        body: "{not json",
      });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toBe("invalid_request");
    });
  });

  describe("scopes", () => {
    it("lets a read_user token read /user and nothing else, and refuses it to git", async () => {
      const narrow = await passwordToken("read_user");
      expect((await me(narrow.access_token)).status).toBe(200);
      const projects = await ctx().api<{ message: string }>({
        path: "/projects",
        query: { access_token: narrow.access_token },
      });
      expect(projects.status).toBe(403);
      expect(projects.body.message).toMatch(/^403 Forbidden: Insufficient scope/);
      const url = repoUrl(ctx().server.url, projectPath, { username: "oauth2", secret: narrow.access_token });
      const refused = await client.run(["clone", "--quiet", url, join(client.root, "narrow")]);
      expect(refused.code).not.toBe(0);
    });

    it("clones with an api token as the password of oauth2", async () => {
      const token = await passwordToken();
      const url = repoUrl(ctx().server.url, projectPath, { username: "oauth2", secret: token.access_token });
      const dest = join(client.root, "with-oauth");
      await client.ok(["clone", "--quiet", url, dest]);
      expect(await client.ok(["log", "--format=%s"], dest)).toBe("first");
    });
  });

  describe("/applications", () => {
    it("is for administrators; deleting an application revokes its tokens", async () => {
      const listedByUser = await ctx().api({ path: "/applications", token: alice.token });
      expect(listedByUser.status).toBe(403);
      const created = await ctx().api<typeof app>({
        method: "POST",
        path: "/applications",
        token: ctx().root.token,
        form: { name: "Doomed", redirect_uri: "https://doomed.example/cb" },
      });
      expect(created.body).toMatchObject({
        application_name: "Doomed",
        callback_url: "https://doomed.example/cb",
      });
      const bad = await ctx().api({
        method: "POST",
        path: "/applications",
        token: ctx().root.token,
        form: { name: "Bad", redirect_uri: "javascript:alert(1)" },
      });
      expect(bad.status).toBe(400);
      const list = await ctx().api<{ id: number }[]>({ path: "/applications", token: ctx().root.token });
      expect(list.body.map((entry) => entry.id)).toContain(created.body.id);

      const token = await tokenEndpoint({
        grant_type: "password",
        username: alice.username,
        password: "password123",
        client_id: created.body.application_id,
        client_secret: created.body.secret,
      });
      expect((await me(token.body.access_token)).status).toBe(200);
      const removed = await ctx().api({
        method: "DELETE",
        path: `/applications/${created.body.id}`,
        token: ctx().root.token,
      });
      expect(removed.status).toBe(204);
      expect((await me(token.body.access_token)).status).toBe(401);
    });
  });
});
