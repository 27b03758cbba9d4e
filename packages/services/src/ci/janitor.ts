import { STUCK_BUILD_SECONDS } from "@kiln/domain";
import { InterruptibleSleep } from "../interruptible-sleep.js";
import type { ServiceRuntime } from "../runtime.js";
import { failStuckBuilds, failTimedOutBuilds, removeExpiredArtifacts } from "./sweeps.js";

/** How often the CI janitor sweeps, and when a build counts as stuck. */
export interface CiJanitorOptions {
  /** Between two sweeps, in ms (default one minute). */
  everyMs?: number;
  /** A pending or running build not updated for this long is failed (default 8.x's day). */
  stuckSeconds?: number;
  /** Told of a sweep that failed; the next one runs anyway. */
  onError?: (error: unknown) => void;
}

/** What one sweep did: the builds it failed or whose artifacts it removed. */
export interface CiSweep {
  stuck: number[];
  timedOut: number[];
  artifactsExpired: number[];
}

/**
 * The server's CI janitor, 8.x's cron workers in one loop: stuck builds and builds past their
 * project's `build_timeout` are failed, expired artifacts removed. Safe to run in several
 * processes on one database (each end is a compare and swap).
 */
export class CiJanitor {
  readonly #runtime: ServiceRuntime;
  readonly #everyMs: number;
  readonly #stuckSeconds: number;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #sleeper = new InterruptibleSleep();
  #stopped = false;
  #loop: Promise<void> = Promise.resolve();

  constructor(runtime: ServiceRuntime, options: CiJanitorOptions = {}) {
    this.#runtime = runtime;
    this.#everyMs = options.everyMs ?? 60_000;
    this.#stuckSeconds = options.stuckSeconds ?? STUCK_BUILD_SECONDS;
    this.#onError = options.onError;
  }

  /** Sweeps now and then every period until stopped. */
  start(): void {
    this.#loop = this.#run();
  }

  /** Stops sweeping, waiting for a sweep under way to end. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#sleeper.interrupt(true);
    await this.#loop;
  }

  /** One sweep of each kind. */
  async sweep(at = Date.now()): Promise<CiSweep> {
    return {
      stuck: await failStuckBuilds(this.#runtime, this.#stuckSeconds, at),
      timedOut: await failTimedOutBuilds(this.#runtime, at),
      artifactsExpired: await removeExpiredArtifacts(this.#runtime, at),
    };
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      try {
        await this.sweep();
      } catch (error) {
        this.#onError?.(error);
      }
      if (!this.#stopped) await this.#sleeper.sleep(this.#everyMs);
    }
  }
}
