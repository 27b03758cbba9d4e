import { Migrator, sql } from "kysely";
import { expect, it } from "vitest";
import { describeStores } from "./__tests__/store-suite.js";
import { migrateToLatest } from "./migrate.js";
import { migrationProvider } from "./migrations/index.js";
import { onSqlite } from "./queries.js";
import type { NewOutboxEvent } from "./stores/outbox.js";
import { Stores } from "./stores.js";

const event = (projectId: number, name: string): NewOutboxEvent => ({
  project_id: projectId,
  kind: "push",
  payload: JSON.stringify({ name }),
});

describeStores("outbox store", (ctx) => {
  const names = async (position = 0) =>
    (await ctx.stores.outbox.after(position, 100)).map((row) => JSON.parse(row.payload).name as string);

  it("writes a transaction's events with its commit, none of one rolled back, and reads them in order", async () => {
    await ctx.stores.transaction(async (tx) => {
      await tx.outbox.append(event(1, "a"));
      await tx.outbox.append(event(2, "b"));
      // Not written before the commit, even for the transaction itself.
      expect(await tx.outbox.after(0, 10)).toEqual([]);
    });
    await expect(
      ctx.stores.transaction(async (tx) => {
        await tx.outbox.append(event(1, "lost"));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await ctx.stores.outbox.append(event(3, "c"));
    const rows = await ctx.stores.outbox.after(0, 100);
    expect(rows.map((row) => [row.project_id, row.kind, JSON.parse(row.payload).name])).toEqual([
      [1, "push", "a"],
      [2, "push", "b"],
      [3, "push", "c"],
    ]);
    expect(rows[0]?.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await names(rows[0]?.id)).toEqual(["b", "c"]);
    expect(await ctx.stores.outbox.after(rows[0]?.id ?? 0, 1)).toEqual([rows[1]]);
  });

  it("tells the newest event's id", async () => {
    const before = await ctx.stores.outbox.latestId();
    await ctx.stores.outbox.append(event(1, "newest"));
    const [row] = await ctx.stores.outbox.after(before, 10);
    expect(row).toBeDefined();
    expect(await ctx.stores.outbox.latestId()).toBe(row?.id);
  });

  it("keeps a position per subscriber, from 0, moved forward only by the work done while claimed", async () => {
    expect(await ctx.stores.outbox.whileClaimed("hooks", async () => 1)).toBe(false);
    await ctx.stores.outbox.register("hooks");
    await ctx.stores.outbox.register("ci");
    await ctx.stores.outbox.register("hooks");
    const seen: number[] = [];
    const claimed = (subscriber: string, next: number) =>
      ctx.stores.outbox.whileClaimed(subscriber, async (position) => {
        seen.push(position);
        return next;
      });
    expect(await claimed("hooks", 5)).toBe(true);
    expect(await claimed("hooks", 3)).toBe(true);
    expect(await claimed("hooks", 7)).toBe(true);
    expect(seen).toEqual([0, 5, 5]);
    expect(await ctx.stores.outbox.position("hooks")).toBe(7);
    expect(await ctx.stores.outbox.position("ci")).toBe(0);
    expect(await ctx.stores.outbox.position("webhooks")).toBeUndefined();
  });

  it("prunes events older than the cutoff that every subscriber has handled", async () => {
    for (const name of ["a", "b", "c"]) await ctx.stores.outbox.append(event(1, name));
    const [a, b] = await ctx.stores.outbox.after(0, 100);
    const future = new Date(Date.now() + 60_000).toISOString();
    // No subscriber yet: nothing is known to be handled.
    expect(await ctx.stores.outbox.prune(future)).toBe(0);
    await ctx.stores.outbox.register("fast");
    await ctx.stores.outbox.register("slow");
    await ctx.stores.outbox.whileClaimed("fast", async () => b?.id ?? 0);
    await ctx.stores.outbox.whileClaimed("slow", async () => a?.id ?? 0);
    expect(await ctx.stores.outbox.prune(new Date(0).toISOString())).toBe(0);
    expect(await ctx.stores.outbox.prune(future)).toBe(1);
    expect(await names()).toEqual(["b", "c"]);
  });

  it("lets one process at a time claim a subscriber's position; another claim answers false at once", async () => {
    await ctx.stores.outbox.register("hooks");
    let second: boolean | undefined;
    await ctx.stores.outbox.whileClaimed("hooks", async () => {
      second = await ctx.stores.outbox.whileClaimed("hooks", async () => 9);
      return 1;
    });
    // SQLite has one server process, which runs one claim per subscriber at a time.
    expect(second).toBe(onSqlite(ctx.opened.db));
    expect(await ctx.stores.outbox.position("hooks")).toBe(onSqlite(ctx.opened.db) ? 9 : 1);
  });

  it("commits events in id order: a writer that took an id holds back the next until it commits", async () => {
    if (onSqlite(ctx.opened.db)) return; // one writer at a time: commit order is id order already
    let later: Promise<void> | undefined;
    let seenMeanwhile: string[] = [];
    await ctx.opened.db.transaction().execute(async (trx) => {
      const first = new Stores(trx);
      await first.outbox.append(event(1, "first"));
      await first.outbox.flush(); // holds its id, not committed
      let committed = false;
      later = ctx.stores.outbox.append(event(2, "second")).then(() => {
        committed = true;
      });
      await untilWaitingOnLock(() => committed);
      // A reader meanwhile sees neither, never the second without the first (which it would skip).
      seenMeanwhile = await names();
    });
    await later;
    expect(seenMeanwhile).toEqual([]);
    const rows = await ctx.stores.outbox.after(0, 100);
    expect(rows.map((row) => JSON.parse(row.payload).name)).toEqual(["first", "second"]);
  });

  /** Waits until a connection waits on a lock, or `done` holds. */
  async function untilWaitingOnLock(done: () => boolean): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !done()) {
      const { rows } = await sql<{ waiting: string }>`
        select count(*) as waiting from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock'`.execute(ctx.opened.db);
      if (Number(rows[0]?.waiting) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (!done()) expect.fail("the second writer neither waited nor committed");
  }

  it("starts the subscribers that an upgrade brings in at the newest event, not at the week already kept", async () => {
    const db = ctx.opened.db;
    const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo("0011_outbox");
    if (error) throw error;
    await ctx.stores.outbox.append(event(1, "before the upgrade"));
    const newest = await ctx.stores.outbox.latestId();
    await migrateToLatest(db);
    expect(await ctx.stores.outbox.position("webhooks")).toBe(newest);
    expect(await ctx.stores.outbox.position("ci_pipelines")).toBe(newest);
    expect(await ctx.stores.outbox.position("merge_when_build_succeeds")).toBe(newest);
    await ctx.stores.outbox.append(event(1, "after"));
    expect(await names(await ctx.stores.outbox.position("webhooks"))).toEqual(["after"]);
  });
});
