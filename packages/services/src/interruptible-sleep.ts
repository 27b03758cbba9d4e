/**
 * A worker's wait for its next poll that another caller may cut short: a wake-up ends a wakeable
 * sleep, a stop ends any (the outbox's retry backoff and burst coalescing are not wakeable).
 */
export class InterruptibleSleep {
  #current: { wakeable: boolean; end(): void } | null = null;

  /** Resolves after `ms`, or when {@link interrupt} ends it first. */
  sleep(ms: number, wakeable = true): Promise<void> {
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.#current = null;
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.#current = { wakeable, end };
    });
  }

  /** Ends the current sleep if it is wakeable, or whatever it is when `stopping`. */
  interrupt(stopping = false): void {
    if (this.#current && (stopping || this.#current.wakeable)) this.#current.end();
  }
}
