import type { PushCommit } from "@kiln/domain";
import type { TodoJson } from "@kiln/schemas";
import type { OutboxEvent, Stores } from "@kiln/storage-kysely";

/** An accepted change of one ref, by a push, a file commit or a branch or tag operation. */
export interface PushEvent {
  kind: "push";
  projectId: number;
  /** Who pushed. */
  userId: number;
  /** The full ref name (`refs/heads/main`, `refs/tags/v1`). */
  ref: string;
  /** The old value; all zeros for a created ref. */
  before: string;
  /** The new value; all zeros for a deleted ref. */
  after: string;
  /** The latest new commits, at most 20, oldest first as in GitLab's push data (`totalCommits` counts them all). */
  commits: PushCommit[];
  totalCommits: number;
}

/** What happened to an issue or merge request (GitLab's hook `action`s, with `merge` for merge requests). */
export type IssuableAction = "open" | "update" | "close" | "reopen" | "merge";

/** An issue opened, changed, closed or reopened. */
export interface IssueEvent {
  kind: "issue";
  action: Exclude<IssuableAction, "merge">;
  projectId: number;
  /** Who did it. */
  userId: number;
  issueId: number;
}

/** A merge request opened, changed, closed, reopened or merged. */
export interface MergeRequestEvent {
  kind: "merge_request";
  action: IssuableAction;
  /** The target project. */
  projectId: number;
  userId: number;
  mergeRequestId: number;
}

/** A note written by a user on an issue or merge request. */
export interface NoteEvent {
  kind: "note";
  projectId: number;
  userId: number;
  noteId: number;
  noteableType: "Issue" | "MergeRequest";
  noteableId: number;
}

/** The events of GitLab 8.x's system hooks (`SystemHooksService`). */
export type SystemEventName =
  | "project_create"
  | "project_destroy"
  | "project_rename"
  | "project_transfer"
  | "user_create"
  | "user_destroy"
  | "user_add_to_team"
  | "user_remove_from_team"
  | "group_create"
  | "group_destroy"
  | "user_add_to_group"
  | "user_remove_from_group"
  | "key_create"
  | "key_destroy";

/**
 * A change administrators' system hooks hear of. Its payload is built in the change's transaction:
 * what it describes may be gone (destroyed) by the time it is delivered.
 */
export interface SystemEvent {
  kind: "system";
  /** The project it concerns; 0 for none (the outbox keys every event by a project). */
  projectId: number;
  payload: { event_name: SystemEventName } & Record<string, unknown>;
}

/** A pipeline's status changed (8.x's pipeline hook moments). */
export interface PipelineEvent {
  kind: "pipeline";
  projectId: number;
  pipelineId: number;
  /** The new status. */
  status: string;
  /** Who the pipeline is for (the pusher), or null. */
  userId: number | null;
}

/** A build's (or an external commit status's) status changed. */
export interface BuildEvent {
  kind: "build";
  projectId: number;
  pipelineId: number;
  buildId: number;
  /** The new status. */
  status: string;
  userId: number | null;
}

/**
 * Todos of one user in one project were created or marked done. Only their owner hears of it (the
 * live stream); no hook does, as in GitLab 8.x.
 */
export interface TodoEvent {
  kind: "todo";
  action: "created" | "done";
  projectId: number;
  /** The todos' owner. */
  userId: number;
  todoIds: number[];
  /**
   * Done because their target was deleted with them: the todos as their owner last saw them
   * (the stream can no longer read them), or absent.
   */
  gone?: TodoJson[];
}

/**
 * An open merge request's `merge_status` was computed again on its own (a branch moved): no edit,
 * so no hook hears of it; the live streams of those it concerns do.
 */
export interface MergeStatusEvent {
  kind: "merge_status";
  projectId: number;
  mergeRequestId: number;
  /** The new status. */
  status: string;
}

/** Every domain event the services raise. */
export type DomainEvent =
  | PushEvent
  | IssueEvent
  | MergeRequestEvent
  | NoteEvent
  | SystemEvent
  | PipelineEvent
  | BuildEvent
  | TodoEvent
  | MergeStatusEvent;

/** A consumer of domain events. */
export type DomainEventListener = (event: DomainEvent) => void | Promise<void>;

/**
 * Appends `event` to the outbox in the transaction of the change it reports (`tx`): it is written
 * with that change or not at all, and the outbox's subscribers get it at least once.
 */
export function recordDomainEvent(tx: Stores, event: DomainEvent): Promise<void> {
  return tx.outbox.append({ project_id: event.projectId, kind: event.kind, payload: JSON.stringify(event) });
}

/** The domain event an outbox row holds. */
export function domainEventOf(row: OutboxEvent): DomainEvent {
  return JSON.parse(row.payload) as DomainEvent;
}

/**
 * The events this process committed, announced in-process right after their transaction: the
 * outbox's dispatcher wakes on them, and tests watch them. Not durable (a crash between the commit
 * and the announcement loses it, and other processes never see it): whatever must happen after an
 * event subscribes to the outbox (`OutboxDispatcher`), which has it from the database. A listener
 * that throws or rejects is reported to `onListenerError` and never reaches the caller that raised
 * the event: the change it describes has happened either way.
 */
export class DomainEvents {
  readonly #listeners = new Set<DomainEventListener>();
  onListenerError: (error: unknown, event: DomainEvent) => void = () => {};

  /** Calls `listener` with every later event; answers a function that stops it. */
  subscribe(listener: DomainEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Hands `event` to every listener. */
  emit(event: DomainEvent): void {
    for (const listener of this.#listeners) {
      try {
        Promise.resolve(listener(event)).catch((error: unknown) => this.onListenerError(error, event));
      } catch (error) {
        this.onListenerError(error, event);
      }
    }
  }
}
