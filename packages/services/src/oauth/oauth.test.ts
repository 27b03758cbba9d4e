import { createHash } from "node:crypto";
import { EDITOR_CLIENT_ID, OOB_REDIRECT_URI, type User } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { forEachDialect } from "../__tests__/harness.js";
import { identifyActor } from "../auth/credentials.js";
import { redirectUriMatches } from "./redirect-uri.js";
import { exchangeToken, revokeToken, tokenInfo } from "./token-endpoint.js";

describe("redirect URIs", () => {
  it("match exactly, but for the port of a loopback URI", () => {
    const registered = "https://tool.example/cb\nhttp://127.0.0.1/callback";
    expect(redirectUriMatches(registered, "https://tool.example/cb")).toBe(true);
    expect(redirectUriMatches(registered, "https://tool.example/cb/")).toBe(false);
    expect(redirectUriMatches(registered, "https://tool.example/cb?x=1")).toBe(false);
    expect(redirectUriMatches(registered, "https://tool.example:8443/cb")).toBe(false);
    expect(redirectUriMatches(registered, "http://127.0.0.1:53121/callback")).toBe(true);
    expect(redirectUriMatches(registered, "http://127.0.0.1:53121/other")).toBe(false);
    expect(redirectUriMatches(registered, "https://tool.example/cb#frag")).toBe(false);
  });

  it("take a path prefix and a query added to a loopback URI registered without one (a code-server's callback)", () => {
    const registered = "http://127.0.0.1/callback\nhttp://[::1]/cb?app=1";
    const codeServer = "http://127.0.0.1:8080/callback?vscode-reqid=3&vscode-scheme=code-oss";
    expect(redirectUriMatches(registered, codeServer)).toBe(true);
    // code-server's callback sits under its version's path.
    expect(redirectUriMatches(registered, "http://127.0.0.1:8080/stable-409c/callback?vscode-reqid=2")).toBe(
      true,
    );
    expect(redirectUriMatches(registered, "http://127.0.0.1:8080/stable-409c/evilcallback")).toBe(false);
    expect(redirectUriMatches(registered, "http://127.0.0.1:8080/callbackx?a=1")).toBe(false);
    expect(redirectUriMatches(registered, "http://127.0.0.1:8080/other?x=/callback")).toBe(false);
    expect(redirectUriMatches(registered, "http://localhost:8080/callback?a=1")).toBe(false);
    // A registered query is kept: the requested one must be that very query.
    expect(redirectUriMatches(registered, "http://[::1]:9/cb?app=1")).toBe(true);
    expect(redirectUriMatches(registered, "http://[::1]:9/cb?app=2")).toBe(false);
    expect(redirectUriMatches(registered, "http://[::1]:9/cb")).toBe(false);
  });
});

forEachDialect((h) => {
  const REDIRECT = "https://tool.example/cb";
  const verifier = "a-verifier-long-enough-to-be-a-real-one-0123456789";
  const challenge = createHash("sha256").update(verifier).digest("base64url");

  async function setUp() {
    const alice = await h().user("alice");
    const { application, secret } = await h().as(alice).oauthApplications.createOwn({
      name: "Tool",
      redirect_uri: REDIRECT,
      scopes: "api read_user",
    });
    return { alice, application, secret };
  }

  async function codeFor(user: User, clientId: string, extra: Record<string, string> = {}) {
    const { redirectTo } = await h()
      .as(user)
      .oauth.approve({
        client_id: clientId,
        redirect_uri: REDIRECT,
        response_type: "code",
        state: "s1",
        ...extra,
      });
    const url = new URL(redirectTo);
    expect(url.searchParams.get("state")).toBe("s1");
    return url.searchParams.get("code") as string;
  }

  const exchange = (params: Record<string, unknown>) => exchangeToken(h().runtime, params, null, "127.0.0.1");
  const actorOfToken = (token: string) => identifyActor(h().runtime, { kind: "oauth_bearer", token });

  describe("applications", () => {
    it("refuse javascript:, data: and vbscript: redirect URIs and fragments", async () => {
      const alice = await h().user("alice");
      for (const uri of [
        "javascript:alert(1)",
        "data:text/html,x",
        "vbscript:x",
        "https://a.example/cb#x",
        "cb",
      ]) {
        await expect(
          h().as(alice).oauthApplications.createOwn({ name: "x", redirect_uri: uri }),
        ).rejects.toMatchObject({ cause: { kind: "validation" } });
      }
    });

    it("revoke every token when deleted, at once", async () => {
      const { alice, application, secret } = await setUp();
      const code = await codeFor(alice, application.uid);
      const issued = await exchange({
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        client_id: application.uid,
        client_secret: secret,
      });
      expect(await actorOfToken(issued.access_token)).toMatchObject({ user: { id: alice.id } });
      await h().as(alice).oauthApplications.deleteOwn({ id: application.id });
      expect(await actorOfToken(issued.access_token)).toBeNull();
    });
  });

  describe("the authorize step", () => {
    it("throws for an unknown client or a redirect URI not registered, never redirecting", async () => {
      const { application } = await setUp();
      const input = { client_id: application.uid, redirect_uri: REDIRECT, response_type: "code" };
      await expect(h().anonymous.oauth.preAuthorize({ ...input, client_id: "nope" })).rejects.toMatchObject({
        cause: { failure: { reason: "oauth_invalid_client" } },
      });
      await expect(
        h().anonymous.oauth.preAuthorize({ ...input, redirect_uri: "https://evil.example/cb" }),
      ).rejects.toMatchObject({ cause: { failure: { reason: "oauth_invalid_redirect_uri" } } });
      expect(await h().anonymous.oauth.preAuthorize({ ...input, scope: "read_user" })).toMatchObject({
        kind: "consent",
        application: { id: application.id, name: "Tool" },
        scopes: ["read_user"],
      });
      const bad = await h().anonymous.oauth.preAuthorize({ ...input, response_type: "token", state: "x" });
      expect(bad).toMatchObject({ kind: "redirect" });
      expect(bad.kind === "redirect" && new URL(bad.redirectTo).searchParams.get("error")).toBe(
        "unsupported_response_type",
      );
    });
  });

  describe("the editor's built-in application (a public client)", () => {
    const approveEditor = (user: User, redirectUri: string, pkce = true) =>
      h()
        .as(user)
        .oauth.approve({
          client_id: EDITOR_CLIENT_ID,
          redirect_uri: redirectUri,
          response_type: "code",
          state: "s1",
          ...(pkce ? { code_challenge: challenge, code_challenge_method: "S256" } : {}),
        });
    const redeem = (code: string, redirectUri: string, extra: Record<string, string> = {}) =>
      exchange({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        client_id: EDITOR_CLIENT_ID,
        ...extra,
      });

    it("signs in a code-server on this machine with PKCE, and refreshes with its client id alone", async () => {
      const alice = await h().user("alice");
      const callback = "http://127.0.0.1:43117/callback?vscode-reqid=1&vscode-scheme=code-oss";
      const url = new URL((await approveEditor(alice, callback)).redirectTo);
      expect(url.origin + url.pathname).toBe("http://127.0.0.1:43117/callback");
      expect(url.searchParams.get("vscode-reqid")).toBe("1");
      const code = url.searchParams.get("code") as string;
      const issued = await redeem(code, callback, { code_verifier: verifier });
      expect(await actorOfToken(issued.access_token)).toMatchObject({ user: { id: alice.id } });
      const refreshed = await exchange({
        grant_type: "refresh_token",
        refresh_token: issued.refresh_token,
        client_id: EDITOR_CLIENT_ID,
      });
      expect(await actorOfToken(refreshed.access_token)).toMatchObject({ user: { id: alice.id } });
      expect(await actorOfToken(issued.access_token)).toBeNull();
    });

    it("shows the code out of band, and cannot redeem a code without the verifier", async () => {
      const alice = await h().user("alice");
      const shown = (await approveEditor(alice, OOB_REDIRECT_URI)).redirectTo;
      expect(shown.startsWith(`${OOB_REDIRECT_URI}?code=`)).toBe(true);
      const code = new URL(shown).searchParams.get("code") as string;
      await expect(redeem(code, OOB_REDIRECT_URI)).rejects.toMatchObject({ code: "invalid_grant" });
      const issued = await redeem(code, OOB_REDIRECT_URI, { code_verifier: verifier });
      expect(await actorOfToken(issued.access_token)).toMatchObject({ user: { id: alice.id } });
      const withoutPkce = new URL((await approveEditor(alice, OOB_REDIRECT_URI, false)).redirectTo);
      await expect(
        redeem(withoutPkce.searchParams.get("code") as string, OOB_REDIRECT_URI),
      ).rejects.toMatchObject({ code: "invalid_client" });
    });

    it("is sent back to no other address", async () => {
      const alice = await h().user("alice");
      for (const uri of [
        "https://evil.example/callback",
        "http://localhost:8080/callback",
        "vscode://evil.ext/auth",
      ]) {
        await expect(approveEditor(alice, uri)).rejects.toMatchObject({
          cause: { failure: { reason: "oauth_invalid_redirect_uri" } },
        });
      }
    });
  });

  describe("the authorization-code grant", () => {
    it("issues a token for a PKCE verifier, once; a replayed code revokes that token", async () => {
      const { alice, application } = await setUp();
      const code = await codeFor(alice, application.uid, {
        code_challenge: challenge,
        code_challenge_method: "S256",
      });
      const grant = {
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        client_id: application.uid,
      };
      await expect(exchange({ ...grant, code_verifier: "wrong" })).rejects.toMatchObject({
        code: "invalid_grant",
      });
      const issued = await exchange({ ...grant, code_verifier: verifier });
      expect(issued).toMatchObject({ token_type: "bearer", expires_in: 7200, scope: "api read_user" });
      expect(await actorOfToken(issued.access_token)).toMatchObject({
        user: { id: alice.id },
        method: "oauth_token",
      });
      await expect(exchange({ ...grant, code_verifier: verifier })).rejects.toMatchObject({
        code: "invalid_grant",
      });
      expect(await actorOfToken(issued.access_token)).toBeNull();
    });

    it("needs the client's secret without PKCE, and the redirect URI of the code", async () => {
      const { alice, application, secret } = await setUp();
      const code = await codeFor(alice, application.uid);
      const grant = {
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        client_id: application.uid,
      };
      await expect(exchange(grant)).rejects.toMatchObject({ code: "invalid_client" });
      await expect(exchange({ ...grant, client_secret: "wrong" })).rejects.toMatchObject({
        code: "invalid_client",
      });
      await expect(
        exchange({ ...grant, client_secret: secret, redirect_uri: `${REDIRECT}/x` }),
      ).rejects.toMatchObject({ code: "invalid_grant" });
      expect(await exchange({ ...grant, client_secret: secret })).toHaveProperty("access_token");
    });
  });

  describe("the password and refresh grants", () => {
    it("issue for the right password only, and rotate the refresh token", async () => {
      const alice = await h().user("alice");
      await expect(
        exchange({ grant_type: "password", username: "alice", password: "nope" }),
      ).rejects.toMatchObject({ code: "invalid_grant" });
      const first = await exchange({ grant_type: "password", username: "alice", password: "password123" });
      expect(first.scope).toBe("api");
      const second = await exchange({ grant_type: "refresh_token", refresh_token: first.refresh_token });
      expect(await actorOfToken(first.access_token)).toBeNull();
      expect(await actorOfToken(second.access_token)).toMatchObject({ user: { id: alice.id } });
      await expect(
        exchange({ grant_type: "refresh_token", refresh_token: first.refresh_token }),
      ).rejects.toMatchObject({ code: "invalid_grant" });
      await expect(exchange({ grant_type: "client_credentials" })).rejects.toMatchObject({
        code: "unsupported_grant_type",
      });
    });

    it("revoke by access or refresh token, and tell about a live token only", async () => {
      const alice = await h().user("alice");
      const issued = await exchange({ grant_type: "password", username: "alice", password: "password123" });
      expect(await tokenInfo(h().runtime, issued.access_token)).toMatchObject({
        resource_owner_id: alice.id,
        scopes: ["api"],
        application: null,
      });
      await revokeToken(h().runtime, { token: issued.refresh_token }, null);
      expect(await actorOfToken(issued.access_token)).toBeNull();
      expect(await tokenInfo(h().runtime, issued.access_token)).toBeNull();
      await revokeToken(h().runtime, { token: "unknown" }, null);
    });
  });

  describe("scopes", () => {
    it("let a read_user token read its user and nothing else", async () => {
      const alice = await h().user("alice");
      const issued = await exchange({
        grant_type: "password",
        username: "alice",
        password: "password123",
        scope: "read_user",
      });
      const actor = await actorOfToken(issued.access_token);
      expect(actor?.scopes).toEqual(["read_user"]);
      const { createCaller } = await import("../router.js");
      const caller = createCaller({ runtime: h().runtime, actor, system: false });
      expect((await caller.users.me()).user.id).toBe(alice.id);
      await expect(caller.projects.visible({})).rejects.toMatchObject({
        cause: { failure: { reason: "insufficient_scope" } },
      });
      await expect(caller.tokens.createPersonal({ name: "x" })).rejects.toMatchObject({
        cause: { failure: { reason: "insufficient_scope" } },
      });
    });
  });
});
