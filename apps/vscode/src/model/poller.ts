/**
 * When the views look for changes without a live stream: only while the window is focused, one
 * request at a time, every `baseMs` after a change and doubling (up to `maxFactor` times) while
 * nothing changes; at once on regaining focus if the last look is older than the current delay.
 * The clock and timers are passed in, so the policy is tested without waiting.
 */

/** Timers as the poller uses them (the global ones, or a test's). */
export interface Timers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface PollerOptions {
  /** Looks once; answers whether anything changed. */
  poll: () => Promise<boolean>;
  baseMs: number;
  /** The longest delay is `baseMs * maxFactor`. */
  maxFactor?: number;
  timers?: Timers;
}

const systemTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class Poller {
  private readonly timers: Timers;
  private baseMs: number;
  private maxMs: number;
  private delayMs: number;
  private focused = false;
  private lastPoll = Number.NEGATIVE_INFINITY;
  private timer: unknown = null;
  private inFlight: Promise<void> | null = null;
  private followUp: Promise<void> | null = null;
  private disposed = false;

  constructor(private readonly options: PollerOptions) {
    this.timers = options.timers ?? systemTimers;
    this.baseMs = options.baseMs;
    this.delayMs = options.baseMs;
    this.maxMs = options.baseMs * (options.maxFactor ?? 16);
  }

  /**
   * Changes the shortest delay (slower while a live stream brings the changes it carries); the
   * next look is rescheduled from the last one.
   */
  setBaseMs(baseMs: number): void {
    if (baseMs === this.baseMs) return;
    const faster = baseMs < this.baseMs;
    this.baseMs = baseMs;
    this.maxMs = baseMs * (this.options.maxFactor ?? 16);
    // Faster (the stream dropped): changes are no longer brought, look again soon.
    this.delayMs = faster ? baseMs : Math.min(Math.max(this.delayMs, baseMs), this.maxMs);
    if (this.focused && !this.disposed && !this.inFlight) this.setFocused(true);
  }

  /** The delay before the next look, while focused. */
  get currentDelayMs(): number {
    return this.delayMs;
  }

  /** Starts (focused) or stops (unfocused) looking. */
  setFocused(focused: boolean): void {
    this.focused = focused;
    this.clear();
    if (!focused || this.disposed) return;
    const due = this.lastPoll + this.delayMs - this.timers.now();
    if (due <= 0) void this.pollNow();
    else this.schedule(due);
  }

  /**
   * Looks now (a manual refresh, or a change the extension made itself): joins a look in flight
   * rather than starting a second one; a change found resets the delay.
   */
  pollNow(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    this.clear();
    this.inFlight = (async () => {
      let changed = false;
      try {
        changed = await this.options.poll();
      } catch {
        // A failed look counts as no change: the next one waits longer, never floods.
      } finally {
        this.lastPoll = this.timers.now();
        this.delayMs = changed ? this.baseMs : Math.min(this.delayMs * 2, this.maxMs);
        this.inFlight = null;
        if (this.focused && !this.disposed) this.schedule(this.delayMs);
      }
    })();
    return this.inFlight;
  }

  /**
   * Looks after a change known to have happened just now: a look in flight may have read before
   * it, so one more look follows that one (one for however many changes arrive meanwhile).
   */
  pollAfterChange(): Promise<void> {
    if (!this.inFlight) return this.pollNow();
    this.followUp ??= this.inFlight.then(() => {
      this.followUp = null;
      return this.disposed ? undefined : this.pollNow();
    });
    return this.followUp;
  }

  dispose(): void {
    this.disposed = true;
    this.clear();
  }

  private schedule(ms: number): void {
    this.clear();
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      void this.pollNow();
    }, ms);
  }

  private clear(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}
