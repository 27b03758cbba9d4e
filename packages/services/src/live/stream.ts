import type { LiveEventJson, LiveEventsInput } from "@kiln/schemas";
import type { SignedInContext } from "../operation.js";
import { liveEventsOf } from "./events.js";
import { LIVE_BATCH, startLiveHub } from "./hub.js";

/** How long a stream waits for events before it looks again on its own, in ms. */
const IDLE_MS = 30_000;

/** One event of the stream and its outbox id, the stream's `lastEventId`. */
export interface LiveStreamEvent {
  id: number;
  event: LiveEventJson;
}

/**
 * The caller's live stream: each change they may see (their merge requests, with their heads
 * and pipelines; the pipelines and builds of the `projects` they follow), in commit order, from just after
 * `lastEventId` (a reconnect resumes where it stopped, nothing lost or repeated while the outbox
 * keeps the events) or from now on. Ends when `signal` aborts or the server stops.
 */
export async function* liveStream(
  ctx: SignedInContext,
  input: LiveEventsInput,
  signal?: AbortSignal,
): AsyncGenerator<LiveStreamEvent, void, undefined> {
  const hub = startLiveHub(ctx.runtime);
  await hub.ready;
  const filter = { projects: new Set(input?.projects ?? []) };
  let position = input?.lastEventId ? Number(input.lastEventId) : hub.position;
  while (!signal?.aborted && !hub.closed) {
    const rows = await hub.eventsAfter(position, LIVE_BATCH);
    if (rows.length === 0) {
      await hub.waitPast(position, IDLE_MS, signal);
      continue;
    }
    for (const row of rows) {
      position = row.id;
      // The changes of one event share its id: a stream that stops between them resumes after all.
      for (const event of await liveEventsOf(ctx, row, filter, hub.sharedReadsOf(row))) {
        yield { id: row.id, event };
      }
    }
  }
}
