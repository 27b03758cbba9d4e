import { ProjectJson } from "@kiln/schemas";
import { createUser, type TestUser } from "@kiln/testkit";
import { beforeAll, expect, it } from "vitest";
import { onEachDatabase } from "./support.js";

onEachDatabase("projects API", (ctx) => {
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    alice = await createUser(ctx().server, ctx().root, "alice");
    bob = await createUser(ctx().server, ctx().root, "bob");
  });
  const api = <T = unknown>(request: Parameters<ReturnType<typeof ctx>["api"]>[0]) => ctx().api<T>(request);

  async function create(user: TestUser, form: Record<string, string | number | boolean>) {
    return api<ProjectJson & { message?: unknown }>({
      method: "POST",
      path: "/projects",
      token: user.token,
      form,
    });
  }

  it("POST /projects answers 201 with the full Project shape, URLs from the base URL", async () => {
    const res = await create(alice, { name: "Hello World", description: "first", visibility_level: 10 });
    expect(res.status).toBe(201);
    const project = ProjectJson.strict().parse(res.body);
    const base = `http://localhost:${ctx().server.port}`;
    expect(project).toMatchObject({
      name: "Hello World",
      path: "hello-world",
      path_with_namespace: "alice/hello-world",
      name_with_namespace: "alice / Hello World",
      web_url: `${base}/alice/hello-world`,
      http_url_to_repo: `${base}/alice/hello-world.git`,
      ssh_url_to_repo: "git@localhost:alice/hello-world.git",
      visibility_level: 10,
      public: false,
      owner: { id: alice.id, name: "alice" },
      namespace: { path: "alice", kind: "user", owner_id: alice.id },
      permissions: { project_access: { access_level: 40, notification_level: 3 }, group_access: null },
    });
    expect(project.runners_token).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it("answers a name taken in the namespace with 409, a missing name with 400, a bad one with the field object", async () => {
    await create(alice, { name: "dup" });
    expect((await create(alice, { name: "DUP" })).status).toBe(409);
    expect(await create(alice, { description: "x" })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "name" not given' },
    });
    const bad = await create(alice, { name: "ok", path: "../escape" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toHaveProperty("path");
  });

  it("finds a project by id or by NAMESPACE%2FPROJECT, and hides private ones from outsiders as 404", async () => {
    const created = await create(alice, { name: "secret" });
    const byPath = await api<ProjectJson>({ path: "/projects/alice%2Fsecret", token: alice.token });
    expect(byPath.body.id).toBe(created.body.id);
    for (const path of [
      `/projects/${created.body.id}`,
      "/projects/alice%2Fsecret",
      `/projects/${created.body.id}/members`,
    ]) {
      expect(await api({ path, token: bob.token })).toMatchObject({
        status: 404,
        body: { message: "404 Project Not Found" },
      });
    }
    const listed = await api<ProjectJson[]>({ path: "/projects/visible", token: bob.token });
    expect(listed.body.map((p) => p.name)).not.toContain("secret");
  });

  it("lists the caller's projects with pagination headers, and /projects/all only for admins", async () => {
    const mine = await api<ProjectJson[]>({
      path: "/projects",
      token: alice.token,
      query: { per_page: 2, order_by: "name", sort: "asc" },
    });
    expect(mine.status).toBe(200);
    expect(mine.body).toHaveLength(2);
    expect(Number(mine.headers.get("x-total"))).toBeGreaterThanOrEqual(3);
    expect(mine.headers.get("link")).toContain("order_by=name");
    expect((await api({ path: "/projects/all", token: alice.token })).status).toBe(403);
    const all = await api<ProjectJson[]>({ path: "/projects/all", token: ctx().root.token });
    expect(all.body.length).toBeGreaterThanOrEqual(3);
  });

  it("stars (201, then 304) and unstars (200, then 304)", async () => {
    const { body } = await create(alice, { name: "starry", visibility_level: 20 });
    const star = await api<ProjectJson>({
      method: "POST",
      path: `/projects/${body.id}/star`,
      token: bob.token,
    });
    expect(star).toMatchObject({ status: 201, body: { star_count: 1 } });
    expect(star.body).not.toHaveProperty("permissions");
    expect((await api({ method: "POST", path: `/projects/${body.id}/star`, token: bob.token })).status).toBe(
      304,
    );
    const starred = await api<ProjectJson[]>({ path: "/projects/starred", token: bob.token });
    expect(starred.body.map((p) => p.id)).toEqual([body.id]);
    expect(
      await api({ method: "DELETE", path: `/projects/${body.id}/star`, token: bob.token }),
    ).toMatchObject({
      status: 200,
      body: { star_count: 0 },
    });
    expect(
      (await api({ method: "DELETE", path: `/projects/${body.id}/star`, token: bob.token })).status,
    ).toBe(304);
  });

  it("answers star, unstar and the starred list with GitLab's plain Project: no permissions, no runners_token, even to the owner", async () => {
    const { body } = await create(alice, { name: "self-starred" });
    expect(body.runners_token).toEqual(expect.any(String));
    const star = await api<ProjectJson>({
      method: "POST",
      path: `/projects/${body.id}/star`,
      token: alice.token,
    });
    // The starred list shows the same entity (GitLab's Entities::Project, without admin options).
    const starred = await api<ProjectJson[]>({ path: "/projects/starred", token: alice.token });
    expect(starred.body.map((project) => project.id)).toEqual([body.id]);
    expect(Object.keys(starred.body[0] ?? {})).not.toContain("runners_token");
    const unstar = await api<ProjectJson>({
      method: "DELETE",
      path: `/projects/${body.id}/star`,
      token: alice.token,
    });
    for (const [res, status, count] of [
      [star, 201, 1],
      [unstar, 200, 0],
    ] as const) {
      expect(res).toMatchObject({ status, body: { id: body.id, star_count: count } });
      expect(Object.keys(res.body)).not.toContain("runners_token");
      expect(Object.keys(res.body)).not.toContain("permissions");
      const { runners_token: _token, permissions: _permissions, ...rest } = body;
      expect(Object.keys(res.body).sort()).toEqual(Object.keys(rest).sort());
    }
  });

  it("archives and unarchives with 201 for the owner, 403 for others who can see it", async () => {
    const { body } = await create(alice, { name: "archivable", visibility_level: 20 });
    expect(
      await api({ method: "POST", path: `/projects/${body.id}/archive`, token: alice.token }),
    ).toMatchObject({
      status: 201,
      body: { archived: true },
    });
    expect(
      (await api({ method: "POST", path: `/projects/${body.id}/archive`, token: alice.token })).status,
    ).toBe(201);
    expect(
      (await api({ method: "POST", path: `/projects/${body.id}/unarchive`, token: bob.token })).status,
    ).toBe(403);
    expect(
      await api({ method: "POST", path: `/projects/${body.id}/unarchive`, token: alice.token }),
    ).toMatchObject({
      status: 201,
      body: { archived: false },
    });
  });

  it("updates with PUT: masters change settings, owners rename", async () => {
    const { body } = await create(alice, { name: "editable" });
    await api({
      method: "POST",
      path: `/projects/${body.id}/members`,
      token: alice.token,
      form: { user_id: bob.id, access_level: 40 },
    });
    const edited = await api({
      method: "PUT",
      path: `/projects/${body.id}`,
      token: bob.token,
      form: { description: "by bob", wiki_enabled: 0 },
    });
    expect(edited).toMatchObject({ status: 200, body: { description: "by bob", wiki_enabled: false } });
    expect(
      (await api({ method: "PUT", path: `/projects/${body.id}`, token: bob.token, form: { name: "x" } }))
        .status,
    ).toBe(403);
    const renamed = await api({
      method: "PUT",
      path: `/projects/${body.id}`,
      token: alice.token,
      form: { name: "Edited", path: "edited" },
    });
    expect(renamed).toMatchObject({
      status: 200,
      body: { name: "Edited", path_with_namespace: "alice/edited" },
    });
  });

  it("manages members: add (idempotent), get, edit, list with query, remove (a non-member counts as success)", async () => {
    const { body } = await create(alice, { name: "team" });
    const add = await api({
      method: "POST",
      path: `/projects/${body.id}/members`,
      token: alice.token,
      form: { user_id: bob.id, access_level: 30 },
    });
    expect(add).toMatchObject({
      status: 201,
      body: { id: bob.id, username: "bob", access_level: 30, email: "bob@example.com" },
    });
    const again = await api({
      method: "POST",
      path: `/projects/${body.id}/members`,
      token: alice.token,
      form: { user_id: bob.id, access_level: 10 },
    });
    expect(again.body).toMatchObject({ access_level: 30 });
    expect((await api({ path: `/projects/${body.id}/members/${bob.id}`, token: bob.token })).status).toBe(
      200,
    );
    const edit = await api({
      method: "PUT",
      path: `/projects/${body.id}/members/${bob.id}`,
      token: alice.token,
      form: { access_level: 20 },
    });
    expect(edit.body).toMatchObject({ access_level: 20 });
    const found = await api<{ username: string }[]>({
      path: `/projects/${body.id}/members`,
      token: alice.token,
      query: { query: "bo" },
    });
    expect(found.body.map((m) => m.username)).toEqual(["bob"]);
    expect(
      (
        await api({
          method: "POST",
          path: `/projects/${body.id}/members`,
          token: bob.token,
          form: { user_id: ctx().root.id, access_level: 10 },
        })
      ).status,
    ).toBe(403);
    expect(
      (await api({ method: "DELETE", path: `/projects/${body.id}/members/${bob.id}`, token: alice.token }))
        .status,
    ).toBe(200);
    expect(
      (await api({ method: "DELETE", path: `/projects/${body.id}/members/${bob.id}`, token: alice.token }))
        .status,
    ).toBe(200);
    expect((await api({ path: `/projects/${body.id}/members/${bob.id}`, token: alice.token })).status).toBe(
      404,
    );
  });

  it("forks into the caller's namespace (201) and refuses a second fork of the same name (409)", async () => {
    const { body } = await create(alice, { name: "upstream", visibility_level: 20 });
    const fork = await api<ProjectJson>({
      method: "POST",
      path: `/projects/fork/${body.id}`,
      token: bob.token,
    });
    expect(fork.status).toBe(201);
    expect(fork.body).toMatchObject({
      path_with_namespace: "bob/upstream",
      forked_from_project: { id: body.id },
    });
    expect((await api({ method: "POST", path: `/projects/fork/${body.id}`, token: bob.token })).status).toBe(
      409,
    );
    expect(
      (await api<ProjectJson>({ path: `/projects/${body.id}`, token: alice.token })).body.forks_count,
    ).toBe(1);
    expect(
      (await api({ method: "DELETE", path: `/projects/${fork.body.id}/fork`, token: bob.token })).status,
    ).toBe(403);
    expect(
      (await api({ method: "DELETE", path: `/projects/${fork.body.id}/fork`, token: ctx().root.token }))
        .status,
    ).toBe(200);
    expect(
      (await api({ method: "DELETE", path: `/projects/${fork.body.id}/fork`, token: ctx().root.token }))
        .status,
    ).toBe(304);
  });

  it("records events newest first and deletes projects for owners (then 404)", async () => {
    const { body } = await create(alice, { name: "eventful" });
    await api({
      method: "POST",
      path: `/projects/${body.id}/members`,
      token: alice.token,
      form: { user_id: bob.id, access_level: 20 },
    });
    const events = await api<{ action_name: string; author_username: string }[]>({
      path: `/projects/${body.id}/events`,
      token: alice.token,
    });
    expect(events.body.map((e) => [e.action_name, e.author_username])).toEqual([
      ["joined", "bob"],
      ["created", "alice"],
    ]);
    expect((await api({ method: "DELETE", path: `/projects/${body.id}`, token: bob.token })).status).toBe(
      403,
    );
    expect(await api({ method: "DELETE", path: `/projects/${body.id}`, token: alice.token })).toMatchObject({
      status: 200,
      body: true,
    });
    expect((await api({ path: `/projects/${body.id}`, token: alice.token })).status).toBe(404);
  });

  it("keeps can_create_project true to the limit: creating, deleting and transferring a project count", async () => {
    const carol = await createUser(ctx().server, ctx().root, "carol", { projects_limit: 1 });
    const canCreate = async () =>
      (await api<{ can_create_project: boolean }>({ path: "/user", token: carol.token })).body
        .can_create_project;
    expect(await canCreate()).toBe(true);
    const first = await create(carol, { name: "only" });
    expect(await canCreate()).toBe(false);
    await api({ method: "DELETE", path: `/projects/${first.body.id}`, token: carol.token });
    expect(await canCreate()).toBe(true);

    const second = await create(carol, { name: "moving" });
    expect(await canCreate()).toBe(false);
    const group = await api<{ id: number }>({
      method: "POST",
      path: "/groups",
      token: ctx().root.token,
      form: { name: "carols-team", path: "carols-team" },
    });
    const moved = await api({
      method: "POST",
      path: `/groups/${group.body.id}/projects/${second.body.id}`,
      token: ctx().root.token,
    });
    expect(moved.status).toBe(201);
    expect(await canCreate()).toBe(true);
  });
});

onEachDatabase("application settings API", (ctx) => {
  it("answers created_at and updated_at as timestamps; a change moves updated_at only", async () => {
    type Stamps = { created_at: unknown; updated_at: unknown; home_page_url: unknown };
    const settings = (form?: Record<string, string>) =>
      ctx().api<Stamps>({
        method: form ? "PUT" : "GET",
        path: "/application/settings",
        token: ctx().root.token,
        ...(form ? { form } : {}),
      });
    const isoTimestamp = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const before = (await settings()).body;
    expect(before).toMatchObject({ created_at: isoTimestamp, updated_at: isoTimestamp });
    const createdAt = before.created_at as string;
    const updatedAt = before.updated_at as string;
    expect(Date.parse(updatedAt)).toBeGreaterThanOrEqual(Date.parse(createdAt));

    // Timestamps have millisecond precision: change only once the clock has passed the last one.
    while (Date.now() <= Date.parse(updatedAt)) await new Promise((resolve) => setImmediate(resolve));
    const changed = await settings({ home_page_url: "https://example.com/welcome" });
    expect(changed).toMatchObject({
      status: 200,
      body: { home_page_url: "https://example.com/welcome", created_at: createdAt, updated_at: isoTimestamp },
    });
    const movedTo = changed.body.updated_at as string;
    expect(Date.parse(movedTo)).toBeGreaterThan(Date.parse(updatedAt));
    expect((await settings()).body).toMatchObject({ created_at: createdAt, updated_at: movedTo });

    // As in GitLab (Rails saves nothing when no value changes), a PUT that changes nothing keeps it.
    while (Date.now() <= Date.parse(movedTo)) await new Promise((resolve) => setImmediate(resolve));
    const same = await settings({ home_page_url: "https://example.com/welcome" });
    expect(same.body).toMatchObject({ created_at: createdAt, updated_at: movedTo });
  });

  it("answers administrators only, persists changes, and applies signin_enabled", async () => {
    const carol = await createUser(ctx().server, ctx().root, "carol");
    expect((await ctx().api({ path: "/application/settings", token: carol.token })).status).toBe(403);
    const before = await ctx().api<Record<string, unknown>>({
      path: "/application/settings",
      token: ctx().root.token,
    });
    expect(before).toMatchObject({
      status: 200,
      body: { id: 1, signin_enabled: true, default_projects_limit: 10 },
    });
    const put = await ctx().api({
      method: "PUT",
      path: "/application/settings",
      token: ctx().root.token,
      form: { signin_enabled: false, default_project_visibility: 2 },
    });
    expect(put).toMatchObject({
      status: 200,
      body: { signin_enabled: false, default_project_visibility: 20 },
    });
    const signIn = await ctx().api({
      method: "POST",
      path: "/session",
      json: { login: "carol", password: "password123" },
    });
    expect(signIn.status).toBe(403);
    const project = await ctx().api<ProjectJson>({
      method: "POST",
      path: "/projects",
      token: carol.token,
      form: { name: "p" },
    });
    expect(project.body.visibility_level).toBe(20);
    await ctx().api({
      method: "PUT",
      path: "/application/settings",
      token: ctx().root.token,
      form: { signin_enabled: true },
    });
    expect(
      (
        await ctx().api({
          method: "POST",
          path: "/session",
          json: { login: "carol", password: "password123" },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await ctx().api({
          method: "PUT",
          path: "/application/settings",
          token: carol.token,
          form: { signin_enabled: true },
        })
      ).status,
    ).toBe(403);
  });
});
