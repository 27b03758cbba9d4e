import { createUser } from "@kiln/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import { onEachDatabase } from "./support.js";
import { Browser } from "./web-support.js";

onEachDatabase("web pages", (ctx) => {
  beforeAll(async () => {
    await createUser(ctx().server, ctx().root, "alice", { name: "Alice <script>alert(1)</script>" });
  });
  const browser = () => new Browser(ctx().server.url);

  describe("sign in", () => {
    it("sends a visitor to sign in and back to the page asked for, then shows it", async () => {
      const b = browser();
      const asked = await b.get("/profile/keys");
      expect(asked.status).toBe(303);
      expect(asked.headers.get("location")).toBe("/users/sign_in?redirect_to=%2Fprofile%2Fkeys");
      const signedIn = await b.signIn("alice", "password123", "/profile/keys");
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.get("location")).toBe("/profile/keys");
      expect(b.cookies.has("_kiln_session")).toBe(true);
      const page = await b.follow(signedIn);
      expect(page.status).toBe(200);
      expect(b.html).toContain('id="new_ssh_key_form"');
    });

    it("signs in by email too, and / leads to the profile once signed in", async () => {
      const b = browser();
      expect((await b.get("/")).headers.get("location")).toBe("/users/sign_in");
      expect((await b.signIn("alice@example.com", "password123")).headers.get("location")).toBe("/profile");
      expect((await b.get("/")).headers.get("location")).toBe("/profile");
    });

    it("refuses a wrong password or an unknown login with the same words, and no session", async () => {
      for (const [login, password] of [
        ["alice", "wrong-password"],
        ["nobody", "password123"],
      ] as const) {
        const b = browser();
        const refused = await b.signIn(login, password);
        expect(refused.status).toBe(401);
        expect(b.html).toContain("Invalid login or password.");
        expect(b.cookies.has("_kiln_session")).toBe(false);
      }
    });

    it("never redirects off the server after sign-in", async () => {
      for (const target of ["https://evil.example/", "//evil.example/x", "/\\evil.example"]) {
        const b = browser();
        const signedIn = await b.signIn("alice", "password123", target);
        expect(signedIn.headers.get("location")).toBe("/profile");
      }
    });

    it("sets the session cookie HttpOnly and SameSite=Lax on Path=/, not Secure over http", async () => {
      const b = browser();
      await b.get("/users/sign_in");
      const signedIn = await b.post("/users/sign_in", { login: "alice", password: "password123" });
      const cookie = signedIn.headers.getSetCookie().find((line) => line.startsWith("_kiln_session="));
      expect(cookie).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    });
  });

  it("refuses a form posted without the CSRF token, or with another browser's", async () => {
    const b = browser();
    await b.follow(await b.signIn("alice", "password123"));
    const without = await b.post("/profile", { name: "Changed", email: "alice@example.com" }, false);
    expect(without.status).toBe(403);
    const other = browser();
    await other.get("/users/sign_in");
    const foreign = await b.post(
      "/profile/keys",
      { title: "k", key: "x", authenticity_token: other.csrfToken() },
      false,
    );
    expect(foreign.status).toBe(403);
    const anonymous = browser();
    await anonymous.get("/users/sign_in");
    expect(
      (await anonymous.post("/users/sign_in", { login: "alice", password: "password123" }, false)).status,
    ).toBe(403);
  });

  it("answers every page with the security headers, and serves the stylesheet cacheable", async () => {
    const b = browser();
    const page = await b.get("/users/sign_in");
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = page.headers.get("content-security-policy") ?? "";
    for (const directive of [
      "default-src 'self'",
      "script-src 'none'",
      "img-src 'self' data:",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("referrer-policy")).toBe("same-origin");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const css = await b.get("/assets/kiln.css");
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(css.headers.get("cache-control")).toContain("max-age=");
  });

  it("ends the session on sign-out: its cookie no longer opens a page", async () => {
    const b = browser();
    await b.follow(await b.signIn("alice", "password123"));
    const stolen = b.cookies.get("_kiln_session") ?? "";
    const out = await b.post("/users/sign_out", {});
    expect(out.headers.get("location")).toBe("/users/sign_in");
    const replay = new Browser(ctx().server.url);
    replay.cookies.set("_kiln_session", stolen);
    expect((await replay.get("/profile")).status).toBe(303);
  });

  it("signs out every browser of the user", async () => {
    const first = browser();
    const second = browser();
    await first.follow(await first.signIn("alice", "password123"));
    await second.follow(await second.signIn("alice", "password123"));
    await second.get("/profile/active_sessions");
    expect(second.html).toContain("This browser");
    await second.post("/profile/active_sessions/revoke_all", {});
    expect((await first.get("/profile")).status).toBe(303);
    expect((await second.get("/profile")).status).toBe(303);
  });

  it("creates a personal access token shown once, which then works with the API, and revokes it", async () => {
    const b = browser();
    await b.follow(await b.signIn("alice", "password123"));
    await b.get("/profile/personal_access_tokens");
    // None checked is refused (GitLab's "can't be blank"); the form checks api by default.
    const unscoped = await b.post("/profile/personal_access_tokens", { name: "laptop", expires_at: "" });
    expect(unscoped.status).toBe(400);
    expect(b.html).toContain("can't be blank");
    expect(b.html).toContain('id="scopes_api" name="scopes[]" value="api"');
    const created = await b.post("/profile/personal_access_tokens", {
      name: "laptop",
      expires_at: "",
      "scopes[]": "api",
    });
    expect(created.status).toBe(200);
    const token = b.textOf("created_personal_access_token") ?? "";
    expect(token).toMatch(/^[A-Za-z0-9]{20}$/);
    const me = await ctx().api<{ username: string }>({ path: "/user", token });
    expect(me.body.username).toBe("alice");
    expect((await b.get("/profile/personal_access_tokens")).status).toBe(200);
    expect(b.html).not.toContain(token);
    const id = /name="id" value="(\d+)"/.exec(b.html)?.[1] ?? "";
    await b.post("/profile/personal_access_tokens/revoke", { id });
    expect((await ctx().api({ path: "/user", token })).status).toBe(401);
  });

  it("escapes a user's name: a <script> in it is text, never markup", async () => {
    const b = browser();
    await b.follow(await b.signIn("alice", "password123"));
    expect(b.html).not.toContain("<script>alert(1)</script>");
    expect(b.html).toContain("Alice &lt;script>alert(1)&lt;/script>");
  });

  it("changes the password with the current one, signing the other browsers out", async () => {
    await createUser(ctx().server, ctx().root, "bob");
    const other = browser();
    await other.signIn("bob", "password123");
    const b = browser();
    await b.follow(await b.signIn("bob", "password123"));
    await b.get("/profile/password");
    const wrong = await b.post("/profile/password", {
      current_password: "nope",
      password: "new-password-1",
      password_confirmation: "new-password-1",
    });
    expect(wrong.status).toBe(400);
    expect(b.html).toContain("is invalid");
    const changed = await b.post("/profile/password", {
      current_password: "password123",
      password: "new-password-1",
      password_confirmation: "new-password-1",
    });
    expect(changed.status).toBe(303);
    expect((await b.get("/profile/password")).status).toBe(200);
    expect(b.textOf("flash")).toContain("Password was successfully updated");
    expect((await other.get("/profile")).status).toBe(303);
    expect((await browser().signIn("bob", "new-password-1")).headers.get("location")).toBe("/profile");
  });

  it("shows the application settings to administrators only (404 to others) and saves them", async () => {
    const b = browser();
    await b.follow(await b.signIn("alice", "password123"));
    expect((await b.get("/admin/application_settings")).status).toBe(404);
    const admin = browser();
    await admin.follow(await admin.signIn("root", ctx().server.rootPassword));
    expect((await admin.get("/admin/application_settings")).status).toBe(200);
    const saved = await admin.post("/admin/application_settings", {
      signin_enabled: "1",
      signup_enabled: "1",
      default_projects_limit: "42",
      max_attachment_size: "10",
      max_artifacts_size: "100",
      session_expire_delay: "10080",
    });
    expect(saved.status).toBe(303);
    const settings = await ctx().api<{ default_projects_limit: number }>({
      path: "/application/settings",
      token: ctx().root.token,
    });
    expect(settings.body.default_projects_limit).toBe(42);
  });
});
