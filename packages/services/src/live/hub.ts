import type { OutboxEvent } from "@kiln/storage-kysely";
import type { Wakeups } from "../outbox/dispatcher.js";
import type { ServiceRuntime } from "../runtime.js";
import { SharedReads } from "./shared-reads.js";

/** How the live hub of a process is set up. */
export interface LiveHubOptions {
  /** How often it looks for events when nothing woke it, in ms (default 2 s). */
  pollMs?: number;
  /** How many recent events it keeps in memory for the streams (default 1,000). */
  keep?: number;
  /** Wakes it on another process's events (PostgreSQL `LISTEN`). */
  listen?: (wake: () => void) => Promise<Wakeups>;
}

/** How many events the hub and a stream read from the database at a time. */
export const LIVE_BATCH = 100;

/**
 * One per process: reads the outbox's new events once for every live stream of the process,
 * keeps the latest in memory and wakes the streams waiting for them. Woken by this process's
 * commits, by other processes' (`listen`) and by a poll; a stream that resumes from further back
 * than memory reads the database instead.
 */
export class LiveHub {
  /** Every event with an id above `#from` and up to `#position` is in `#recent`. */
  #from = 0;
  #position = 0;
  #recent: OutboxEvent[] = [];
  /** What the streams read of an event whoever they serve, while it is in memory (see {@link sharedReadsOf}). */
  readonly #shared = new WeakMap<OutboxEvent, SharedReads>();
  #waiters = new Set<() => void>();
  #reading: Promise<void> | null = null;
  #again = false;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;
  #stopListening: (() => void) | undefined;
  #wakeups: Wakeups | undefined;
  readonly #options: Required<Omit<LiveHubOptions, "listen">> & LiveHubOptions;
  /** Settles once the hub knows where the outbox stands. */
  readonly ready: Promise<void>;

  constructor(
    private readonly runtime: ServiceRuntime,
    options: LiveHubOptions = {},
  ) {
    this.#options = { pollMs: 2_000, keep: 1_000, ...options };
    this.ready = this.#start();
  }

  async #start(): Promise<void> {
    this.#position = await this.runtime.stores.outbox.latestId();
    this.#from = this.#position;
    // Every commit of this process that wrote outbox events wakes it, whatever raised them (the
    // in-process announcements come after those same commits: they would only wake it twice).
    this.#stopListening = this.runtime.stores.afterEventsCommitted(() => this.wake());
    this.#timer = setInterval(() => this.wake(), this.#options.pollMs);
    this.#timer.unref();
    if (this.#options.listen) this.#wakeups = await this.#options.listen(() => this.wake());
  }

  /** The id of the newest event the hub has read. */
  get position(): number {
    return this.#position;
  }

  /** True once stopped: streams end. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Reads the events written since the last read (again after the current read, if one runs). */
  wake(): void {
    if (this.#closed) return;
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = this.#read()
      .catch(() => undefined) // the next wake or poll reads again
      .finally(() => {
        this.#reading = null;
        if (this.#again) {
          this.#again = false;
          this.wake();
        }
      });
  }

  async #read(): Promise<void> {
    const start = this.#position;
    let rows: OutboxEvent[];
    do {
      rows = await this.runtime.stores.outbox.after(this.#position, LIVE_BATCH);
      if (rows.length === 0) break;
      this.#recent.push(...rows);
      this.#position = rows[rows.length - 1]!.id;
      const excess = this.#recent.length - this.#options.keep;
      if (excess > 0) this.#from = this.#recent.splice(0, excess).at(-1)!.id;
    } while (rows.length === LIVE_BATCH);
    if (this.#position > start) this.#notify();
  }

  #notify(): void {
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const resolve of waiters) resolve();
  }

  /** Up to `limit` events after `position`, oldest first: from memory when it holds them, else the database. */
  async eventsAfter(position: number, limit: number): Promise<OutboxEvent[]> {
    if (position >= this.#position) return [];
    if (position < this.#from) return this.runtime.stores.outbox.after(position, limit);
    return this.#recent.filter((row) => row.id > position).slice(0, limit);
  }

  /**
   * The reads every stream shares for `row` (one of {@link eventsAfter}'s): the same for all while
   * the hub keeps the event in memory, dropped with it.
   */
  sharedReadsOf(row: OutboxEvent): SharedReads {
    let shared = this.#shared.get(row);
    if (!shared) {
      shared = new SharedReads(this.runtime.stores);
      this.#shared.set(row, shared);
    }
    return shared;
  }

  /**
   * Resolves once the hub has read past `position` (at once if it has), after `ms`, when `signal`
   * aborts or the hub stops.
   */
  waitPast(position: number, ms: number, signal?: AbortSignal): Promise<void> {
    if (this.#position > position || this.#closed || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  /** Stops reading; every stream ends. */
  async stop(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#stopListening?.();
    this.#notify();
    await this.#wakeups?.close();
    await this.#reading;
  }
}

const hubs = new WeakMap<ServiceRuntime, LiveHub>();

/**
 * Starts the live hub of a runtime (the server does, with `listen` on PostgreSQL); answers the
 * running one if there is one.
 */
export function startLiveHub(runtime: ServiceRuntime, options?: LiveHubOptions): LiveHub {
  let hub = hubs.get(runtime);
  if (!hub) {
    hub = new LiveHub(runtime, options);
    hubs.set(runtime, hub);
  }
  return hub;
}
