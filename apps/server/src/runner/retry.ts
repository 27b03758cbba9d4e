import { UnavailableError } from "./api-client.js";
import type { RunnerLog } from "./log.js";

/** Delays that double from `minMs` up to `maxMs`, back to `minMs` after a success. */
export class Backoff {
  private current: number;

  constructor(
    private readonly minMs: number,
    private readonly maxMs: number,
  ) {
    this.current = minMs;
  }

  /** The next delay to wait. */
  next(): number {
    const delay = this.current;
    this.current = Math.min(this.current * 2, this.maxMs);
    return delay;
  }

  reset(): void {
    this.current = this.minMs;
  }
}

/** Waits `ms`, or less when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** How long the runner waits between attempts while the server is away (a restart, a deploy). */
export interface RetryPolicy {
  minMs: number;
  maxMs: number;
  /** Give up after this many attempts (the last error is thrown); unbounded when absent. */
  attempts?: number;
}

export const SERVER_AWAY: RetryPolicy = { minMs: 1000, maxMs: 10_000 };

/**
 * Runs `attempt` until it does not throw {@link UnavailableError}, waiting with backoff between
 * tries and logging each wait. Other errors pass through at once; so does an abort of `signal`
 * (then the last error is thrown).
 */
export async function untilAvailable<T>(
  what: string,
  attempt: () => Promise<T>,
  context: { log: RunnerLog; policy?: RetryPolicy; signal?: AbortSignal },
): Promise<T> {
  const policy = context.policy ?? SERVER_AWAY;
  const backoff = new Backoff(policy.minMs, policy.maxMs);
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof UnavailableError)) throw error;
      if (context.signal?.aborted || (policy.attempts !== undefined && tries >= policy.attempts)) throw error;
      const delay = backoff.next();
      context.log.warn({ what, error: error.message, retryInMs: delay }, "server unavailable; retrying");
      await sleep(delay, context.signal);
    }
  }
}
