import { createKilnClient, type KilnClient } from "@kiln/client";
import type { LiveEventJson, MergeRequestJson, ProjectJson } from "@kiln/schemas";
import { createUser, repositoryPath, seedRepository, type TestUser } from "@kiln/testkit";
import { beforeAll, expect, it } from "vitest";
import { commitTo, eventually, openMergeRequest } from "./merge-requests-support.js";
import { onEachDatabase } from "./support.js";

/** What a subscription received, in order, and how to end it. */
interface Received {
  events: { id: string; event: LiveEventJson }[];
  errors: unknown[];
  /** Settles once the stream is open: what is committed after that reaches it. */
  started: Promise<void>;
  stop(): void;
}

function subscribe(kiln: KilnClient, lastEventId?: string): Received {
  const events: Received["events"] = [];
  const errors: unknown[] = [];
  let opened = () => {};
  const started = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const subscription = kiln.live.events.subscribe(lastEventId ? { lastEventId } : undefined, {
    onStarted: () => opened(),
    onData: ({ id, data }) => events.push({ id, event: data }),
    onError: (error) => {
      errors.push(error);
      opened();
    },
  });
  return { events, errors, started, stop: () => subscription.unsubscribe() };
}

onEachDatabase("the live stream", (ctx) => {
  /** A user with a private project and a merge request of their own in it. */
  interface Owner {
    user: TestUser;
    project: ProjectJson;
    mergeRequest: MergeRequestJson;
    kiln: KilnClient;
  }
  let alice: Owner;
  let bob: Owner;

  async function owner(name: string): Promise<Owner> {
    const user = await createUser(ctx().server, ctx().root, name);
    const created = await ctx().api<ProjectJson>({
      method: "POST",
      path: "/projects",
      token: user.token,
      json: { name: `${name}-app`, visibility_level: 0 },
    });
    expect(created.status).toBe(201);
    const project = created.body;
    seedRepository(ctx().server, project.id, [{ message: "Initial\n", files: { "a.txt": "a\n" } }]);
    commitTo(repositoryPath(ctx().server, project.id), "topic", { "a.txt": "b\n" }, { from: "master" });
    const opened = await openMergeRequest(ctx(), project.id, user, {
      source_branch: "topic",
      target_branch: "master",
      title: `${name}'s change`,
    });
    expect(opened.status).toBe(200);
    const kiln = createKilnClient({ url: ctx().server.url, token: user.token });
    return { user, project, mergeRequest: opened.body, kiln };
  }

  async function retitle(who: Owner, title: string): Promise<void> {
    const res = await ctx().api({
      method: "PUT",
      path: `/projects/${who.project.id}/merge_requests/${who.mergeRequest.id}`,
      token: who.user.token,
      json: { title },
    });
    expect(res.status).toBe(200);
  }

  beforeAll(async () => {
    alice = await owner("live-alice");
    bob = await owner("live-bob");
  });

  it("tells each user of their own merge requests' changes, never of another's private project", async () => {
    const alices = subscribe(alice.kiln);
    const bobs = subscribe(bob.kiln);
    try {
      await Promise.all([alices.started, bobs.started]);
      await retitle(alice, "Alice 1");
      await eventually(async () => alices.events.length === 1);
      await retitle(bob, "Bob 1");
      await eventually(async () => bobs.events.length === 1);
      await retitle(alice, "Alice 2");
      await eventually(async () => alices.events.length === 2);
      // Alice's second change came before Bob's next one: Bob would have had it first.
      await retitle(bob, "Bob 2");
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

  it("resumes after the last event seen: nothing lost while away, nothing repeated", async () => {
    const first = subscribe(alice.kiln);
    await first.started;
    await retitle(alice, "Before the break");
    await eventually(async () => first.events.length === 1);
    first.stop();
    const lastSeen = first.events[0]!.id;
    await retitle(alice, "During the break");
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
