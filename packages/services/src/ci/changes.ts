import type { Stores } from "@kiln/storage-kysely";
import { type BuildEvent, type PipelineEvent, recordDomainEvent } from "../domain-events.js";
import type { ServiceRuntime } from "../runtime.js";
import { buildQueue } from "./queue.js";

/**
 * The CI events of one transaction: each is written to the outbox with the change (durable), and
 * kept to be announced in process once the transaction committed ({@link announce}), which wakes
 * the outbox's dispatcher and the runners waiting for a build.
 */
export class CiChanges {
  readonly events: (PipelineEvent | BuildEvent)[] = [];

  /** Writes the event in `tx` and keeps it for {@link announce}. */
  async record(tx: Stores, event: PipelineEvent | BuildEvent): Promise<void> {
    await recordDomainEvent(tx, event);
    this.events.push(event);
  }

  /** True when a build became pending. */
  get enqueued(): boolean {
    return this.events.some((event) => event.kind === "build" && event.status === "pending");
  }

  /** After the commit: announces the events, and wakes waiting runners when a build became pending. */
  announce(runtime: ServiceRuntime): void {
    for (const event of this.events) runtime.events.emit(event);
    if (this.enqueued) buildQueue(runtime).wake();
  }
}

/**
 * Runs `work` in one transaction with a {@link CiChanges} to record its events in, and announces
 * them once it committed.
 */
export async function ciTransaction<T>(
  runtime: ServiceRuntime,
  work: (tx: Stores, changes: CiChanges) => Promise<T>,
): Promise<T> {
  const changes = new CiChanges();
  const result = await runtime.stores.transaction((tx) => work(tx, changes));
  changes.announce(runtime);
  return result;
}
