import { ProjectHookJson } from "@kiln/schemas";
import { beforeAll, describe, expect, it } from "vitest";
import { createRoleCast, ROLES, type Role, type RoleCast } from "./project-roles.js";
import { onEachDatabase } from "./support.js";

type HookBody = ProjectHookJson & { message?: unknown };

onEachDatabase("project hooks API", (ctx) => {
  let cast: RoleCast;
  beforeAll(async () => {
    cast = await createRoleCast(ctx(), "hk");
  });
  const api = <T = unknown>(request: Parameters<ReturnType<typeof ctx>["api"]>[0]) => ctx().api<T>(request);
  const owner = () => cast.people.owner.token;
  const addHook = (projectId: number, json: Record<string, unknown>, token = owner()) =>
    api<HookBody>({ method: "POST", path: `/projects/${projectId}/hooks`, token, json });

  async function setLocalRequests(allowed: boolean) {
    const res = await api({
      method: "PUT",
      path: "/application/settings",
      token: ctx().root.token,
      json: { allow_local_requests_from_hooks: allowed },
    });
    expect(res.status).toBe(200);
  }

  it("adds a hook (201, GitLab's defaults, no token in the answer), gets, lists, edits and deletes it", async () => {
    const id = cast.private.id;
    const added = await addHook(id, { url: "https://example.com/hook", token: "t0ps3cret" });
    expect(added.status).toBe(201);
    const hook = ProjectHookJson.strict().parse(added.body);
    expect(hook).toMatchObject({
      url: "https://example.com/hook",
      project_id: id,
      push_events: true,
      issues_events: false,
      merge_requests_events: false,
      tag_push_events: false,
      note_events: false,
      build_events: false,
      pipeline_events: false,
      wiki_page_events: false,
      enable_ssl_verification: true,
    });
    expect(added.text).not.toContain("t0ps3cret");

    const byPath = `/projects/${encodeURIComponent(cast.private.path_with_namespace)}/hooks/${hook.id}`;
    expect(await api({ path: byPath, token: owner() })).toMatchObject({ status: 200, body: hook });
    const listed = await api<HookBody[]>({ path: `/projects/${id}/hooks`, token: owner() });
    expect(listed.status).toBe(200);
    expect(listed.body.map((h) => h.id)).toContain(hook.id);
    expect(listed.headers.get("x-total")).toBe(String(listed.body.length));

    const edited = await api<HookBody>({
      method: "PUT",
      path: `/projects/${id}/hooks/${hook.id}`,
      token: owner(),
      form: { url: "https://example.com/v2", note_events: "true", push_events: "false" },
    });
    expect(edited).toMatchObject({
      status: 200,
      body: { ...hook, url: "https://example.com/v2", note_events: true, push_events: false },
    });

    const deleted = await api<HookBody>({
      method: "DELETE",
      path: `/projects/${id}/hooks/${hook.id}`,
      token: owner(),
    });
    expect(deleted).toMatchObject({ status: 200, body: edited.body });
    const again = await api({ method: "DELETE", path: `/projects/${id}/hooks/${hook.id}`, token: owner() });
    expect(again.status).toBe(200);
    expect(again.text).toBe("");
    expect(again.headers.get("content-type")).toBeNull();
    expect(await api({ path: `/projects/${id}/hooks/${hook.id}`, token: owner() })).toMatchObject({
      status: 404,
      body: { message: "404 Hook Not Found" },
    });
  });

  it("answers 400 for a missing or invalid URL and 404 for unknown hooks and projects", async () => {
    const id = cast.private.id;
    expect(await addHook(id, { push_events: true })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "url" not given' },
    });
    expect(await addHook(id, { url: "not a url" })).toMatchObject({
      status: 400,
      body: { message: { url: ["must be a valid URL"] } },
    });
    const { body: hook } = await addHook(id, { url: "https://example.com/" });
    const put = (json: Record<string, unknown>, hookId: number | string = hook.id) =>
      api({ method: "PUT", path: `/projects/${id}/hooks/${hookId}`, token: owner(), json });
    expect(await put({ issues_events: true })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "url" not given' },
    });
    expect(await put({ url: "gopher://example.com/" })).toMatchObject({
      status: 400,
      body: { message: { url: ["must be a valid URL"] } },
    });
    expect(await put({ url: "https://example.com/" }, 999_999)).toMatchObject({
      status: 404,
      body: { message: "404 Hook Not Found" },
    });
    expect((await put({ url: "https://example.com/" }, "abc")).status).toBe(404);
    expect(await addHook(999_999, { url: "https://example.com/" })).toMatchObject({
      status: 404,
      body: { message: "404 Project Not Found" },
    });
    expect((await api({ path: `/projects/${id}/hooks` })).status).toBe(401);
  });

  it("refuses local URLs (400 on url) until allow_local_requests_from_hooks is set", async () => {
    const id = cast.public.id;
    for (const url of [
      "http://localhost:3000/",
      "http://127.0.0.1/",
      "http://[::1]/",
      "http://169.254.169.254/",
      "http://0x7f000001/",
    ]) {
      const res = await addHook(id, { url });
      expect(res.status).toBe(400);
      expect((res.body.message as Record<string, string[]>)["url"]?.[0]).toMatch(/^is blocked: /);
    }
    await setLocalRequests(true);
    try {
      expect((await addHook(id, { url: "http://127.0.0.1:9/hook" })).status).toBe(201);
    } finally {
      await setLocalRequests(false);
    }
    expect((await addHook(id, { url: "http://127.0.0.1:9/hook" })).status).toBe(400);
  });

  describe.each([
    ["private", () => cast.private.id, 404],
    ["public", () => cast.public.id, 403],
  ])("on a %s project", (_visibility, projectId, outsiderStatus) => {
    it.each(ROLES)("answers %s with the status of their role on every hook endpoint", async (role: Role) => {
      const id = projectId();
      const { body: hook } = await addHook(id, { url: "https://example.com/roles" });
      const token = cast.people[role].token;
      const allowed = role === "owner" || role === "master" || role === "admin";
      const refused = role === "outsider" ? outsiderStatus : 403;
      const statuses = {
        list: (await api({ path: `/projects/${id}/hooks`, token })).status,
        get: (await api({ path: `/projects/${id}/hooks/${hook.id}`, token })).status,
        add: (await addHook(id, { url: "https://example.com/x" }, token)).status,
        edit: (
          await api({
            method: "PUT",
            path: `/projects/${id}/hooks/${hook.id}`,
            token,
            json: { url: "https://example.com/y" },
          })
        ).status,
        remove: (await api({ method: "DELETE", path: `/projects/${id}/hooks/${hook.id}`, token })).status,
      };
      expect(statuses).toEqual(
        allowed
          ? { list: 200, get: 200, add: 201, edit: 200, remove: 200 }
          : { list: refused, get: refused, add: refused, edit: refused, remove: refused },
      );
    });
  });
});
