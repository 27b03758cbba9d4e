import { type ApiRequest, createUser, type TestUser } from "@kiln/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import { onEachDatabase, runKiln } from "./support.js";

onEachDatabase("authentication", (ctx) => {
  let alice: TestUser;
  beforeAll(async () => {
    alice = await createUser(ctx().server, ctx().root, "alice");
  });

  const me = (request: Omit<ApiRequest, "path">) =>
    ctx().api<{ username?: string; message?: string }>({ ...request, path: "/user" });

  it("accepts the private token as header, query parameter, form field or JSON field", async () => {
    const token = alice.token;
    expect((await me({ headers: { "PRIVATE-TOKEN": token } })).body.username).toBe("alice");
    expect((await me({ query: { private_token: token } })).body.username).toBe("alice");
    expect((await me({ method: "GET", form: { private_token: token } })).body.username).toBe("alice");
    expect((await me({ method: "GET", json: { private_token: token } })).body.username).toBe("alice");
  });

  it("answers 401 with the v3 body for a missing, unknown or mistyped token", async () => {
    const unauthorized = { status: 401, body: { message: "401 Unauthorized" } };
    expect(await me({})).toMatchObject(unauthorized);
    expect(await me({ token: "not-a-token" })).toMatchObject(unauthorized);
    // A token sent as a number, array or object is refused, never looked up as something else.
    expect(await me({ json: { private_token: 12345 } })).toMatchObject(unauthorized);
    expect(await me({ json: { private_token: [alice.token] } })).toMatchObject(unauthorized);
    expect(await me({ json: { private_token: { token: alice.token } } })).toMatchObject(unauthorized);
    expect(await me({ query: { private_token: [alice.token] } })).toMatchObject(unauthorized);
  });

  it("accepts a personal access token minted by the CLI beside the running server", async () => {
    const minted = await runKiln(["token", "create", "--user", "alice"], ctx().server.kilnEnv);
    expect(minted.code).toBe(0);
    expect((await me({ token: minted.stdout.trim() })).body.username).toBe("alice");
  });

  it("refuses blocked users at once, and accepts them again when unblocked", async () => {
    const bob = await createUser(ctx().server, ctx().root, "bob");
    expect((await me({ token: bob.token })).status).toBe(200);
    const blocked = await ctx().api({
      method: "PUT",
      path: `/users/${bob.id}/block`,
      token: ctx().root.token,
    });
    expect(blocked).toMatchObject({ status: 200, body: true });
    expect((await me({ token: bob.token })).status).toBe(401);
    const signIn = await ctx().api({
      method: "POST",
      path: "/session",
      json: { login: "bob", password: "password123" },
    });
    expect(signIn.status).toBe(401);
    await ctx().api({ method: "PUT", path: `/users/${bob.id}/unblock`, token: ctx().root.token });
    expect((await me({ token: bob.token })).status).toBe(200);
  });

  describe("sudo", () => {
    it("lets an admin act as a user by username or id, by parameter or header", async () => {
      const root = ctx().root.token;
      const byParam = await me({ token: root, query: { sudo: "alice" } });
      expect(byParam.body).toMatchObject({ username: "alice", private_token: alice.token });
      const byHeader = await me({ token: root, headers: { "PRIVATE-TOKEN": root, SUDO: String(alice.id) } });
      expect(byHeader.body.username).toBe("alice");
      const acting = await ctx().api<{ id: number }[]>({
        path: "/user/keys",
        token: root,
        query: { sudo: "alice" },
      });
      expect(acting.status).toBe(200);
    });

    it("refuses non-admins with 403 and unknown users with 404, in the v3 wording", async () => {
      expect(await me({ token: alice.token, query: { sudo: "root" } })).toMatchObject({
        status: 403,
        body: { message: "403 Forbidden: Must be admin to use sudo" },
      });
      expect(await me({ token: ctx().root.token, query: { sudo: "ghost" } })).toMatchObject({
        status: 404,
        body: { message: "404 Not Found: No user id or username for: ghost" },
      });
      expect(await me({ token: ctx().root.token, headers: { SUDO: "999999" } })).toMatchObject({
        status: 404,
      });
    });

    it("runs with the target's permissions, not the admin's", async () => {
      const res = await ctx().api({
        method: "POST",
        path: "/users",
        token: ctx().root.token,
        query: { sudo: "alice" },
        json: { username: "x9", email: "x9@example.com", name: "x", password: "password123" },
      });
      expect(res.status).toBe(403);
    });
  });

  describe("POST /session", () => {
    it("answers 201 with the session user and private token, by login or email", async () => {
      const byLogin = await ctx().api<Record<string, unknown>>({
        method: "POST",
        path: "/session",
        form: { login: "alice", password: "password123" },
      });
      expect(byLogin.status).toBe(201);
      expect(byLogin.body).toMatchObject({ username: "alice", private_token: alice.token, is_admin: false });
      for (const key of [
        "email",
        "theme_id",
        "color_scheme_id",
        "projects_limit",
        "current_sign_in_at",
        "identities",
        "can_create_group",
        "can_create_project",
        "two_factor_enabled",
      ]) {
        expect(byLogin.body).toHaveProperty(key);
      }
      const byEmail = await ctx().api({
        method: "POST",
        path: "/session",
        json: { email: "alice@example.com", password: "password123" },
      });
      expect(byEmail.status).toBe(201);
    });

    it("answers 401 for wrong credentials and 400 for missing ones", async () => {
      const wrong = await ctx().api({
        method: "POST",
        path: "/session",
        json: { login: "alice", password: "wrong-one" },
      });
      expect(wrong).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
      const noPassword = await ctx().api({ method: "POST", path: "/session", json: { login: "alice" } });
      expect(noPassword).toMatchObject({
        status: 400,
        body: { message: '400 (Bad request) "password" not given' },
      });
      const noLogin = await ctx().api({ method: "POST", path: "/session", json: { password: "x" } });
      expect(noLogin).toMatchObject({
        status: 400,
        body: { message: '400 (Bad request) "login" not given' },
      });
    });
  });
});
