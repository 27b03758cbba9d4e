import { type RunnerApi, UnavailableError } from "./api-client.js";
import type { RunnerLog } from "./log.js";
import { type RetryPolicy, untilAvailable } from "./retry.js";
import type { TraceBuffer } from "./trace-buffer.js";

/** How often the trace is sent while it grows, and how often an idle build asks whether it was canceled. */
export interface TraceTiming {
  intervalMs: number;
  keepaliveMs: number;
  retry?: RetryPolicy;
}

export const TRACE_TIMING: TraceTiming = { intervalMs: 1000, keepaliveMs: 3000 };

/** How the build ended on the server: reported by us, or canceled (or taken away) there. */
export type TraceOutcome = "reported" | "canceled";

/**
 * Sends a running build's trace to the server as it grows: `PATCH builds/:id/trace.txt` with a
 * `Content-Range` from where the server's copy ends (re-sending from the server's length after a
 * 416), falling back to `PUT builds/:id` with the whole trace on a server without the PATCH. An
 * idle build still sends an empty patch now and then, to learn of a cancel. A cancel (a 403, or
 * `Build-Status: canceled`) aborts {@link canceled}; the build's process group is killed on it.
 */
export class TraceStream {
  private readonly cancel = new AbortController();
  private sent = 0;
  private wholeTrace = false;
  private lastContact = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly api: RunnerApi,
    private readonly build: { id: number; token: string; runnerToken: string },
    private readonly trace: TraceBuffer,
    private readonly log: RunnerLog,
    private readonly timing: TraceTiming = TRACE_TIMING,
  ) {}

  /** Aborted when the server says the build was canceled. */
  get canceled(): AbortSignal {
    return this.cancel.signal;
  }

  /** How many bytes the server is known to hold. */
  get sentLength(): number {
    return this.sent;
  }

  start(): void {
    this.timer = setInterval(() => this.tick(), this.timing.intervalMs);
  }

  /**
   * Stops the periodic sending, delivers the rest of the trace and reports `state` with
   * `PUT builds/:id`, waiting out a server that is away. Answers "canceled" when the server
   * canceled the build (nothing is reported then).
   */
  async finish(state: "success" | "failed"): Promise<TraceOutcome> {
    clearInterval(this.timer);
    await this.inFlight;
    const context = { log: this.log, ...(this.timing.retry ? { policy: this.timing.retry } : {}) };
    for (
      let rounds = 0;
      !this.cancel.signal.aborted && !this.wholeTrace && this.sent < this.trace.length;
      rounds++
    ) {
      if (rounds === 10)
        this.wholeTrace = true; // no progress by patches: the PUT carries it all
      else await untilAvailable("trace", () => this.push(), context);
    }
    if (this.cancel.signal.aborted) return "canceled";
    const whole = this.wholeTrace || this.sent < this.trace.length ? this.trace.toString() : undefined;
    const answer = await untilAvailable(
      "build state",
      () => this.api.updateBuild(this.build.runnerToken, this.build.id, state, whole),
      context,
    );
    if (answer.kind === "gone") return "canceled";
    if (answer.kind === "failed")
      this.log.error({ build: this.build.id, status: answer.status }, "state refused");
    return "reported";
  }

  private tick(): void {
    if (this.inFlight || this.cancel.signal.aborted) return;
    const idle = this.sent === this.trace.length;
    if (idle && Date.now() - this.lastContact < this.timing.keepaliveMs) return;
    this.inFlight = this.push()
      .catch((error: unknown) => {
        if (!(error instanceof UnavailableError)) throw error;
        this.log.warn({ build: this.build.id, error: error.message }, "trace not sent; will retry");
      })
      .catch((error: unknown) => {
        this.log.error({ build: this.build.id, error: (error as Error).message }, "trace not sent");
      })
      .finally(() => {
        this.inFlight = null;
      });
  }

  /** One delivery of what the server lacks; throws {@link UnavailableError} when it is away. */
  private async push(): Promise<void> {
    if (this.wholeTrace) return this.putWhole();
    const offset = this.sent;
    const bytes = this.trace.from(offset);
    const answer = await this.api.patchTrace(this.build.id, this.build.token, offset, bytes);
    this.lastContact = Date.now();
    switch (answer.kind) {
      case "appended":
        this.sent = Math.min(answer.length, offset + bytes.length);
        if (answer.canceled) this.cancel.abort();
        return;
      case "range_mismatch":
        this.sent = Math.min(answer.length, this.trace.length);
        return;
      case "forbidden":
        this.cancel.abort();
        return;
      case "unsupported":
      case "failed":
        this.log.warn(
          { build: this.build.id, answer },
          "trace patch refused; sending the whole trace instead",
        );
        this.wholeTrace = true;
        return this.putWhole();
    }
  }

  private async putWhole(): Promise<void> {
    const length = this.trace.length;
    const answer = await this.api.updateBuild(
      this.build.runnerToken,
      this.build.id,
      "running",
      this.trace.toString(),
    );
    this.lastContact = Date.now();
    if (answer.kind === "gone") this.cancel.abort();
    else if (answer.kind === "ok") this.sent = length;
  }
}
