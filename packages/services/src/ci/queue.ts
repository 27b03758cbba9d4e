import type { ServiceRuntime } from "../runtime.js";

/**
 * Where runners waiting for a build (long poll) sleep until a build may be there for them: woken
 * in this process when a build becomes pending, and by their own poll interval for builds made
 * pending by other processes sharing the database.
 */
export class BuildQueue {
  #sleepers = new Set<() => void>();

  /** Resolves at the next {@link wake}, or after `ms`, whichever comes first. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.#sleepers.delete(end);
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.#sleepers.add(end);
    });
  }

  /** Wakes every sleeper: a build became pending. */
  wake(): void {
    for (const end of [...this.#sleepers]) end();
  }

  /** How many runners wait now (for tests and metrics). */
  get waiting(): number {
    return this.#sleepers.size;
  }
}

const queues = new WeakMap<ServiceRuntime, BuildQueue>();

/** The build queue of a runtime (one per process). */
export function buildQueue(runtime: ServiceRuntime): BuildQueue {
  let queue = queues.get(runtime);
  if (!queue) {
    queue = new BuildQueue();
    queues.set(runtime, queue);
  }
  return queue;
}
