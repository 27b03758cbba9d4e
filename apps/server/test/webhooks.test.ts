import type { HookDeliveryJson, ProjectHookJson } from "@kiln/schemas";
import { createUser, type TestUser } from "@kiln/testkit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Life, seededProject, topicMergeRequest, until } from "./crash-support.js";
import { type Receiver, startReceiver, startTlsReceiver } from "./hook-receiver.js";
import { onEachDatabase } from "./support.js";

const EVERY_EVENT = {
  push_events: true,
  tag_push_events: true,
  issues_events: true,
  merge_requests_events: true,
  note_events: true,
};

onEachDatabase("webhooks delivered", (ctx) => {
  let receiver: Receiver;
  let life: Life;
  let developer: TestUser;
  let outsider: TestUser;
  beforeAll(async () => {
    const { server, root } = ctx();
    life = { server, root, api: (request) => ctx().api({ token: root.token, ...request }) };
    receiver = await startReceiver();
    await setLocalRequests(true);
    developer = await createUser(server, root, "hookdev");
    outsider = await createUser(server, root, "hookout");
  });
  afterAll(async () => {
    await receiver?.close();
  });

  async function setLocalRequests(allowed: boolean) {
    const res = await life.api({
      method: "PUT",
      path: "/application/settings",
      json: { allow_local_requests_from_hooks: allowed },
    });
    expect(res.status).toBe(200);
  }

  async function addHook(projectId: number, path: string, json: Record<string, unknown> = EVERY_EVENT) {
    const res = await life.api<ProjectHookJson>({
      method: "POST",
      path: `/projects/${projectId}/hooks`,
      json: { url: `${receiver.url}${path}`, ...json },
    });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  /** A seeded project (master holds README.md) with a hook at `path` for every event kind. */
  async function hookedProject(name: string, hook: Record<string, unknown> = EVERY_EVENT) {
    const { project } = await seededProject(life, name);
    const added = await addHook(project.id, `/${name}`, hook);
    return { project, hook: added, path: `/${name}` };
  }

  const deliveries = async (projectId: number, hookId: number, token = life.root.token) =>
    life.api<HookDeliveryJson[]>({ path: `/projects/${projectId}/hooks/${hookId}/deliveries`, token });

  it("delivers a push with GitLab 8.x's payload and headers, the secret token, Kiln's user agent and a delivery id", async () => {
    const { project, path } = await hookedProject("pushed", { push_events: true, token: "s3cret" });
    const committed = await life.api({
      method: "POST",
      path: `/projects/${project.id}/repository/files`,
      json: { file_path: "docs/a.md", branch_name: "master", content: "a\n", commit_message: "Add a" },
    });
    expect(committed.status).toBe(201);
    const [push] = await receiver.waitFor(path);
    expect(push?.headers).toMatchObject({
      "content-type": "application/json",
      "x-gitlab-event": "Push Hook",
      "x-gitlab-token": "s3cret",
      "user-agent": expect.stringMatching(/^Kiln\/\d+\.\d+\.\d+/),
      "x-kiln-delivery": expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const body = push?.body as Record<string, unknown>;
    const web = project.web_url;
    expect(Object.keys(body)).toEqual([
      "object_kind",
      "event_name",
      "before",
      "after",
      "ref",
      "checkout_sha",
      "message",
      "user_id",
      "user_name",
      "user_email",
      "user_avatar",
      "project_id",
      "project",
      "commits",
      "total_commits_count",
      "repository",
    ]);
    expect(body).toMatchObject({
      object_kind: "push",
      event_name: "push",
      ref: "refs/heads/master",
      checkout_sha: body["after"],
      message: null,
      user_id: life.root.id,
      user_name: "Administrator",
      project_id: project.id,
      project: {
        name: "pushed",
        path_with_namespace: "root/pushed",
        web_url: web,
        git_http_url: `${web}.git`,
        namespace: project.namespace.name,
        default_branch: "master",
        homepage: web,
      },
      total_commits_count: 1,
      repository: { name: "pushed", homepage: web, visibility_level: 0 },
    });
    expect(body["commits"]).toEqual([
      {
        id: body["after"],
        message: "Add a",
        timestamp: expect.any(String),
        url: `${web}/commit/${body["after"]}`,
        author: { name: "Administrator", email: expect.any(String) },
        added: ["docs/a.md"],
        modified: [],
        removed: [],
      },
    ]);
  });

  it("delivers a tag push with the tag's message and commit", async () => {
    const { project, path } = await hookedProject("tagged", { push_events: false, tag_push_events: true });
    const tagged = await life.api({
      method: "POST",
      path: `/projects/${project.id}/repository/tags`,
      json: { tag_name: "v1.0", ref: "master", message: "First release" },
    });
    expect(tagged.status, tagged.text).toBe(201);
    const [push] = await receiver.waitFor(path);
    expect(push?.headers["x-gitlab-event"]).toBe("Tag Push Hook");
    expect(push?.body).toMatchObject({
      object_kind: "tag_push",
      ref: "refs/tags/v1.0",
      checkout_sha: (tagged.body as { commit: { id: string } }).commit.id,
      message: "First release",
    });
    expect(push?.body["after"]).not.toBe(push?.body["checkout_sha"]); // the tag object
  });

  it("delivers issue events (open, update, close, reopen) to hooks subscribed to them only", async () => {
    const { project, path } = await hookedProject("tracked");
    const pushOnly = await addHook(project.id, "/tracked-push-only", { push_events: true });
    const opened = await life.api<{ id: number; iid: number }>({
      method: "POST",
      path: `/projects/${project.id}/issues`,
      json: { title: "Broken", assignee_id: life.root.id },
    });
    expect(opened.status).toBe(200);
    const issuePath = `/projects/${project.id}/issues/${opened.body.id}`;
    await life.api({ method: "PUT", path: issuePath, json: { description: "more" } });
    await life.api({ method: "PUT", path: issuePath, json: { state_event: "close" } });
    await life.api({ method: "PUT", path: issuePath, json: { state_event: "reopen" } });
    const received = await receiver.waitFor(path, 4);
    expect(received.map((r) => r.headers["x-gitlab-event"])).toEqual(Array(4).fill("Issue Hook"));
    expect(received.map((r) => (r.body["object_attributes"] as { action: string }).action)).toEqual([
      "open",
      "update",
      "close",
      "reopen",
    ]);
    const [first] = received;
    expect(Object.keys(first?.body ?? {})).toEqual([
      "object_kind",
      "user",
      "project",
      "object_attributes",
      "repository",
      "assignee",
    ]);
    expect(first?.body).toMatchObject({
      object_kind: "issue",
      user: { name: "Administrator", username: "root", avatar_url: null },
      assignee: { username: "root" },
      object_attributes: {
        id: opened.body.id,
        iid: opened.body.iid,
        title: "Broken",
        project_id: project.id,
        state: "opened",
        confidential: false,
        url: `${project.web_url}/issues/${opened.body.iid}`,
      },
      repository: { name: "tracked" },
    });
    // The log of the push-only hook is empty: it was never sent an issue.
    expect((await deliveries(project.id, pushOnly.id)).body).toEqual([]);
  });

  it("delivers merge request and note events", async () => {
    const { project, path } = await hookedProject("reviewed");
    const mr = await topicMergeRequest(life, project.id, "topic");
    const ofKind = (event: string) => receiver.at(path).find((r) => r.headers["x-gitlab-event"] === event);
    await until(() => ofKind("Merge Request Hook") !== undefined);
    const mrHook = ofKind("Merge Request Hook");
    expect(mrHook?.body).toMatchObject({
      object_kind: "merge_request",
      user: { username: "root" },
      object_attributes: {
        id: mr.id,
        iid: mr.iid,
        source_branch: "topic",
        target_branch: "master",
        action: "open",
        work_in_progress: false,
        url: `${project.web_url}/merge_requests/${mr.iid}`,
        source: { path_with_namespace: "root/reviewed" },
        target: { path_with_namespace: "root/reviewed" },
        last_commit: { message: "topic", url: expect.stringContaining("/root/reviewed/commit/") },
      },
    });

    const noted = await life.api({
      method: "POST",
      path: `/projects/${project.id}/merge_requests/${mr.id}/notes`,
      json: { body: "Looks good" },
    });
    expect(noted.status).toBe(201);
    await until(() => ofKind("Note Hook") !== undefined);
    const note = ofKind("Note Hook");
    expect(note?.body).toMatchObject({
      object_kind: "note",
      project_id: project.id,
      object_attributes: {
        note: "Looks good",
        noteable_type: "MergeRequest",
        url: expect.stringMatching(new RegExp(`/root/reviewed/merge_requests/${mr.iid}#note_\\d+$`)),
      },
      merge_request: { id: mr.id, source_branch: "topic" },
    });
  });

  it("retries a 5xx with the same delivery id, and gives up at once on a 4xx; the log shows both", async () => {
    const { project, hook, path } = await hookedProject("flaky", { push_events: false, issues_events: true });
    receiver.answer(path, [503, 200]);
    await life.api({ method: "POST", path: `/projects/${project.id}/issues`, json: { title: "one" } });
    const [failed, retried] = await receiver.waitFor(path, 2);
    expect(retried?.headers["x-kiln-delivery"]).toBe(failed?.headers["x-kiln-delivery"]);
    await until(async () => (await deliveries(project.id, hook.id)).body[0]?.state === "delivered");
    const [logged] = (await deliveries(project.id, hook.id)).body;
    expect(logged).toMatchObject({
      delivery_id: failed?.headers["x-kiln-delivery"],
      event: "Issue Hook",
      state: "delivered",
      attempts: 2,
      url: `${receiver.url}${path}`,
      response_status: 200,
      response_body: "answered 200",
      response_headers: { "x-receiver": "yes" },
      request_headers: { "X-Gitlab-Event": "Issue Hook", "Content-Type": "application/json" },
      next_retry_at: null,
    });
    expect(JSON.parse(logged?.request_body ?? "{}")).toMatchObject({ object_kind: "issue" });

    receiver.answer(path, [404]);
    await life.api({ method: "POST", path: `/projects/${project.id}/issues`, json: { title: "two" } });
    await until(async () => (await deliveries(project.id, hook.id)).body[0]?.state === "failed");
    expect((await deliveries(project.id, hook.id)).body[0]).toMatchObject({
      attempts: 1,
      response_status: 404,
    });
    expect(receiver.at(path)).toHaveLength(3);
  });

  it("sends to other hooks while one receiver hangs", async () => {
    const { project, path } = await hookedProject("hung", { push_events: false, issues_events: true });
    receiver.answer(path, "hang");
    const other = await addHook(project.id, "/hung-other", { push_events: false, issues_events: true });
    await life.api({ method: "POST", path: `/projects/${project.id}/issues`, json: { title: "a" } });
    await receiver.waitFor(path);
    await life.api({ method: "POST", path: `/projects/${project.id}/issues`, json: { title: "b" } });
    await receiver.waitFor("/hung-other", 2);
    // The hanging hook is still on its first request.
    expect(receiver.at(path)).toHaveLength(1);
    expect(receiver.at(path)[0]?.answered).toBe(false);
    expect(other.id).toBeGreaterThan(0);
  });

  it("refuses internal addresses at delivery time, in every spelling, and logs why", async () => {
    const { project } = await seededProject(life, "guarded");
    const port = receiver.port;
    const spellings = [
      `http://127.0.0.1:${port}/g1`,
      `http://localhost:${port}/g2`,
      `http://2130706433:${port}/g3`,
      `http://0177.0.0.1:${port}/g4`,
      `http://0x7f.0.0.1:${port}/g5`,
      `http://[::ffff:127.0.0.1]:${port}/g6`,
      `http://[::1]:${port}/g7`,
    ];
    const hooks: ProjectHookJson[] = [];
    for (const url of spellings) {
      const res = await life.api<ProjectHookJson>({
        method: "POST",
        path: `/projects/${project.id}/hooks`,
        json: { url, push_events: false, issues_events: true },
      });
      expect(res.status).toBe(201);
      hooks.push(res.body);
    }
    await setLocalRequests(false);
    try {
      await life.api({ method: "POST", path: `/projects/${project.id}/issues`, json: { title: "ssrf" } });
      for (const hook of hooks) {
        await until(async () => (await deliveries(project.id, hook.id)).body[0]?.state === "failed");
        const [logged] = (await deliveries(project.id, hook.id)).body;
        expect(logged?.error, hook.url).toMatch(/^refused: .*local address/);
        expect(logged?.response_status).toBeNull();
      }
      expect(receiver.received.filter((r) => /^\/g\d$/.test(r.path))).toEqual([]);
    } finally {
      await setLocalRequests(true);
    }
  });

  it("verifies TLS certificates unless the hook says not to", async () => {
    const tls = await startTlsReceiver();
    try {
      const { project } = await seededProject(life, "tls");
      const add = (path: string, enable_ssl_verification: boolean) =>
        life.api<ProjectHookJson>({
          method: "POST",
          path: `/projects/${project.id}/hooks`,
          json: {
            url: `${tls.url}${path}`,
            push_events: false,
            issues_events: true,
            enable_ssl_verification,
          },
        });
      const verified = (await add("/verified", true)).body;
      await add("/trusting", false);
      await life.api({ method: "POST", path: `/projects/${project.id}/issues`, json: { title: "tls" } });
      await tls.waitFor("/trusting");
      await until(async () => ((await deliveries(project.id, verified.id)).body[0]?.attempts ?? 0) >= 1);
      const [logged] = (await deliveries(project.id, verified.id)).body;
      expect(logged).toMatchObject({ state: "pending", response_status: null });
      expect(logged?.error).toMatch(/SELF_SIGNED|self.signed/i);
      expect(tls.at("/verified")).toEqual([]);
    } finally {
      await tls.close();
    }
  });

  it("sends a test push of the default branch's last commit, and shows the log to masters only", async () => {
    const { project, hook, path } = await hookedProject("tested", { push_events: false });
    const tested = await life.api<HookDeliveryJson>({
      method: "POST",
      path: `/projects/${project.id}/hooks/${hook.id}/test`,
    });
    expect(tested.status, tested.text).toBe(201);
    expect(tested.body).toMatchObject({ event: "Push Hook", state: "pending", attempts: 0 });
    const [push] = await receiver.waitFor(path);
    expect(push?.headers["x-kiln-delivery"]).toBe(tested.body.delivery_id);
    expect(push?.body).toMatchObject({
      object_kind: "push",
      ref: "refs/heads/master",
      total_commits_count: 1,
    });
    const commits = push?.body["commits"] as { message: string }[] | undefined;
    expect(commits?.[0]?.message).toBe("Initial\n");

    await until(async () => (await deliveries(project.id, hook.id)).body[0]?.state === "delivered");
    const listed = await deliveries(project.id, hook.id);
    expect(listed.headers.get("x-total")).toBe("1");

    const member = await life.api({
      method: "POST",
      path: `/projects/${project.id}/members`,
      json: { user_id: developer.id, access_level: 30 },
    });
    expect(member.status).toBe(201);
    expect((await deliveries(project.id, hook.id, developer.token)).status).toBe(403);
    expect((await deliveries(project.id, hook.id, outsider.token)).status).toBe(404);
    expect((await deliveries(project.id, hook.id + 1000)).status).toBe(404);
    const testedByDeveloper = await life.api({
      method: "POST",
      path: `/projects/${project.id}/hooks/${hook.id}/test`,
      token: developer.token,
    });
    expect(testedByDeveloper.status).toBe(403);
  });
});
