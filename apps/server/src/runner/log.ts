/** The few log calls the runner makes; the `kiln` logger (pino) is one, a test may pass a quiet one. */
export interface RunnerLog {
  info(facts: object, message: string): void;
  warn(facts: object, message: string): void;
  error(facts: object, message: string): void;
}

/** A log that drops everything. */
export const QUIET_LOG: RunnerLog = { info() {}, warn() {}, error() {} };
