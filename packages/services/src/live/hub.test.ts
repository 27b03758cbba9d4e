import { afterEach, describe, expect, it } from "vitest";
import { forEachDialect } from "../__tests__/harness.js";
import { LiveHub } from "./hub.js";

describe("the live hub", () => {
  forEachDialect((h) => {
    let hub: LiveHub | undefined;
    afterEach(async () => {
      await hub?.stop();
      hub = undefined;
    });

    /** Writes `count` events to the outbox, as a change's transaction does; answers their ids. */
    async function write(count: number): Promise<number[]> {
      const from = await h().runtime.stores.outbox.latestId();
      for (let n = 0; n < count; n += 1) {
        await h().runtime.stores.outbox.append({ project_id: 1, kind: "push", payload: "{}" });
      }
      return (await h().runtime.stores.outbox.after(from, 1000)).map((row) => row.id);
    }

    const ids = (rows: { id: number }[]) => rows.map((row) => row.id);

    it("starts at the newest event and hands on what is written after, once woken", async () => {
      await write(2);
      hub = new LiveHub(h().runtime, { keep: 3, pollMs: 60_000 });
      await hub.ready;
      const start = hub.position;
      expect(start).toBe(await h().runtime.stores.outbox.latestId());
      expect(await hub.eventsAfter(start, 10)).toEqual([]);
      const written = await write(2);
      const woken = hub.waitPast(start, 60_000);
      hub.wake();
      await woken;
      expect(ids(await hub.eventsAfter(start, 10))).toEqual(written);
      expect(ids(await hub.eventsAfter(start, 1))).toEqual(written.slice(0, 1));
    });

    it("answers from the database a position older than it keeps in memory", async () => {
      const before = await write(2);
      hub = new LiveHub(h().runtime, { keep: 3, pollMs: 60_000 });
      await hub.ready;
      const written = await write(5);
      const woken = hub.waitPast(hub.position, 60_000);
      hub.wake();
      await woken;
      // Memory holds the last 3; a stream resuming from before them reads the table.
      expect(ids(await hub.eventsAfter(written[1]!, 10))).toEqual(written.slice(2));
      expect(ids(await hub.eventsAfter(before[0]!, 10))).toEqual([...before.slice(1), ...written]);
      expect(ids(await hub.eventsAfter(written[0]!, 10))).toEqual(written.slice(1));
    });

    it("wakes by itself when a transaction of this process commits outbox events", async () => {
      hub = new LiveHub(h().runtime, { pollMs: 60_000 });
      await hub.ready;
      const start = hub.position;
      const woken = hub.waitPast(start, 60_000);
      await h().runtime.stores.transaction((tx) =>
        tx.outbox.append({ project_id: 1, kind: "issue", payload: "{}" }),
      );
      await woken;
      expect(await hub.eventsAfter(start, 10)).toHaveLength(1);
    });

    it("releases its waiters when it stops", async () => {
      hub = new LiveHub(h().runtime, { pollMs: 60_000 });
      await hub.ready;
      const waiting = hub.waitPast(hub.position, 60_000);
      await hub.stop();
      await waiting;
      expect(hub.closed).toBe(true);
    });
  });
});
