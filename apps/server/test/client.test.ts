import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer as createTlsServer } from "node:tls";
import { attempt, createKilnClient, type Fetch, items, type KilnClient, pages } from "@kiln/client";
import type { IssueJson, ProjectJson } from "@kiln/schemas";
import { createUser, type TestUser } from "@kiln/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitTo, type MergeFixture, mergeFixture, openMergeRequest } from "./merge-requests-support.js";
import { onEachDatabase } from "./support.js";

onEachDatabase("@kiln/client against the server", (ctx) => {
  let alice: TestUser;
  let bob: TestUser;
  let bobsProject: ProjectJson;
  const clientOf = (user: TestUser, fetch?: Fetch): KilnClient =>
    createKilnClient({ url: ctx().server.url, token: user.token, ...(fetch ? { fetch } : {}) });

  beforeAll(async () => {
    alice = await createUser(ctx().server, ctx().root, "kc-alice");
    bob = await createUser(ctx().server, ctx().root, "kc-bob");
    const created = await ctx().api<ProjectJson>({
      method: "POST",
      path: "/projects",
      token: bob.token,
      json: { name: "kc-work", visibility_level: 0 },
    });
    expect(created.status).toBe(201);
    bobsProject = created.body;
    const added = await ctx().api({
      method: "POST",
      path: `/projects/${bobsProject.id}/members`,
      token: bob.token,
      json: { user_id: alice.id, access_level: 30 },
    });
    expect(added.status).toBe(201);
    for (let n = 1; n <= 5; n += 1) {
      const issue = await ctx().api<IssueJson>({
        method: "POST",
        path: `/projects/${bobsProject.id}/issues`,
        token: bob.token,
        json: { title: `Task ${n}`, assignee_id: alice.id },
      });
      expect(issue.status).toBe(200);
    }
  });

  it("calls typed procedures with the token as a bearer", async () => {
    const me = await clientOf(alice).users.me.query();
    expect(me).toMatchObject({ username: "kc-alice", id: alice.id });
  });

  it("walks a list page after page, and item after item", async () => {
    const kiln = clientOf(alice);
    const seen = [];
    for await (const page of pages(kiln.todos.list, { per_page: 2 })) seen.push(page.items.length);
    expect(seen).toEqual([2, 2, 1]);
    const titles = [];
    for await (const todo of items(kiln.todos.list, { per_page: 2 })) titles.push(todo.body);
    expect(titles).toEqual(["Task 5", "Task 4", "Task 3", "Task 2", "Task 1"]);
  });

  it("sends calls made together in one request", async () => {
    let requests = 0;
    const counting: Fetch = (input, init) => {
      requests += 1;
      return fetch(input, init);
    };
    const kiln = clientOf(alice, counting);
    const [me, projects, todos] = await Promise.all([
      kiln.users.me.query(),
      kiln.projects.list.query({}),
      kiln.todos.list.query({}),
    ]);
    expect(requests).toBe(1);
    expect(me.id).toBe(alice.id);
    expect(projects.items.map((project) => project.id)).toEqual([bobsProject.id]);
    expect(todos.total).toBe(5);
  });

  it("answers failures as typed values: the domain failure's kind and facts", async () => {
    const outsider = await createUser(ctx().server, ctx().root, "kc-stranger");
    const hidden = await attempt(() => clientOf(outsider).projects.get.query({ id: bobsProject.id }));
    expect(hidden).toMatchObject({
      ok: false,
      error: { code: "NOT_FOUND", httpStatus: 404, failure: { kind: "not_found", subject: "project" } },
    });
    const stranger = createKilnClient({ url: ctx().server.url, token: "not-a-token" });
    const refused = await attempt(() => stranger.users.me.query());
    expect(refused).toMatchObject({ ok: false, error: { failure: { kind: "unauthenticated" } } });
    const unreachable = createKilnClient({ url: "http://127.0.0.1:9", token: alice.token });
    const down = await attempt(() => unreachable.users.me.query());
    expect(down).toMatchObject({ ok: false, error: { failure: null, code: "CLIENT_ERROR", httpStatus: 0 } });
  });

  it("marks todos done, one and then all", async () => {
    const kiln = clientOf(alice);
    const [first] = (await kiln.todos.list.query({})).items;
    const done = await kiln.todos.markDone.mutate({ id: first!.id });
    expect(done).toMatchObject({ id: first!.id, state: "done" });
    expect(await kiln.todos.markAllDone.mutate()).toBe(4);
    expect((await kiln.todos.list.query({})).total).toBe(0);
  });

  describe("merge requests", () => {
    let fixture: MergeFixture;
    beforeAll(async () => {
      fixture = await mergeFixture(ctx(), "kc");
    });

    it("lists a developer's merge requests, reads merge_status, and accepts only at the head seen", async () => {
      const developer = fixture.cast.people.developer;
      const source = commitTo(fixture.repo, "kc-feature", { "app.txt": "one\n" }, { from: "master" });
      const opened = await openMergeRequest(ctx(), fixture.project.id, developer, {
        source_branch: "kc-feature",
        target_branch: "master",
        title: "Shorten",
      });
      expect(opened.status).toBe(200);
      const kiln = clientOf(developer);
      const mine = await kiln.mergeRequests.mine.query({ state: "opened" });
      expect(mine.items.map((mr) => mr.id)).toEqual([opened.body.id]);
      const ref = { id: fixture.project.id, merge_request_id: opened.body.id };
      const read = await kiln.mergeRequests.get.query(ref);
      expect(read).toMatchObject({ merge_status: "can_be_merged", sha: source });

      const stale = await attempt(() => kiln.mergeRequests.accept.mutate({ ...ref, sha: "0".repeat(40) }));
      expect(stale).toMatchObject({ ok: false, error: { failure: { kind: "conflict" } } });
      const merged = await kiln.mergeRequests.accept.mutate({ ...ref, sha: source });
      expect(merged).toMatchObject({ state: "merged", merge_status: "can_be_merged" });
      expect((await kiln.mergeRequests.mine.query({ state: "opened" })).items).toEqual([]);
    });
  });

  describe("over TLS with a self-signed certificate", () => {
    let dir: string;
    let proxy: Server;
    let url: string;
    let cert: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "kiln-tls-"));
      execFileSync("openssl", [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ]);
      cert = readFileSync(join(dir, "cert.pem"), "utf8");
      const target = new URL(ctx().server.url);
      // A TLS front for the server, as a reverse proxy with the instance's own certificate is.
      proxy = createTlsServer({ key: readFileSync(join(dir, "key.pem")), cert }, (socket) => {
        const upstream = connect(Number(target.port), target.hostname);
        socket.pipe(upstream).pipe(socket);
        socket.on("error", () => upstream.destroy());
        upstream.on("error", () => socket.destroy());
      });
      await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
      const address = proxy.address() as { port: number };
      url = `https://127.0.0.1:${address.port}`;
    });
    afterAll(async () => {
      await new Promise((resolve) => proxy.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    });

    it("trusts the certificate given as `ca`, and only for that client", async () => {
      const trusting = createKilnClient({ url, token: alice.token, ca: cert });
      expect((await trusting.users.me.query()).id).toBe(alice.id);
      const untrusting = createKilnClient({ url, token: alice.token });
      const refused = await attempt(() => untrusting.users.me.query());
      expect(refused).toMatchObject({ ok: false, error: { failure: null, httpStatus: 0 } });
    });
  });
});
