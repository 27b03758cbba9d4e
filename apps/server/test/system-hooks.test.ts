import type { SystemHookJson } from "@kiln/schemas";
import { createUser, type TestUser } from "@kiln/testkit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { until } from "./crash-support.js";
import { type Receiver, startReceiver } from "./hook-receiver.js";
import { onEachDatabase } from "./support.js";

onEachDatabase("system hooks", (ctx) => {
  let receiver: Receiver;
  let someone: TestUser;
  const root = () => ctx().root.token;
  const api = <T = unknown>(request: Parameters<ReturnType<typeof ctx>["api"]>[0]) =>
    ctx().api<T>({ token: root(), ...request });
  beforeAll(async () => {
    receiver = await startReceiver();
    const res = await api({
      method: "PUT",
      path: "/application/settings",
      json: { allow_local_requests_from_hooks: true },
    });
    expect(res.status).toBe(200);
    someone = await createUser(ctx().server, ctx().root, "sysh-someone");
  });
  afterAll(async () => {
    await receiver?.close();
  });

  /** The system events the receiver got at `path`, by `event_name`. */
  const events = (path: string, name: string) =>
    receiver
      .at(path)
      .filter((r) => r.body["event_name"] === name)
      .map((r) => r.body);
  const waitForEvent = async (path: string, name: string) => {
    await until(() => events(path, name).length > 0);
    return events(path, name)[0] as Record<string, unknown>;
  };

  it("adds, lists, tests and deletes system hooks, administrators only", async () => {
    const added = await api<SystemHookJson>({
      method: "POST",
      path: "/hooks",
      json: { url: `${receiver.url}/admin-api`, token: "t0k" },
    });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      id: expect.any(Number),
      url: `${receiver.url}/admin-api`,
      created_at: expect.any(String),
      push_events: true,
      tag_push_events: false,
      enable_ssl_verification: true,
    });
    expect(added.text).not.toContain("t0k");
    const listed = await api<SystemHookJson[]>({ path: "/hooks" });
    expect(listed.body.map((hook) => hook.id)).toContain(added.body.id);

    const tested = await api({ path: `/hooks/${added.body.id}` });
    expect(tested).toMatchObject({
      status: 200,
      body: {
        event_name: "project_create",
        name: "Ruby",
        path: "ruby",
        project_id: 1,
        owner_name: "Someone",
        owner_email: "example@gitlabhq.com",
      },
    });
    const [sample] = await receiver.waitFor("/admin-api");
    expect(sample?.headers).toMatchObject({ "x-gitlab-event": "System Hook", "x-gitlab-token": "t0k" });
    expect(sample?.body).toEqual(tested.body);

    for (const [method, path] of [
      ["GET", "/hooks"],
      ["POST", "/hooks"],
      ["GET", `/hooks/${added.body.id}`],
      ["DELETE", `/hooks/${added.body.id}`],
    ] as const) {
      const res = await ctx().api({
        method,
        path,
        token: someone.token,
        json: { url: "https://example.com" },
      });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await api({ method: "POST", path: "/hooks", json: {} })).status).toBe(400);

    const deleted = await api<SystemHookJson>({ method: "DELETE", path: `/hooks/${added.body.id}` });
    expect(deleted).toMatchObject({ status: 200, body: added.body });
    expect(await api({ method: "DELETE", path: `/hooks/${added.body.id}` })).toMatchObject({
      status: 404,
      body: { message: "404 System hook Not Found" },
    });
    expect((await api({ path: `/hooks/${added.body.id}` })).status).toBe(404);
  });

  it("delivers GitLab 8.x's system events: users, keys, projects, groups and memberships", async () => {
    const added = await api<SystemHookJson>({
      method: "POST",
      path: "/hooks",
      json: { url: `${receiver.url}/sys` },
    });
    expect(added.status).toBe(201);
    const path = "/sys";

    const user = await createUser(ctx().server, ctx().root, "sysh-bob");
    expect(await waitForEvent(path, "user_create")).toMatchObject({
      event_name: "user_create",
      created_at: expect.any(String),
      updated_at: expect.any(String),
      name: expect.any(String),
      email: expect.any(String),
      user_id: user.id,
      username: "sysh-bob",
    });

    const key =
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl sysh@example.com";
    const keyAdded = await api<{ id: number }>({
      method: "POST",
      path: `/users/${user.id}/keys`,
      json: { title: "laptop", key },
    });
    expect(keyAdded.status, keyAdded.text).toBe(201);
    expect(await waitForEvent(path, "key_create")).toMatchObject({
      username: "sysh-bob",
      key,
      id: keyAdded.body.id,
    });
    await api({ method: "DELETE", path: `/users/${user.id}/keys/${keyAdded.body.id}` });
    expect(await waitForEvent(path, "key_destroy")).toMatchObject({ id: keyAdded.body.id });

    const project = await api<{ id: number }>({
      method: "POST",
      path: "/projects",
      json: { name: "sysproj" },
    });
    expect(project.status).toBe(201);
    expect(await waitForEvent(path, "project_create")).toMatchObject({
      name: "sysproj",
      path: "sysproj",
      path_with_namespace: "root/sysproj",
      project_id: project.body.id,
      owner_name: "Administrator",
      project_visibility: "private",
    });
    await api({
      method: "POST",
      path: `/projects/${project.body.id}/members`,
      json: { user_id: user.id, access_level: 30 },
    });
    expect(await waitForEvent(path, "user_add_to_team")).toMatchObject({
      project_id: project.body.id,
      project_path_with_namespace: "root/sysproj",
      user_username: "sysh-bob",
      user_id: user.id,
      access_level: "Developer",
    });
    await api({ method: "DELETE", path: `/projects/${project.body.id}/members/${user.id}` });
    expect(await waitForEvent(path, "user_remove_from_team")).toMatchObject({ user_id: user.id });
    await api({ method: "PUT", path: `/projects/${project.body.id}`, json: { path: "sysproj2" } });
    expect(await waitForEvent(path, "project_rename")).toMatchObject({
      path_with_namespace: "root/sysproj2",
      old_path_with_namespace: "root/sysproj",
    });

    const group = await api<{ id: number }>({
      method: "POST",
      path: "/groups",
      json: { name: "sysg", path: "sysg" },
    });
    expect(group.status).toBe(201);
    expect(await waitForEvent(path, "group_create")).toMatchObject({
      name: "sysg",
      path: "sysg",
      group_id: group.body.id,
    });
    await api({
      method: "POST",
      path: `/groups/${group.body.id}/members`,
      json: { user_id: user.id, access_level: 40 },
    });
    expect(await waitForEvent(path, "user_add_to_group")).toMatchObject({
      group_id: group.body.id,
      user_id: user.id,
      group_access: "Master",
    });
    await api({ method: "DELETE", path: `/groups/${group.body.id}/members/${user.id}` });
    expect(await waitForEvent(path, "user_remove_from_group")).toMatchObject({ user_id: user.id });
    const moved = await api({ method: "POST", path: `/groups/${group.body.id}/projects/${project.body.id}` });
    expect(moved.status, moved.text).toBe(201);
    expect(await waitForEvent(path, "project_transfer")).toMatchObject({
      path_with_namespace: "sysg/sysproj2",
      old_path_with_namespace: "root/sysproj2",
    });

    await api({ method: "DELETE", path: `/projects/${project.body.id}` });
    expect(await waitForEvent(path, "project_destroy")).toMatchObject({ project_id: project.body.id });
    await api({ method: "DELETE", path: `/groups/${group.body.id}` });
    expect(await waitForEvent(path, "group_destroy")).toMatchObject({ group_id: group.body.id });
    await api({ method: "DELETE", path: `/users/${user.id}` });
    expect(await waitForEvent(path, "user_destroy")).toMatchObject({
      user_id: user.id,
      username: "sysh-bob",
    });
  });

  it("announces project_destroy for every project deleted with its group or its user, with the owner's own event", async () => {
    const path = "/cascade";
    const hook = await api({ method: "POST", path: "/hooks", json: { url: `${receiver.url}${path}` } });
    expect(hook.status).toBe(201);
    const group = await api<{ id: number }>({
      method: "POST",
      path: "/groups",
      json: { name: "cascg", path: "cascg" },
    });
    const inGroup = await api<{ id: number }>({
      method: "POST",
      path: "/projects",
      json: { name: "in-group", namespace_id: group.body.id },
    });
    expect(inGroup.status, inGroup.text).toBe(201);
    const owner = await createUser(ctx().server, ctx().root, "sysh-carol");
    const personal = await ctx().api<{ id: number }>({
      method: "POST",
      path: "/projects",
      token: owner.token,
      json: { name: "personal" },
    });
    expect(personal.status, personal.text).toBe(201);

    await api({ method: "DELETE", path: `/groups/${group.body.id}` });
    await api({ method: "DELETE", path: `/users/${owner.id}` });
    await until(
      () => events(path, "project_destroy").length === 2 && events(path, "user_destroy").length === 1,
    );
    // Deliveries go out in parallel: their order of arrival is not their order of events.
    const destroyed = receiver
      .at(path)
      .map((r) => r.body)
      .filter((body) => String(body["event_name"]).endsWith("_destroy"))
      .map(
        (body) => `${body["event_name"]} ${body["path_with_namespace"] ?? body["path"] ?? body["username"]}`,
      );
    expect(destroyed.sort()).toEqual([
      "group_destroy cascg",
      "project_destroy cascg/in-group",
      "project_destroy sysh-carol/personal",
      "user_destroy sysh-carol",
    ]);
  });
});
