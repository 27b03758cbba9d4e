import { createKilnClient, type KilnClient } from "@kiln/client";
import type {
  LiveEventJson,
  LiveEventsInput,
  MergeRequestJson,
  PipelineJson,
  ProjectJson,
  TodoJson,
} from "@kiln/schemas";
import {
  call,
  createUser,
  type KilnProcess,
  postgresUnavailable,
  repositoryPath,
  seedRepository,
  signInAsRoot,
  type TestUser,
} from "@kiln/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitTo, eventually, openMergeRequest } from "./merge-requests-support.js";
import { onEachDatabase, type Served, start } from "./support.js";

type MergeRequestEvent = Extract<LiveEventJson, { kind: "merge_request" }>;
type TodoEvent = Extract<LiveEventJson, { kind: "todo" }>;
type CiEvent = Exclude<LiveEventJson, MergeRequestEvent | TodoEvent>;

/** What a subscription received, in order, and how to end it. */
interface Received {
  /** The merge request events. */
  events: { id: string; event: MergeRequestEvent }[];
  /** The pipeline and build events. */
  ci: CiEvent[];
  /** The todo events. */
  todos: TodoEvent[];
  errors: unknown[];
  /** Settles once the stream is open: what is committed after that reaches it. */
  started: Promise<void>;
  stop(): void;
}

function subscribe(kiln: KilnClient, lastEventId?: string, projects?: number[]): Received {
  const events: Received["events"] = [];
  const ci: CiEvent[] = [];
  const todos: TodoEvent[] = [];
  const errors: unknown[] = [];
  let opened = () => {};
  const started = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const input: LiveEventsInput = {
    ...(lastEventId ? { lastEventId } : {}),
    ...(projects ? { projects } : {}),
  };
  const subscription = kiln.live.events.subscribe(input, {
    onStarted: () => opened(),
    onData: ({ id, data }) => {
      if (data.kind === "merge_request") events.push({ id, event: data });
      else if (data.kind === "todo") todos.push(data);
      else ci.push(data);
    },
    onError: (error) => {
      errors.push(error);
      opened();
    },
  });
  return { events, ci, todos, errors, started, stop: () => subscription.unsubscribe() };
}

/** A user with a private project and a merge request of their own in it. */
interface Owner {
  user: TestUser;
  project: ProjectJson;
  mergeRequest: MergeRequestJson;
  kiln: KilnClient;
}

async function owner(served: Served, name: string): Promise<Owner> {
  const user = await createUser(served.server, served.root, name);
  const created = await served.api<ProjectJson>({
    method: "POST",
    path: "/projects",
    token: user.token,
    json: { name: `${name}-app`, visibility_level: 0 },
  });
  expect(created.status).toBe(201);
  const project = created.body;
  seedRepository(served.server, project.id, [{ message: "Initial\n", files: { "a.txt": "a\n" } }]);
  commitTo(repositoryPath(served.server, project.id), "topic", { "a.txt": "b\n" }, { from: "master" });
  const opened = await openMergeRequest(served, project.id, user, {
    source_branch: "topic",
    target_branch: "master",
    title: `${name}'s change`,
  });
  expect(opened.status).toBe(200);
  const kiln = createKilnClient({ url: served.server.url, token: user.token });
  return { user, project, mergeRequest: opened.body, kiln };
}

async function retitle(served: Served, who: Owner, title: string): Promise<void> {
  const res = await served.api({
    method: "PUT",
    path: `/projects/${who.project.id}/merge_requests/${who.mergeRequest.id}`,
    token: who.user.token,
    json: { title },
  });
  expect(res.status).toBe(200);
}

/** Two stages, so a pipeline has a build waiting and one created (no runner takes them here). */
const CI_YAML = "compile:\n  stage: build\n  script: [make]\ncheck:\n  stage: test\n  script: [make test]\n";

/** Commits `.gitlab-ci.yml` to the owner's branch "ci" and makes a pipeline of it through v3. */
async function runPipeline(served: Served, who: Owner): Promise<PipelineJson> {
  commitTo(
    repositoryPath(served.server, who.project.id),
    "ci",
    { ".gitlab-ci.yml": CI_YAML },
    { from: "master" },
  );
  const created = await served.api<PipelineJson>({
    method: "POST",
    path: `/projects/${who.project.id}/pipeline`,
    token: who.user.token,
    json: { ref: "ci" },
  });
  expect(created.status).toBe(201);
  return created.body;
}

onEachDatabase("the live stream", (ctx) => {
  let alice: Owner;
  let bob: Owner;
  beforeAll(async () => {
    alice = await owner(ctx(), "live-alice");
    bob = await owner(ctx(), "live-bob");
  });

  it("tells each user of their own merge requests' changes, never of another's private project", async () => {
    const alices = subscribe(alice.kiln);
    const bobs = subscribe(bob.kiln);
    try {
      await Promise.all([alices.started, bobs.started]);
      await retitle(ctx(), alice, "Alice 1");
      await eventually(async () => alices.events.length === 1);
      await retitle(ctx(), bob, "Bob 1");
      await eventually(async () => bobs.events.length === 1);
      await retitle(ctx(), alice, "Alice 2");
      await eventually(async () => alices.events.length === 2);
      // Alice's second change came before Bob's next one: Bob would have had it first.
      await retitle(ctx(), bob, "Bob 2");
      await eventually(async () => bobs.events.length === 2);
      expect(alices.events.map(({ event }) => [event.action, event.merge_request.title])).toEqual([
        ["update", "Alice 1"],
        ["update", "Alice 2"],
      ]);
      expect(bobs.events.map(({ event }) => event.merge_request.title)).toEqual(["Bob 1", "Bob 2"]);
      const v3 = await ctx().api({
        path: `/projects/${alice.project.id}/merge_requests/${alice.mergeRequest.id}`,
        token: alice.user.token,
      });
      expect(alices.events[1]?.event.merge_request).toEqual(v3.body);
      expect([...alices.errors, ...bobs.errors]).toEqual([]);
    } finally {
      alices.stop();
      bobs.stop();
    }
  });

  it("tells a user of their merge request's new head and its pipeline, unfollowed, and nobody else", async () => {
    const alices = subscribe(alice.kiln);
    const bobs = subscribe(bob.kiln, undefined, [bob.project.id]);
    try {
      await Promise.all([alices.started, bobs.started]);
      // A commit to the merge request's source branch: a push, and a pipeline for it.
      const committed = await ctx().api({
        method: "POST",
        path: `/projects/${alice.project.id}/repository/files`,
        token: alice.user.token,
        json: { file_path: ".gitlab-ci.yml", branch_name: "topic", content: CI_YAML, commit_message: "CI" },
      });
      expect(committed.status).toBe(201);
      await eventually(async () =>
        alices.ci.some((event) => event.kind === "pipeline" && event.pipeline.ref === "topic"),
      );
      expect(alices.events.map(({ event }) => [event.action, event.merge_request.id])).toContainEqual([
        "update",
        alice.mergeRequest.id,
      ]);
      // Bob hears of his own change after Alice's: his stream went past hers without a word of it.
      await retitle(ctx(), bob, "Bob after Alice's push");
      await eventually(async () => bobs.events.length === 1);
      expect(bobs.events[0]?.event.merge_request.id).toBe(bob.mergeRequest.id);
      expect(bobs.ci).toEqual([]);
      // Builds are told of only to streams that follow the project.
      expect(alices.ci.every((event) => event.kind === "pipeline")).toBe(true);
      expect([...alices.errors, ...bobs.errors]).toEqual([]);
    } finally {
      alices.stop();
      bobs.stop();
    }
  });

  it("resumes after the last event seen: nothing lost while away, nothing repeated", async () => {
    const first = subscribe(alice.kiln);
    await first.started;
    await retitle(ctx(), alice, "Before the break");
    await eventually(async () => first.events.length === 1);
    first.stop();
    const lastSeen = first.events[0]!.id;
    await retitle(ctx(), alice, "During the break");
    const closed = await ctx().api({
      method: "PUT",
      path: `/projects/${alice.project.id}/merge_requests/${alice.mergeRequest.id}`,
      token: alice.user.token,
      json: { state_event: "close" },
    });
    expect(closed.status).toBe(200);
    const resumed = subscribe(alice.kiln, lastSeen);
    try {
      await eventually(async () => resumed.events.length === 2);
      expect(resumed.events.map(({ event }) => [event.action, event.merge_request.title])).toEqual([
        ["update", "During the break"],
        ["close", "During the break"],
      ]);
      expect(Number(resumed.events[0]!.id)).toBeGreaterThan(Number(lastSeen));
    } finally {
      resumed.stop();
    }
  });

  it("carries the pipelines and builds of the projects a user follows, never of one a GET would refuse them", async () => {
    // A guest of Alice's private project (who may read it, but not its pipelines or builds) and a
    // reporter of Bob's (who may read its builds).
    const member = await createUser(ctx().server, ctx().root, "live-member");
    for (const [who, access_level] of [
      [alice, 10],
      [bob, 20],
    ] as const) {
      const added = await ctx().api({
        method: "POST",
        path: `/projects/${who.project.id}/members`,
        token: who.user.token,
        json: { user_id: member.id, access_level },
      });
      expect(added.status).toBe(201);
    }
    const both = [alice.project.id, bob.project.id];
    const alices = subscribe(alice.kiln, undefined, [alice.project.id]);
    const unfollowed = subscribe(alice.kiln);
    const bobs = subscribe(bob.kiln, undefined, both);
    const members = subscribe(
      createKilnClient({ url: ctx().server.url, token: member.token }),
      undefined,
      both,
    );
    const all = [alices, unfollowed, bobs, members];
    try {
      await Promise.all(all.map((received) => received.started));
      const pipeline = await runPipeline(ctx(), alice);
      await eventually(async () =>
        alices.ci.some((event) => event.kind === "build" && event.build.status === "pending"),
      );
      const canceled = await ctx().api<PipelineJson>({
        method: "POST",
        path: `/projects/${alice.project.id}/pipelines/${pipeline.id}/cancel`,
        token: alice.user.token,
      });
      expect(canceled.status).toBe(200);
      await eventually(async () =>
        alices.ci.some((event) => event.kind === "pipeline" && event.pipeline.status === "canceled"),
      );
      // Bob's pipeline comes after Alice's: every stream has been past hers once his reached Bob.
      const bobsPipeline = await runPipeline(ctx(), bob);
      const heard = (received: Received) => async () =>
        received.ci.some((event) => event.kind === "pipeline" && event.pipeline.id === bobsPipeline.id);
      await eventually(heard(bobs));
      await eventually(heard(members));
      await retitle(ctx(), alice, "After the pipelines");
      await eventually(async () => unfollowed.events.length === 1);

      expect(alices.ci.every((event) => event.project_id === alice.project.id)).toBe(true);
      const last = alices.ci.filter((event) => event.kind === "pipeline").at(-1);
      const shown = await ctx().api({
        path: `/projects/${alice.project.id}/pipelines/${pipeline.id}`,
        token: alice.user.token,
      });
      expect(last?.kind === "pipeline" && last.pipeline).toEqual(shown.body);
      const builds = alices.ci.flatMap((event) => (event.kind === "build" ? [event.build] : []));
      expect(new Set(builds.map((build) => build.name))).toEqual(new Set(["compile", "check"]));
      expect(builds.filter((build) => build.status === "canceled").length).toBe(2);
      // Bob follows Alice's project too, but may not read it: he hears of his own pipeline only.
      expect(bobs.ci.length).toBeGreaterThan(0);
      expect(bobs.ci.every((event) => event.project_id === bob.project.id)).toBe(true);
      // The member hears of Bob's (a reporter there), never of Alice's (a guest there); the
      // stream that follows no project carries no pipeline.
      expect(members.ci.every((event) => event.project_id === bob.project.id)).toBe(true);
      expect(unfollowed.ci).toEqual([]);
      expect(all.flatMap((received) => received.errors)).toEqual([]);
    } finally {
      for (const received of all) received.stop();
    }
  });

  it("carries a user's todos as they are made and marked done, to their owner alone", async () => {
    const carol = await createUser(ctx().server, ctx().root, "live-todo-carol");
    const added = await ctx().api({
      method: "POST",
      path: `/projects/${alice.project.id}/members`,
      token: alice.user.token,
      json: { user_id: carol.id, access_level: 30 },
    });
    expect(added.status).toBe(201);
    const alices = subscribe(alice.kiln);
    const bobs = subscribe(bob.kiln);
    const all = [alices, bobs];
    try {
      await Promise.all(all.map((received) => received.started));
      const issue = await ctx().api<{ id: number }>({
        method: "POST",
        path: `/projects/${alice.project.id}/issues`,
        token: carol.token,
        json: { title: "Carol needs Alice", assignee_id: alice.user.id },
      });
      expect(issue.status).toBe(200);
      await eventually(async () => alices.todos.length === 1);
      const made = alices.todos[0]!;
      expect([made.action, made.todo.action_name, made.todo.target.title]).toEqual([
        "created",
        "assigned",
        "Carol needs Alice",
      ]);
      const listed = await ctx().api<TodoJson[]>({ path: "/todos", token: alice.user.token });
      expect(made.todo).toEqual(listed.body.find((todo) => todo.id === made.todo.id));
      const done = await ctx().api({
        method: "DELETE",
        path: `/todos/${made.todo.id}`,
        token: alice.user.token,
      });
      expect(done.status).toBe(200);
      await eventually(async () => alices.todos.length === 2);
      expect([alices.todos[1]!.action, alices.todos[1]!.todo.id, alices.todos[1]!.todo.state]).toEqual([
        "done",
        made.todo.id,
        "done",
      ]);
      // Bob's stream is past both once a change of his own reaches it: it told him of neither.
      await retitle(ctx(), bob, "Bob after the todos");
      await eventually(async () =>
        bobs.events.some(({ event }) => event.merge_request.title === "Bob after the todos"),
      );
      expect(bobs.todos).toEqual([]);
      expect(all.flatMap((received) => received.errors)).toEqual([]);
    } finally {
      for (const received of all) received.stop();
    }
  });

  it("refuses a stream to credentials that name nobody", async () => {
    const stranger = createKilnClient({ url: ctx().server.url, token: "not-a-token" });
    const refused = subscribe(stranger);
    try {
      await eventually(async () => refused.errors.length > 0);
      expect(refused.events).toEqual([]);
    } finally {
      refused.stop();
    }
  });
});

describe.skipIf(postgresUnavailable() !== null)("the live stream across two processes (postgres)", () => {
  let first: KilnProcess;
  let second: KilnProcess;
  const served = (server: KilnProcess, root: TestUser): Served => ({
    server,
    root,
    api: (request) => call(server.url, request),
  });
  let one: Served;
  beforeAll(async () => {
    first = await start({ database: "postgres" });
    // A second server on the same database and data, as a deployment behind a load balancer runs.
    second = await start({ restartOf: first });
    one = served(first, await signInAsRoot(first));
  });
  afterAll(async () => {
    await second?.stop({ remove: false });
    await first?.stop();
  });

  it("carries a change made through one process to a stream served by the other, and only to its owner", async () => {
    const carol = await owner(one, "live-carol");
    const dave = await owner(one, "live-dave");
    const onTwo = (who: Owner) => createKilnClient({ url: second.url, token: who.user.token });
    const carols = subscribe(onTwo(carol));
    const daves = subscribe(onTwo(dave));
    try {
      await Promise.all([carols.started, daves.started]);
      await retitle(one, carol, "Carol via one");
      await eventually(async () => carols.events.length === 1);
      await retitle(one, dave, "Dave via one");
      await eventually(async () => daves.events.length === 1);
      expect(carols.events.map(({ event }) => event.merge_request.title)).toEqual(["Carol via one"]);
      expect(daves.events.map(({ event }) => event.merge_request.title)).toEqual(["Dave via one"]);
    } finally {
      carols.stop();
      daves.stop();
    }
  });
});
