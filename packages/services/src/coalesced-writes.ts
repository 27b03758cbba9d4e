/**
 * Writes that may wait a moment to share one transaction: on SQLite with `synchronous=FULL` each
 * commit is a disk flush, so a background worker that committed once per item would be bound by
 * the disk's flush rate. Items added while a write runs go together in the next one; an item
 * added to an idle writer is written at once, so a quiet server adds no delay.
 */
export class CoalescedWrites<T> {
  readonly #write: (items: T[]) => Promise<void>;
  #waiting: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  #writing = false;

  /** `write` writes a batch at once (one transaction). */
  constructor(write: (items: T[]) => Promise<void>) {
    this.#write = write;
  }

  /** Resolves once `item` is written (with those that came with it); rejects if that write failed. */
  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      if (!this.#writing) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#writing = true;
    while (this.#waiting.length > 0) {
      const batch = this.#waiting;
      this.#waiting = [];
      try {
        await this.#write(batch.map((entry) => entry.item));
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.#writing = false;
  }
}
