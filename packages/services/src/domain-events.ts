import type { PushCommit } from "@kiln/domain";

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

/** Every domain event the services raise. */
export type DomainEvent = PushEvent;

/** A consumer of domain events. */
export type DomainEventListener = (event: DomainEvent) => void | Promise<void>;

/**
 * The in-process stream of domain events, raised after the change they describe is committed.
 * A listener that throws or rejects is reported to `onListenerError` and never reaches the
 * caller that raised the event: the change it describes has happened either way.
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
