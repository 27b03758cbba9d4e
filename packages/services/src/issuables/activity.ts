import { EventAction, type Issue, type MergeRequest } from "@kiln/domain";
import type { Stores } from "@kiln/storage-kysely";
import {
  type IssuableAction,
  type IssueEvent,
  type MergeRequestEvent,
  recordDomainEvent,
} from "../domain-events.js";
import { recordEvent } from "../events.js";
import type { ServiceRuntime } from "../runtime.js";

/** The feed action of each issuable action ("update" leaves no feed entry, as in GitLab 8.x). */
const FEED_ACTIONS: Readonly<Record<IssuableAction, EventAction | null>> = {
  open: EventAction.CREATED,
  update: null,
  close: EventAction.CLOSED,
  reopen: EventAction.REOPENED,
  merge: EventAction.MERGED,
};

/**
 * Appends "opened", "closed", "reopened" or "accepted" for an issue to its project's feed, and its
 * domain event to the outbox, in `tx`; answers the event, to announce once committed.
 */
export async function recordIssueActivity(
  tx: Stores,
  issue: Issue,
  userId: number,
  action: IssueEvent["action"],
): Promise<IssueEvent> {
  const feed = FEED_ACTIONS[action];
  if (feed !== null) {
    await recordEvent(tx, {
      projectId: issue.project_id,
      authorId: userId,
      action: feed,
      target: { type: "Issue", id: issue.id, title: issue.title },
    });
  }
  const event: IssueEvent = { kind: "issue", action, projectId: issue.project_id, userId, issueId: issue.id };
  await recordDomainEvent(tx, event);
  return event;
}

/** The same for a merge request, in its target project's feed. */
export async function recordMergeRequestActivity(
  tx: Stores,
  mergeRequest: MergeRequest,
  userId: number,
  action: IssuableAction,
): Promise<MergeRequestEvent> {
  const feed = FEED_ACTIONS[action];
  if (feed !== null) {
    await recordEvent(tx, {
      projectId: mergeRequest.project_id,
      authorId: userId,
      action: feed,
      target: { type: "MergeRequest", id: mergeRequest.id, title: mergeRequest.title },
    });
  }
  const event: MergeRequestEvent = {
    kind: "merge_request",
    action,
    projectId: mergeRequest.project_id,
    userId,
    mergeRequestId: mergeRequest.id,
  };
  await recordDomainEvent(tx, event);
  return event;
}

/** Announces recorded events in-process once their transaction has committed. */
export function emitAll(runtime: ServiceRuntime, events: readonly (IssueEvent | MergeRequestEvent)[]): void {
  for (const event of events) runtime.events.emit(event);
}
