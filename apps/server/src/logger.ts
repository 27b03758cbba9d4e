import pino from "pino";

/** The server's structured logger: one JSON object per line on stdout. */
export type Logger = pino.Logger;

/** Creates the logger; secrets never reach it (request lines carry the path without its query). */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: null,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}
