import { UserBasic, User as UserDetail, UserPublic } from "@kiln/schemas";
import { createUser, type TestUser } from "@kiln/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import { onEachDatabase } from "./support.js";

onEachDatabase("users API", (ctx) => {
  let alice: TestUser;
  beforeAll(async () => {
    alice = await createUser(ctx().server, ctx().root, "alice", { bio: "hi", skype: "alice.s" });
    for (const name of ["bob", "carol", "dan", "erin"]) await createUser(ctx().server, ctx().root, name);
  });
  const root = () => ctx().root.token;

  it("GET /user answers the full profile with ISO 8601 UTC timestamps", async () => {
    const res = await ctx().api({ path: "/user", token: alice.token });
    const user = UserPublic.strict().parse(res.body);
    expect(user).toMatchObject({
      username: "alice",
      bio: "hi",
      skype: "alice.s",
      web_url: `${ctx().server.url.replace("127.0.0.1", "localhost")}/alice`,
    });
    expect(user.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.body).not.toHaveProperty("private_token");
  });

  it("GET /users/:id shows administrators everything and others the public fields", async () => {
    const asUser = await ctx().api({ path: `/users/${ctx().root.id}`, token: alice.token });
    expect(() => UserDetail.strict().parse(asUser.body)).not.toThrow();
    expect(asUser.body).not.toHaveProperty("email");
    const asAdmin = await ctx().api({ path: `/users/${alice.id}`, token: root() });
    expect(UserPublic.strict().parse(asAdmin.body).email).toBe("alice@example.com");
    expect(await ctx().api({ path: "/users/999999", token: root() })).toMatchObject({
      status: 404,
      body: { message: "404 User Not Found" },
    });
    expect((await ctx().api({ path: "/users/alice", token: root() })).status).toBe(404);
  });

  it("GET /users lists by id, with the short form for non-admins, and filters", async () => {
    const asUser = await ctx().api<unknown[]>({ path: "/users", token: alice.token });
    expect(asUser.status).toBe(200);
    for (const item of asUser.body) expect(() => UserBasic.strict().parse(item)).not.toThrow();
    const asAdmin = await ctx().api<{ username: string }[]>({ path: "/users", token: root() });
    expect(asAdmin.body.map((u) => u.username)).toEqual(["root", "alice", "bob", "carol", "dan", "erin"]);
    expect(() => UserPublic.strict().parse(asAdmin.body[0])).not.toThrow();
    const byUsername = await ctx().api<{ username: string }[]>({
      path: "/users",
      token: root(),
      query: { username: "CAROL" },
    });
    expect(byUsername.body.map((u) => u.username)).toEqual(["carol"]);
    const search = await ctx().api<{ username: string }[]>({
      path: "/users",
      token: root(),
      query: { search: "RO" },
    });
    expect(search.body.map((u) => u.username)).toEqual(["root", "carol"]);
    // emails are private: only administrators find users by them
    const byEmail = { path: "/users", query: { search: "alice@example" } };
    expect((await ctx().api<unknown[]>({ ...byEmail, token: alice.token })).body).toEqual([]);
    expect((await ctx().api<unknown[]>({ ...byEmail, token: root() })).body).toHaveLength(1);
  });

  it("paginates with v3 headers and absolute Link URLs that keep filters but never tokens", async () => {
    const res = await ctx().api({
      path: "/users",
      query: { per_page: 2, page: 2, private_token: root(), active: "true" },
    });
    expect(res.status).toBe(200);
    expect((res.body as unknown[]).length).toBe(2);
    const h = (name: string) => res.headers.get(name);
    expect([
      h("x-total"),
      h("x-total-pages"),
      h("x-per-page"),
      h("x-page"),
      h("x-next-page"),
      h("x-prev-page"),
    ]).toEqual(["6", "3", "2", "2", "3", "1"]);
    const base = `http://localhost:${ctx().server.port}/api/v3/users`;
    expect(h("link")).toBe(
      [
        `<${base}?active=true&page=1&per_page=2>; rel="prev"`,
        `<${base}?active=true&page=3&per_page=2>; rel="next"`,
        `<${base}?active=true&page=1&per_page=2>; rel="first"`,
        `<${base}?active=true&page=3&per_page=2>; rel="last"`,
      ].join(", "),
    );
    expect(h("link")).not.toContain(root());
  });

  it("clamps out-of-range pages instead of refusing them", async () => {
    const big = await ctx().api({ path: "/users", token: root(), query: { per_page: 1000, page: 0 } });
    expect([big.headers.get("x-per-page"), big.headers.get("x-page")]).toEqual(["100", "1"]);
    const past = await ctx().api<unknown[]>({ path: "/users", token: root(), query: { page: 99 } });
    expect(past.body).toEqual([]);
    expect(past.headers.get("x-next-page")).toBe("");
    const notNumber = await ctx().api({ path: "/users", token: root(), query: { per_page: "lots" } });
    expect(notNumber).toMatchObject({ status: 400, body: { message: { per_page: ["is invalid"] } } });
  });

  describe("administration", () => {
    it("POST /users creates (201), refuses duplicates (409) and invalid input (400)", async () => {
      const created = await ctx().api<Record<string, unknown>>({
        method: "POST",
        path: "/users",
        token: root(),
        form: {
          username: "frank",
          email: "frank@example.com",
          name: "Frank",
          password: "password123",
          admin: "1",
          projects_limit: "3",
          can_create_group: "false",
        },
      });
      expect(created.status).toBe(201);
      expect(UserPublic.strict().parse(created.body)).toMatchObject({
        is_admin: true,
        projects_limit: 3,
        can_create_group: false,
      });
      const dupe = { name: "F", password: "password123" };
      expect(
        await ctx().api({
          method: "POST",
          path: "/users",
          token: root(),
          json: { ...dupe, username: "Frank", email: "f2@example.com" },
        }),
      ).toMatchObject({ status: 409, body: { message: "Username has already been taken" } });
      expect(
        await ctx().api({
          method: "POST",
          path: "/users",
          token: root(),
          json: { ...dupe, username: "f2", email: "FRANK@example.com" },
        }),
      ).toMatchObject({ status: 409, body: { message: "Email has already been taken" } });
      const invalid = await ctx().api({
        method: "POST",
        path: "/users",
        token: root(),
        json: { username: "-bad", email: "nope", name: "x", password: "short", projects_limit: -1 },
      });
      expect(invalid.status).toBe(400);
      expect(Object.keys((invalid.body as { message: object }).message).sort()).toEqual([
        "email",
        "password",
        "projects_limit",
        "username",
      ]);
      expect(
        await ctx().api({ method: "POST", path: "/users", token: root(), json: { email: "a@b.c" } }),
      ).toMatchObject({
        status: 400,
        body: { message: '400 (Bad request) "name" not given' },
      });
      expect(
        (
          await ctx().api({
            method: "POST",
            path: "/users",
            token: alice.token,
            json: { ...dupe, username: "z", email: "z@z.z" },
          })
        ).status,
      ).toBe(403);
    });

    it("PUT /users/:id updates, DELETE removes, both for admins only", async () => {
      const gina = await createUser(ctx().server, ctx().root, "gina");
      const updated = await ctx().api({
        method: "PUT",
        path: `/users/${gina.id}`,
        token: root(),
        json: { name: "Gina G", bio: "b" },
      });
      expect(updated).toMatchObject({ status: 200, body: { name: "Gina G", bio: "b" } });
      expect(
        (
          await ctx().api({
            method: "PUT",
            path: `/users/${gina.id}`,
            token: alice.token,
            json: { name: "x" },
          })
        ).status,
      ).toBe(403);
      expect(
        await ctx().api({
          method: "PUT",
          path: `/users/${gina.id}`,
          token: root(),
          json: { username: "alice" },
        }),
      ).toMatchObject({
        status: 409,
      });
      const removed = await ctx().api({ method: "DELETE", path: `/users/${gina.id}`, token: root() });
      expect(removed).toMatchObject({ status: 200, body: { username: "gina" } });
      expect((await ctx().api({ path: "/user", token: gina.token })).status).toBe(401);
      expect((await ctx().api({ method: "DELETE", path: `/users/${gina.id}`, token: root() })).status).toBe(
        404,
      );
    });
  });

  describe("SSH keys", () => {
    const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG8q9q2kF7m0oJqz8yLq5rj3xJX4W2l7oXnJmH3p0Q9t e2e@test";

    it("adds, lists, shows and deletes the caller's keys; admins manage anyone's", async () => {
      const added = await ctx().api<{ id: number; key: string }>({
        method: "POST",
        path: "/user/keys",
        token: alice.token,
        json: { title: "laptop", key: KEY },
      });
      expect(added).toMatchObject({ status: 201, body: { title: "laptop", key: KEY } });
      const id = added.body.id;
      expect((await ctx().api<unknown[]>({ path: "/user/keys", token: alice.token })).body).toHaveLength(1);
      expect((await ctx().api({ path: `/user/keys/${id}`, token: alice.token })).status).toBe(200);
      expect(await ctx().api({ path: `/user/keys/${id}`, token: ctx().root.token })).toMatchObject({
        status: 404,
        body: { message: "404 Key Not Found" },
      });
      expect(
        (await ctx().api<unknown[]>({ path: `/users/${alice.id}/keys`, token: root() })).body,
      ).toHaveLength(1);
      expect((await ctx().api({ path: `/users/${alice.id}/keys`, token: alice.token })).status).toBe(403);
      const dupe = await ctx().api({
        method: "POST",
        path: `/users/${ctx().root.id}/keys`,
        token: root(),
        json: { title: "x", key: KEY },
      });
      expect(dupe).toMatchObject({
        status: 400,
        body: { message: { fingerprint: ["has already been taken"] } },
      });
      expect(
        await ctx().api({
          method: "POST",
          path: "/user/keys",
          token: alice.token,
          json: { title: "x", key: "ssh-rsa nonsense" },
        }),
      ).toMatchObject({ status: 400, body: { message: { key: ["is invalid"] } } });
      expect(
        (await ctx().api({ method: "DELETE", path: `/user/keys/${id}`, token: alice.token })).status,
      ).toBe(200);
      expect(
        (await ctx().api({ method: "DELETE", path: `/user/keys/${id}`, token: alice.token })).status,
      ).toBe(404);
    });
  });
});
