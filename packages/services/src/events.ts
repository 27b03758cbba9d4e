import type { EventAction, ProjectEvent } from "@kiln/domain";
import type { Stores } from "@kiln/storage-kysely";

/** What happened, to be appended to a project's activity feed. */
export interface EventRecord {
  projectId: number;
  authorId: number | null;
  action: EventAction;
  target?: { type: string; id: number; title: string | null };
  /** The push payload for push events. */
  data?: unknown;
}

/**
 * The one way every feature records activity: appends to the feed in the caller's transaction,
 * so the event exists exactly when the change it describes does.
 */
export function recordEvent(stores: Stores, record: EventRecord): Promise<ProjectEvent> {
  return stores.events.append({
    project_id: record.projectId,
    author_id: record.authorId,
    action: record.action,
    target_type: record.target?.type ?? null,
    target_id: record.target?.id ?? null,
    target_title: record.target?.title ?? null,
    data: record.data ?? null,
  });
}
