import { randomBytes } from "node:crypto";
import type { User } from "@kiln/domain";
import { listenForOutbox, migrateToLatest, openDatabase, Stores } from "@kiln/storage-kysely";
import { createThrowawayPostgres, TEST_PG_URL_ENV } from "@kiln/storage-kysely/testing";
import { afterEach, describe, expect, it } from "vitest";
import { forEachDialect } from "../__tests__/harness.js";
import { actorOf } from "../auth/credentials.js";
import type { DomainEvent } from "../domain-events.js";
import { createCaller } from "../router.js";
import { ServiceRuntime } from "../runtime.js";
import { type DispatcherOptions, OutboxDispatcher, type OutboxSubscriber } from "./dispatcher.js";

/** Long enough that only a wake-up (never the poll) hands an event over within a test. */
const NEVER = 3_600_000;

/** A subscriber that notes the issues it is handed as `action issueId`. */
function recorder(name: string, seen: string[]): OutboxSubscriber {
  return {
    name,
    handle: async (event) => {
      if (event.kind === "issue") seen.push(`${event.action} ${event.issueId}`);
    },
  };
}

const dispatchers: OutboxDispatcher[] = [];
afterEach(async () => {
  for (const dispatcher of dispatchers.splice(0)) await dispatcher.stop();
});

async function started(
  runtime: ServiceRuntime,
  subscribers: OutboxSubscriber[],
  options: DispatcherOptions = {},
): Promise<OutboxDispatcher> {
  const dispatcher = new OutboxDispatcher(runtime, { pollMs: NEVER, ...options });
  for (const subscriber of subscribers) dispatcher.subscribe(subscriber);
  await dispatcher.start();
  dispatchers.push(dispatcher);
  return dispatcher;
}

forEachDialect((h) => {
  async function openIssues(user: User, titles: string[]): Promise<{ projectId: number; ids: number[] }> {
    const { project } = await h()
      .as(user)
      .projects.create({ name: `p-${randomBytes(3).toString("hex")}` });
    const ids: number[] = [];
    for (const title of titles)
      ids.push((await h().as(user).issues.create({ id: project.id, title })).issue.id);
    return { projectId: project.id, ids };
  }

  it("hands every committed event to a subscriber right after the commit, in order, and resumes after a restart", async () => {
    const alice = await h().user("alice");
    const seen: string[] = [];
    const first = await started(h().runtime, [recorder("audit", seen)]);
    const {
      projectId,
      ids: [a, b],
    } = await openIssues(alice, ["A", "B"]);
    await expect.poll(() => seen).toEqual([`open ${a}`, `open ${b}`]);
    await first.stop();

    // Written while no dispatcher runs (a crash before the dispatch, or a web-only process).
    const {
      ids: [c],
    } = await openIssues(alice, ["C"]);
    await h()
      .as(alice)
      .issues.edit({ id: projectId, issue_id: a ?? 0, state_event: "close" });
    const restarted = new ServiceRuntime({
      stores: h().runtime.stores,
      secretKey: randomBytes(32),
      singleProcess: false,
      dataDir: null,
    });
    await started(restarted, [recorder("audit", seen)]);
    await expect.poll(() => seen).toEqual([`open ${a}`, `open ${b}`, `open ${c}`, `close ${a}`]);
  });

  it("hands a subscriber only the kinds it handles, and none of them is lost across a restart", async () => {
    const alice = await h().user("alice");
    const notes: string[] = [];
    const noteTaker = (): OutboxSubscriber => ({
      name: "notes_only",
      kinds: ["note"],
      handle: async (event) => {
        notes.push(event.kind === "note" ? event.noteId.toString() : `unexpected ${event.kind}`);
      },
    });
    const first = await started(h().runtime, [noteTaker()]);
    const {
      projectId,
      ids: [a],
    } = await openIssues(alice, ["A", "B"]);
    const note = async (body: string) =>
      (
        await h()
          .as(alice)
          .issueNotes.create({ id: projectId, issue_id: a ?? 0, body })
      ).note.id;
    const n1 = await note("one");
    await openIssues(alice, ["C"]);
    await expect.poll(() => notes).toEqual([`${n1}`]);
    await openIssues(alice, ["D"]); // passed by, maybe not saved yet
    await first.stop();

    const n2 = await note("two");
    const restarted = new ServiceRuntime({
      stores: h().runtime.stores,
      secretKey: randomBytes(32),
      singleProcess: false,
      dataDir: null,
    });
    await started(restarted, [noteTaker()]);
    await expect.poll(() => notes).toEqual([`${n1}`, `${n2}`]);
  });

  it("retries a failing subscriber with backoff and holds back no other", async () => {
    const alice = await h().user("alice");
    const steady: string[] = [];
    const flaky: string[] = [];
    const errors: string[] = [];
    let failures = 0;
    const failing: OutboxSubscriber = {
      name: "flaky",
      handle: async (event) => {
        if (failures < 3) {
          failures += 1;
          throw new Error(`failure ${failures}`);
        }
        if (event.kind === "issue") flaky.push(`${event.action} ${event.issueId}`);
      },
    };
    await started(h().runtime, [failing, recorder("steady", steady)], {
      retryMs: 10,
      onError: (error, subscriber) => errors.push(`${subscriber}: ${(error as Error).message}`),
    });
    const {
      ids: [a, b],
    } = await openIssues(alice, ["A", "B"]);
    await expect.poll(() => steady).toEqual([`open ${a}`, `open ${b}`]);
    await expect.poll(() => flaky).toEqual([`open ${a}`, `open ${b}`]);
    expect(errors).toEqual(["flaky: failure 1", "flaky: failure 2", "flaky: failure 3"]);
    const { outbox } = h().runtime.stores;
    const last = (await outbox.after(0, 100)).at(-1)?.id;
    await expect.poll(() => outbox.position("flaky")).toBe(last);
    expect(await outbox.position("steady")).toBe(last);
  });

  it("deletes the events past retention once every subscriber handled them", async () => {
    const alice = await h().user("alice");
    const seen: string[] = [];
    await started(h().runtime, [recorder("audit", seen)], { retentionMs: 0, pruneEveryMs: 10 });
    const {
      ids: [a],
    } = await openIssues(alice, ["A"]);
    await expect.poll(() => seen).toEqual([`open ${a}`]);
    await expect.poll(() => h().runtime.stores.outbox.after(0, 100)).toEqual([]);
  });
});

const pgUrl = process.env[TEST_PG_URL_ENV];

describe.skipIf(!pgUrl)("the outbox shared by processes on one PostgreSQL database", () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const dispatcher of dispatchers.splice(0)) await dispatcher.stop();
    for (const close of closing.splice(0).reverse()) await close();
  });

  /** A process of its own: its pool, its runtime. */
  async function processOn(url: string) {
    const opened = await openDatabase({ kind: "postgres", url, poolSize: 4 });
    closing.push(() => opened.close());
    const runtime = new ServiceRuntime({
      stores: new Stores(opened.db),
      secretKey: randomBytes(32),
      singleProcess: false,
      dataDir: null,
    });
    const listen = async (wake: () => void) => listenForOutbox(url, wake);
    return {
      runtime,
      listen,
      as: (user: User) =>
        createCaller({ runtime, actor: actorOf({ user, method: "private_token" }), system: false }),
    };
  }

  it("hands each event to one process per subscriber, and NOTIFY wakes the processes that did not write it", async () => {
    const database = await createThrowawayPostgres(pgUrl ?? "");
    closing.push(() => database.drop());
    const web = await processOn(database.url);
    await migrateToLatest(web.runtime.stores.db);
    const workers = [await processOn(database.url), await processOn(database.url)];
    const handled: { worker: number; event: DomainEvent }[] = [];
    for (const [index, worker] of workers.entries()) {
      const slow: OutboxSubscriber = {
        name: "audit",
        // The user's and project's creations raise system events too.
        kinds: ["issue"],
        handle: async (event) => {
          handled.push({ worker: index, event });
          await new Promise((resolve) => setTimeout(resolve, 5));
        },
      };
      await started(worker.runtime, [slow], { listen: worker.listen, batchSize: 3 });
    }
    const system = createCaller({ runtime: web.runtime, actor: null, system: true });
    const alice = await system.users.create({
      username: "alice",
      email: "alice@example.com",
      name: "alice",
      password: "password123",
      admin: false,
    });
    // The web process runs no dispatcher, and the workers poll once an hour: only NOTIFY wakes them.
    const { project } = await web.as(alice).projects.create({ name: "shared" });
    const writes = Array.from({ length: 12 }, (_, index) =>
      (index % 2 === 0 ? web : workers[0]!)
        .as(alice)
        .issues.create({ id: project.id, title: `Issue ${index}` }),
    );
    const ids = (await Promise.all(writes)).map((created) => created.issue.id);
    await expect.poll(() => handled.length).toBe(ids.length);
    const opened = handled.map(({ event }) => (event.kind === "issue" ? event.issueId : 0));
    expect([...opened].sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
    // In commit order, which is the order of the outbox's ids.
    const rows = await web.runtime.stores.outbox.after(0, 100);
    const issueRows = rows.filter((row) => row.kind === "issue");
    expect(opened).toEqual(issueRows.map((row) => (JSON.parse(row.payload) as { issueId: number }).issueId));
    // Settle: nothing more arrives, and every worker stopped cleanly.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(handled).toHaveLength(ids.length);
  });
});
