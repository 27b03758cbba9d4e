import { describe, expect, it, vi } from "vitest";
import { Poller, type Timers } from "./poller.js";

/** Timers that run only when the test moves the clock. */
class FakeTimers implements Timers {
  time = 0;
  private pending: { at: number; run: () => void; id: number }[] = [];
  private nextId = 1;
  now = () => this.time;
  setTimeout = (run: () => void, ms: number) => {
    const id = this.nextId++;
    this.pending.push({ at: this.time + ms, run, id });
    return id;
  };
  clearTimeout = (handle: unknown) => {
    this.pending = this.pending.filter((timer) => timer.id !== handle);
  };
  get scheduled(): number {
    return this.pending.length;
  }
  /** Moves the clock by `ms`, running the timers due, and lets their polls settle. */
  async advance(ms: number): Promise<void> {
    const until = this.time + ms;
    for (;;) {
      const due = this.pending.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.pending = this.pending.filter((timer) => timer !== due);
      this.time = due.at;
      due.run();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    }
    this.time = until;
  }
}

function setup(changes: boolean[] = []) {
  const timers = new FakeTimers();
  const polls: number[] = [];
  const poller = new Poller({
    baseMs: 60_000,
    maxFactor: 4,
    timers,
    poll: async () => {
      polls.push(timers.now());
      return changes.shift() ?? false;
    },
  });
  return { timers, polls, poller };
}

describe("Poller", () => {
  it("looks at once when focused, then backs off while nothing changes, up to the cap", async () => {
    const { timers, polls, poller } = setup([true]);
    poller.setFocused(true);
    await timers.advance(0);
    await timers.advance(60_000 * 20);
    // changed at 0 → 60 s; then nothing: 120 s, 240 s, then 240 s each (cap 4×).
    expect(polls.slice(0, 6)).toEqual([0, 60_000, 180_000, 420_000, 660_000, 900_000]);
  });

  it("goes back to the base delay when something changed", async () => {
    const { timers, polls, poller } = setup([false, false, true, false]);
    poller.setFocused(true);
    await timers.advance(0);
    await timers.advance(60_000 * 10);
    expect(polls.slice(0, 5)).toEqual([0, 120_000, 360_000, 420_000, 540_000]);
  });

  it("never looks while the window is not focused, and looks on focus only when due", async () => {
    const { timers, polls, poller } = setup([true]);
    poller.setFocused(true);
    await timers.advance(0);
    poller.setFocused(false);
    await timers.advance(60_000 * 60);
    expect(polls).toEqual([0]);
    expect(timers.scheduled).toBe(0);
    poller.setFocused(true);
    await timers.advance(0);
    expect(polls).toEqual([0, 3_600_000]);
    poller.setFocused(false);
    poller.setFocused(true);
    await timers.advance(0);
    expect(polls).toHaveLength(2);
  });

  it("joins a look in flight instead of starting a second", async () => {
    const timers = new FakeTimers();
    let release: (changed: boolean) => void = () => {};
    let calls = 0;
    const poller = new Poller({
      baseMs: 1000,
      timers,
      poll: () => {
        calls++;
        return new Promise<boolean>((resolve) => (release = resolve));
      },
    });
    const first = poller.pollNow();
    const second = poller.pollNow();
    release(true);
    await Promise.all([first, second]);
    expect(calls).toBe(1);
  });

  it("looks once more after a look in flight when changes arrive during it", async () => {
    const timers = new FakeTimers();
    const releases: ((changed: boolean) => void)[] = [];
    const poller = new Poller({
      baseMs: 1000,
      timers,
      poll: () => new Promise<boolean>((resolve) => releases.push(resolve)),
    });
    const first = poller.pollNow();
    // Two changes while the first look runs: it may have read before them.
    const afterFirst = poller.pollAfterChange();
    const afterSecond = poller.pollAfterChange();
    releases[0]?.(true);
    await first;
    await vi.waitFor(() => expect(releases).toHaveLength(2));
    releases[1]?.(true);
    await Promise.all([afterFirst, afterSecond]);
    expect(releases).toHaveLength(2);
    // With nothing in flight, a change looks at once, as a refresh does.
    const alone = poller.pollAfterChange();
    expect(releases).toHaveLength(3);
    releases[2]?.(false);
    await alone;
    poller.dispose();
  });

  it("counts a failed look as no change and keeps going, slower", async () => {
    const timers = new FakeTimers();
    let calls = 0;
    const poller = new Poller({
      baseMs: 1000,
      timers,
      poll: async () => {
        calls++;
        throw new Error("offline");
      },
    });
    poller.setFocused(true);
    await timers.advance(0);
    expect(poller.currentDelayMs).toBe(2000);
    await timers.advance(2000);
    expect(calls).toBe(2);
    poller.dispose();
    await timers.advance(100_000);
    expect(calls).toBe(2);
  });

  it("slows down when a live stream brings changes, and speeds up when it drops", async () => {
    const { timers, polls, poller } = setup([true, true, true, true]);
    poller.setFocused(true);
    await timers.advance(0);
    poller.setBaseMs(240_000);
    await timers.advance(240_000);
    expect(polls).toEqual([0, 240_000]);
    poller.setBaseMs(60_000);
    await timers.advance(60_000);
    expect(polls).toEqual([0, 240_000, 300_000]);
  });
});
