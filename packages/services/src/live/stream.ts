import { DomainError, type User } from "@kiln/domain";
import { LiveEventJson, type LiveEventsInput } from "@kiln/schemas";
import type { OutboxEvent } from "@kiln/storage-kysely";
import { domainEventOf } from "../domain-events.js";
import { requireMergeRequest } from "../issuables/access.js";
import { mergeRequestView } from "../issuables/views.js";
import type { SignedInContext } from "../operation.js";
import { presentMergeRequest } from "../presenters/issuables.js";
import { LIVE_BATCH, startLiveHub } from "./hub.js";

/** How long a stream waits for events before it looks again on its own, in ms. */
const IDLE_MS = 30_000;

/** One event of the stream and its outbox id, the stream's `lastEventId`. */
export interface LiveStreamEvent {
  id: number;
  event: LiveEventJson;
}

/** True when the merge request concerns the user: they opened it or are assigned to it. */
const involves = (user: User, mergeRequest: { author_id: number | null; assignee_id: number | null }) =>
  mergeRequest.author_id === user.id || mergeRequest.assignee_id === user.id;

/**
 * What the caller is told of an outbox event, or null when it does not concern them or they may
 * not see it: the same read rule as `GET …/merge_requests/:id` (a merge request they may not read
 * is never mentioned), answered as that route answers it now.
 */
async function liveEventOf(ctx: SignedInContext, row: OutboxEvent): Promise<LiveEventJson | null> {
  const event = domainEventOf(row);
  if (event.kind !== "merge_request") return null;
  const found = await ctx.runtime.stores.mergeRequests.findById(event.mergeRequestId);
  if (!found || !involves(ctx.actor.user, found)) return null;
  let mergeRequest: typeof found;
  try {
    ({ mergeRequest } = await requireMergeRequest(ctx, event.projectId, event.mergeRequestId));
  } catch (error) {
    if (DomainError.is(error)) return null; // unreadable, or gone meanwhile
    throw error;
  }
  const view = await mergeRequestView(ctx, mergeRequest);
  const context = { baseUrl: ctx.runtime.baseUrl, actor: ctx.actor };
  // Parsed as the other procedures' answers are: the public shape and nothing else.
  return LiveEventJson.parse({
    kind: "merge_request",
    action: event.action,
    merge_request: presentMergeRequest(view, context),
  });
}

/**
 * The caller's live stream: each change they may see, in commit order, from just after
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
  let position = input?.lastEventId ? Number(input.lastEventId) : hub.position;
  while (!signal?.aborted && !hub.closed) {
    const rows = await hub.eventsAfter(position, LIVE_BATCH);
    if (rows.length === 0) {
      await hub.waitPast(position, IDLE_MS, signal);
      continue;
    }
    for (const row of rows) {
      position = row.id;
      const event = await liveEventOf(ctx, row);
      if (event) yield { id: row.id, event };
    }
  }
}
