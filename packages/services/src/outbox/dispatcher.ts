import { type DomainEvent, domainEventOf } from "../domain-events.js";
import { InterruptibleSleep } from "../interruptible-sleep.js";
import type { ServiceRuntime } from "../runtime.js";

/** A durable consumer of domain events, with its own position in the outbox. */
export interface OutboxSubscriber {
  /** Names its position: stable across releases, unique among subscribers. */
  readonly name: string;
  /**
   * Handles one event; a rejection makes the dispatcher try it again later (and the events after
   * it wait). Called at least once per event, so it must bear being called again: `eventId`, the
   * event's id in the outbox, is the same on every call and may key what the handling writes.
   */
  handle(event: DomainEvent, eventId: number): Promise<void>;
  /**
   * The kinds of events it handles (default: all). The others pass by without a call, and the
   * position is saved past them at most once per poll interval rather than on every commit: a
   * write per event would be paid by every write of the server that raises one.
   */
  readonly kinds?: readonly DomainEvent["kind"][];
}

/** A connection that wakes the dispatcher when another process wrote events. */
export interface Wakeups {
  close(): Promise<void>;
}

/** How the dispatcher runs; every field has a default. */
export interface DispatcherOptions {
  /** How often each subscriber looks for events when nothing woke it, in ms (default 5 s). */
  pollMs?: number;
  /** How long a woken subscriber waits for more commits before its pass, in ms (default 10). */
  coalesceMs?: number;
  /** How many events a subscriber reads at a time (default 100). */
  batchSize?: number;
  /** The first wait after a subscriber failed, doubled on each failure in a row (default 1 s). */
  retryMs?: number;
  /** The longest wait after failures (default 1 min). */
  maxRetryMs?: number;
  /** How long handled events are kept (default 7 days). */
  retentionMs?: number;
  /** How often handled events past retention are deleted (default 1 hour). */
  pruneEveryMs?: number;
  /** Wakes the dispatcher on another process's events (PostgreSQL `LISTEN`). */
  listen?: (wake: () => void) => Promise<Wakeups>;
  /** Told of a subscriber's failure (then retried) and of a failed pruning. */
  onError?: (error: unknown, subscriber: string | null, event: DomainEvent | null) => void;
}

const DEFAULTS = {
  pollMs: 5_000,
  coalesceMs: 10,
  batchSize: 100,
  retryMs: 1_000,
  maxRetryMs: 60_000,
  retentionMs: 7 * 24 * 3600_000,
  pruneEveryMs: 3600_000,
};

/** What a pass over a subscriber's events found. */
type Pass = "drained" | "more" | "failed" | "busy";

/** One subscriber's loop: handles its events in id order, and sleeps when there are none. */
class SubscriberLoop {
  #woken = false;
  /** How far this process has passed events the subscriber does not handle, saved or not. */
  #passed = 0;
  #savedAt = 0;
  readonly #sleeper = new InterruptibleSleep();

  constructor(
    private readonly runtime: ServiceRuntime,
    private readonly subscriber: OutboxSubscriber,
    private readonly options: typeof DEFAULTS & DispatcherOptions,
    private readonly stopped: () => boolean,
  ) {}

  /** Runs until the dispatcher stops; never rejects. */
  async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped()) {
      this.#woken = false;
      const pass = await this.#pass();
      if (pass === "more") continue;
      if (pass === "failed") {
        failures += 1;
        await this.#sleep(
          Math.min(this.options.retryMs * 2 ** (failures - 1), this.options.maxRetryMs),
          false,
        );
        continue;
      }
      failures = 0;
      if (!this.#woken) await this.#sleep(this.options.pollMs, true);
      // Commits that come in a burst share one pass instead of paying for one each.
      if (this.#woken) await this.#sleep(this.options.coalesceMs, false);
    }
  }

  #handles(event: DomainEvent): boolean {
    return this.subscriber.kinds?.includes(event.kind) ?? true;
  }

  /** Ends a sleep that wakes (every sleep when stopping); a pass under way is followed by another. */
  wake(stopping = false): void {
    this.#woken = true;
    this.#sleeper.interrupt(stopping);
  }

  #sleep(ms: number, wakeable: boolean): Promise<void> {
    return this.stopped() ? Promise.resolve() : this.#sleeper.sleep(ms, wakeable);
  }

  /**
   * Handles the next batch of events after the subscriber's position, in id order, holding the
   * position (see `whileClaimed`); the position moves past what was handled, up to a failure.
   */
  async #pass(): Promise<Pass> {
    const { name } = this.subscriber;
    const { outbox } = this.runtime.stores;
    let pass: Pass = "busy";
    try {
      await outbox.whileClaimed(name, async (position) => {
        let reached = Math.max(position, this.#passed);
        const batch = await outbox.after(reached, this.options.batchSize);
        let handledAny = false;
        pass = batch.length === this.options.batchSize ? "more" : "drained";
        for (const row of batch) {
          if (this.stopped()) break;
          const event = domainEventOf(row);
          if (this.#handles(event)) {
            try {
              await this.subscriber.handle(event, row.id);
            } catch (error) {
              this.options.onError?.(error, name, event);
              pass = "failed";
              break;
            }
            handledAny = true;
          }
          reached = row.id;
        }
        this.#passed = reached;
        // Events passed by unhandled are read again after a restart, which is harmless: saving
        // them can wait for the next handled event or the poll interval.
        if (!handledAny && Date.now() - this.#savedAt < this.options.pollMs) return position;
        this.#savedAt = Date.now();
        return reached;
      });
    } catch (error) {
      // The database failed (claiming, reading or moving the position): the events stay.
      this.options.onError?.(error, name, null);
      return "failed";
    }
    return pass;
  }
}

/**
 * Hands the outbox's events to its subscribers, each at its own position so that a slow or
 * failing one holds back no other: at least once, in id order (commit order, so per project too)
 * one event at a time per subscriber, and resumed after a restart from the position. It wakes
 * right after this process commits events (their in-process announcement), on other processes'
 * commits when given `listen`, and polls meanwhile. On PostgreSQL, several processes may run one
 * each: a subscriber's batch is handled by one of them (its position is claimed).
 */
export class OutboxDispatcher {
  readonly #runtime: ServiceRuntime;
  readonly #options: typeof DEFAULTS & DispatcherOptions;
  readonly #subscribers: OutboxSubscriber[] = [];
  #loops: SubscriberLoop[] = [];
  #running: Promise<void>[] = [];
  #stopped = false;
  #unsubscribe: (() => void) | null = null;
  #wakeups: Wakeups | null = null;
  #pruneTimer: NodeJS.Timeout | undefined;
  #pruning: Promise<void> = Promise.resolve();

  constructor(runtime: ServiceRuntime, options: DispatcherOptions = {}) {
    this.#runtime = runtime;
    this.#options = { ...DEFAULTS, ...options };
  }

  /** Adds a subscriber; call before {@link start}. */
  subscribe(subscriber: OutboxSubscriber): this {
    this.#subscribers.push(subscriber);
    return this;
  }

  /** Registers the subscribers' positions (a new one starts at the oldest event kept) and starts their loops. */
  async start(): Promise<void> {
    for (const { name } of this.#subscribers) await this.#runtime.stores.outbox.register(name);
    this.#loops = this.#subscribers.map(
      (subscriber) => new SubscriberLoop(this.#runtime, subscriber, this.#options, () => this.#stopped),
    );
    this.#wakeups = (await this.#options.listen?.(() => this.wake())) ?? null;
    // Woken by every commit of events in this process: the announced ones, and those that are not.
    const unannounced = this.#runtime.stores.afterEventsCommitted(() => this.wake());
    const announced = this.#runtime.events.subscribe(() => this.wake());
    this.#unsubscribe = () => {
      unannounced();
      announced();
    };
    this.#running = this.#loops.map((loop) => loop.run());
    this.#pruneTimer = setInterval(() => {
      this.#pruning = this.#prune();
    }, this.#options.pruneEveryMs);
  }

  /** Makes every subscriber look for new events now. */
  wake(): void {
    for (const loop of this.#loops) loop.wake();
  }

  /** Stops: lets each subscriber finish the event in hand, and stops listening. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#pruneTimer);
    this.#unsubscribe?.();
    for (const loop of this.#loops) loop.wake(true);
    await Promise.all(this.#running);
    await this.#pruning;
    await this.#wakeups?.close();
  }

  /** Deletes the events every subscriber handled that are older than the retention. */
  async #prune(): Promise<void> {
    const before = new Date(Date.now() - this.#options.retentionMs).toISOString();
    try {
      await this.#runtime.stores.outbox.prune(before);
    } catch (error) {
      this.#options.onError?.(error, null, null);
    }
  }
}
