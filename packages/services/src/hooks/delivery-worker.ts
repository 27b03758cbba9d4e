import type { HookDelivery } from "@kiln/domain";
import type { DeliveryAttempt } from "@kiln/storage-kysely";
import { CoalescedWrites } from "../coalesced-writes.js";
import { InterruptibleSleep } from "../interruptible-sleep.js";
import type { ServiceRuntime } from "../runtime.js";
import { type HookResponse, sendHook } from "./send.js";

/** How the delivery worker runs; every field but `userAgent` has a default. */
export interface DeliveryWorkerOptions {
  /** `User-Agent` of every request (`Kiln/<version>`). */
  userAgent: string;
  /** How often it looks for due deliveries when nothing woke it, in ms (default 1 s). */
  pollMs?: number;
  /** How many deliveries it sends at once, one per hook at most (default 32). */
  concurrency?: number;
  /** How long a claim holds a delivery from other processes (default 1 min, beyond any timeout). */
  leaseMs?: number;
  /** The time allowed to one attempt, connecting to reading the response (default 10 s). */
  timeoutMs?: number;
  /** How much of a response is read (default 64 KiB) and kept in the log (default 2 KiB). */
  responseCapBytes?: number;
  keptBodyBytes?: number;
  /** The wait before the first retry, doubled on each (default 2 s), at most `maxRetryMs` (default 10 min). */
  retryMs?: number;
  maxRetryMs?: number;
  /** The attempts before a delivery is given up (default 10, some 17 minutes of retries). */
  maxAttempts?: number;
  /** How long finished deliveries stay in the log (default 7 days), pruned every `pruneEveryMs` (1 hour). */
  retentionMs?: number;
  pruneEveryMs?: number;
  /** Frees every claim at start: for the only process of a database (SQLite), whose previous life held them. */
  releaseClaims?: boolean;
  /** Told of a failure of the worker itself (the database), never of a receiver's. */
  onError?: (error: unknown) => void;
}

const DEFAULTS = {
  pollMs: 1_000,
  concurrency: 32,
  leaseMs: 60_000,
  timeoutMs: 10_000,
  responseCapBytes: 64 * 1024,
  keptBodyBytes: 2048,
  retryMs: 2_000,
  maxRetryMs: 600_000,
  maxAttempts: 10,
  retentionMs: 7 * 24 * 3600_000,
  pruneEveryMs: 3600_000,
  releaseClaims: false,
};

/** The hook a delivery goes to, as sending needs it; null once it is deleted. */
async function hookTarget(runtime: ServiceRuntime, delivery: HookDelivery) {
  const { hooks, systemHooks } = runtime.stores;
  if (delivery.hook_scope === "system") {
    const hook = await systemHooks.find(delivery.hook_id);
    return hook ? { hook, token: await systemHooks.sealedToken(hook.id) } : null;
  }
  const hook =
    delivery.project_id === null ? undefined : await hooks.find(delivery.project_id, delivery.hook_id);
  return hook ? { hook, token: await hooks.sealedToken(hook.project_id, hook.id) } : null;
}

const MASKED = "[masked]";

/** Which hook a delivery goes to, as the worker keeps its hooks in flight. */
const hookKey = (delivery: Pick<HookDelivery, "hook_scope" | "hook_id">): string =>
  `${delivery.hook_scope}:${delivery.hook_id}`;

/**
 * Sends the queued webhook deliveries, in the background and never on a request's path: the
 * oldest due delivery of each hook, one at a time per hook (so a receiver that hangs holds up its
 * own hook only) and up to `concurrency` at once. A delivery is claimed before it is sent, so
 * that several processes sharing PostgreSQL never send one at the same time; a process that dies
 * mid-send leaves a claim that expires. Connection errors, timeouts and 5xx are retried with
 * exponential backoff for a bounded time; any other status is final. Each attempt is logged on
 * the delivery. Every request is checked against the local-address rules where it connects.
 */
export class DeliveryWorker {
  readonly #runtime: ServiceRuntime;
  readonly #options: typeof DEFAULTS & DeliveryWorkerOptions;
  /** The hooks (`scope:id`) with a delivery in flight here. */
  readonly #busy = new Set<string>();
  readonly #inFlight = new Set<Promise<void>>();
  #stopped = false;
  #woken = false;
  readonly #sleeper = new InterruptibleSleep();
  #loop: Promise<void> = Promise.resolve();
  #pruneTimer: NodeJS.Timeout | undefined;
  /** The attempts' outcomes, written together when several end at once. */
  readonly #outcomes: CoalescedWrites<{ id: number; attempt: DeliveryAttempt }>;

  constructor(runtime: ServiceRuntime, options: DeliveryWorkerOptions) {
    this.#runtime = runtime;
    this.#options = { ...DEFAULTS, ...options };
    // Claims and outcomes are bookkeeping: lost to a power failure, a delivery is sent again.
    this.#outcomes = new CoalescedWrites((outcomes) =>
      runtime.stores.relaxedTransaction(async (tx) => {
        for (const { id, attempt } of outcomes) await tx.deliveries.record(id, attempt);
      }),
    );
  }

  /** Starts sending (after freeing the claims of a previous life when told to). */
  async start(): Promise<void> {
    if (this.#options.releaseClaims) await this.#runtime.stores.deliveries.releaseClaims();
    this.#loop = this.#run();
    this.#pruneTimer = setInterval(() => void this.#prune(), this.#options.pruneEveryMs);
  }

  /** Looks for due deliveries now (new ones were queued, or a send ended). */
  wake(): void {
    this.#woken = true;
    this.#sleeper.interrupt();
  }

  /** Stops taking deliveries and waits for those in flight (at most one timeout). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#pruneTimer);
    this.wake();
    await this.#loop;
    await Promise.all(this.#inFlight);
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      this.#woken = false;
      try {
        await this.#startDue();
      } catch (error) {
        this.#options.onError?.(error);
      }
      if (!this.#woken) await this.#sleep(this.#options.pollMs);
    }
  }

  #sleep(ms: number): Promise<void> {
    return this.#stopped ? Promise.resolve() : this.#sleeper.sleep(ms);
  }

  /**
   * Claims the oldest due delivery of each idle hook, while there is room, in one write, and
   * starts sending them.
   */
  async #startDue(): Promise<void> {
    const { deliveries } = this.#runtime.stores;
    const room = this.#options.concurrency - this.#inFlight.size;
    if (room <= 0 || this.#stopped) return;
    const at = new Date().toISOString();
    const due = await deliveries.due(at, room + this.#busy.size);
    const idle = due.filter((next) => !this.#busy.has(hookKey(next))).slice(0, room);
    const until = new Date(Date.now() + this.#options.leaseMs).toISOString();
    const ids = idle.map((next) => next.id);
    const claimed = await this.#runtime.stores.relaxedTransaction((tx) =>
      tx.deliveries.claim(ids, at, until),
    );
    for (const delivery of claimed) {
      const key = hookKey(delivery);
      this.#busy.add(key);
      const sending: Promise<void> = this.#deliver(delivery)
        .catch((error: unknown) => this.#options.onError?.(error))
        .finally(() => {
          this.#busy.delete(key);
          this.#inFlight.delete(sending);
          this.wake();
        });
      this.#inFlight.add(sending);
    }
  }

  /** One attempt of a claimed delivery, recorded with what came of it. */
  async #deliver(delivery: HookDelivery): Promise<void> {
    const target = await hookTarget(this.#runtime, delivery);
    if (!target) {
      await this.#record(delivery, null, null, this.#failure("final", "the hook was deleted"));
      return;
    }
    const { hook, token } = target;
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      "User-Agent": this.#options.userAgent,
      "X-Gitlab-Event": delivery.event_name,
      "X-Kiln-Delivery": delivery.uuid,
    };
    const plainToken = token ? this.#runtime.secrets.open(token) : null;
    const { allow_local_requests_from_hooks } = await this.#runtime.settings();
    const response = await sendHook({
      url: hook.url,
      headers: plainToken ? { ...headers, "X-Gitlab-Token": plainToken } : headers,
      body: delivery.payload,
      verifyTls: hook.enable_ssl_verification,
      allowLocal: allow_local_requests_from_hooks,
      timeoutMs: this.#options.timeoutMs,
      responseCapBytes: this.#options.responseCapBytes,
    });
    const logged = plainToken ? { ...headers, "X-Gitlab-Token": MASKED } : headers;
    await this.#record(delivery, hook.url, logged, response);
  }

  #failure(outcome: "final", error: string): HookResponse {
    return { outcome, status: null, headers: null, body: null, error, durationMs: 0 };
  }

  async #record(
    delivery: HookDelivery,
    url: string | null,
    headers: Record<string, string> | null,
    response: HookResponse,
  ): Promise<void> {
    const attempt = delivery.attempts + 1;
    const retry = response.outcome === "retry" && attempt < this.#options.maxAttempts;
    const waitMs = Math.min(this.#options.retryMs * 2 ** (attempt - 1), this.#options.maxRetryMs);
    const outcome: DeliveryAttempt = {
      state: response.outcome === "delivered" ? "delivered" : retry ? "pending" : "failed",
      next_attempt_at: retry ? new Date(Date.now() + waitMs).toISOString() : null,
      url,
      request_headers: headers,
      response_status: response.status,
      response_headers: response.headers,
      response_body: response.body?.slice(0, this.#options.keptBodyBytes) ?? null,
      error: response.error,
      duration_ms: response.durationMs,
    };
    await this.#outcomes.add({ id: delivery.id, attempt: outcome });
  }

  async #prune(): Promise<void> {
    try {
      await this.#runtime.stores.deliveries.prune(
        new Date(Date.now() - this.#options.retentionMs).toISOString(),
      );
    } catch (error) {
      this.#options.onError?.(error);
    }
  }
}
