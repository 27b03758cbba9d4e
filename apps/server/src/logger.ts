import pino from "pino";

/** The server's structured logger: one JSON object per line on stdout. */
export type Logger = pino.Logger;

/** Longest a log line waits in the buffer before it is written, in ms. */
const FLUSH_EVERY_MS = 200;

/**
 * Creates the logger; secrets never reach it (request lines carry the path without its query).
 * Lines are buffered and written 4 KiB at a time, or at least every 200 ms: a write per request
 * cost about 12 µs here, half of a cached `GET /user`. Exit through {@link exitAfterLogs}.
 */
export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), FLUSH_EVERY_MS).unref();
  process.once("exit", () => {
    try {
      destination.flushSync();
    } catch {
      // a write still in flight: nothing more can be done while exiting
    }
  });
  return pino(
    {
      level,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** Exits once the buffered log lines are written. */
export function exitAfterLogs(log: Logger, code: number): void {
  log.flush(() => process.exit(code));
}
