import { isAbsolute, resolve } from "node:path";
import { STUCK_BUILD_SECONDS } from "@kiln/domain";
import type { DatabaseLocation, SqliteSynchronous } from "@kiln/storage-kysely";

/** The server's configuration, read from the environment. */
export interface Config {
  port: number;
  /** Where the SQLite file, repositories, uploads and the secret key live. */
  dataDir: string;
  /** The public URL; null means `http://localhost:<port actually bound>`. */
  baseUrl: string | null;
  rootPassword: string | undefined;
  database: DatabaseLocation;
  logLevel: string;
  /**
   * Whether this process runs the background workers (the outbox's dispatcher); off for a
   * web-only process beside others that run them on one PostgreSQL database.
   */
  workers: boolean;
  /**
   * Whether `kiln serve` runs builds itself, with a `kiln runner` child (`KILN_EMBEDDED_RUNNER`,
   * default off): for a single-user machine, as builds run as the server's OS user.
   */
  embeddedRunner: boolean;
  /** The longest a runner's request for a build waits for one, in ms (`KILN_RUNNER_WAIT_SECONDS`, default 50). */
  runnerWaitMs: number;
  /**
   * Whether password sign-ins are throttled per client address and failures lock accounts
   * (`KILN_SIGN_IN_THROTTLE`, default on; GitLab 8.x's limits).
   */
  signInThrottle: boolean;
  /** The CI janitor (stuck and timed-out builds, expired artifacts), run with the workers. */
  ciJanitor: {
    /** Between two sweeps, in ms (`KILN_CI_SWEEP_SECONDS`, default 60). */
    everyMs: number;
    /** A pending or running build not updated for this long is failed (`KILN_CI_STUCK_SECONDS`, default 8.x's day). */
    stuckSeconds: number;
  };
}

/** A configuration problem, reported as one line before anything starts. */
export class ConfigError extends Error {}

const LOG_LEVELS = new Set(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

function port(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 8080;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value > 65535)
    throw new ConfigError(`PORT must be a number from 0 to 65535, got "${raw}"`);
  return value;
}

function baseUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === "") return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`KILN_BASE_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(`KILN_BASE_URL must use http or https, got "${raw}"`);
  }
  if (url.search || url.hash)
    throw new ConfigError(`KILN_BASE_URL must not carry a query or fragment, got "${raw}"`);
  return url.toString().replace(/\/+$/, "");
}

function database(
  raw: string | undefined,
  dataDir: string,
  synchronous: string | undefined,
): DatabaseLocation {
  if (raw !== undefined && raw !== "") {
    if (!/^postgres(ql)?:\/\//.test(raw)) {
      throw new ConfigError(
        "DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite)",
      );
    }
    return { kind: "postgres", url: raw };
  }
  const sync = (synchronous ?? "FULL").toUpperCase();
  if (sync !== "FULL" && sync !== "NORMAL") {
    throw new ConfigError(`KILN_SQLITE_SYNCHRONOUS must be FULL or NORMAL, got "${synchronous}"`);
  }
  return {
    kind: "sqlite",
    filename: resolve(dataDir, "kiln.sqlite"),
    synchronous: sync as SqliteSynchronous,
  };
}

/** `on` or `off` (any case) from the environment, `fallback` when unset. */
function onOff(name: string, raw: string | undefined, fallback: "on" | "off"): boolean {
  const value = (raw || fallback).toLowerCase();
  if (value !== "on" && value !== "off") throw new ConfigError(`${name} must be on or off, got "${raw}"`);
  return value === "on";
}

function runnerWaitMs(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 50_000;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value > 300) {
    throw new ConfigError(`KILN_RUNNER_WAIT_SECONDS must be a number from 0 to 300, got "${raw}"`);
  }
  return value * 1000;
}

/** A positive number of seconds from the environment (fractions allowed), or `fallback` when unset. */
function seconds(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || value <= 0)
    throw new ConfigError(`${name} must be a positive number of seconds, got "${raw}"`);
  return value;
}

/**
 * Reads `PORT`, `KILN_DATA_DIR`, `KILN_BASE_URL`, `KILN_ROOT_PASSWORD`, `DATABASE_URL`,
 * `KILN_SQLITE_SYNCHRONOUS`, `KILN_WORKERS`, `KILN_EMBEDDED_RUNNER`, `KILN_SIGN_IN_THROTTLE`, `KILN_RUNNER_WAIT_SECONDS`,
 * `KILN_CI_SWEEP_SECONDS`, `KILN_CI_STUCK_SECONDS` and `LOG_LEVEL`; throws a {@link ConfigError} naming the first bad one.
 */
export function readConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): Config {
  const dataDirRaw = env["KILN_DATA_DIR"] || "./data";
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(cwd, dataDirRaw);
  const rootPassword = env["KILN_ROOT_PASSWORD"] || undefined;
  if (rootPassword !== undefined && rootPassword.length < 8) {
    throw new ConfigError("KILN_ROOT_PASSWORD must be at least 8 characters");
  }
  const logLevel = (env["LOG_LEVEL"] || "info").toLowerCase();
  if (!LOG_LEVELS.has(logLevel))
    throw new ConfigError(`LOG_LEVEL must be one of ${[...LOG_LEVELS].join(", ")}`);
  return {
    port: port(env["PORT"]),
    dataDir,
    baseUrl: baseUrl(env["KILN_BASE_URL"]),
    rootPassword,
    database: database(env["DATABASE_URL"], dataDir, env["KILN_SQLITE_SYNCHRONOUS"]),
    logLevel,
    workers: onOff("KILN_WORKERS", env["KILN_WORKERS"], "on"),
    embeddedRunner: onOff("KILN_EMBEDDED_RUNNER", env["KILN_EMBEDDED_RUNNER"], "off"),
    signInThrottle: onOff("KILN_SIGN_IN_THROTTLE", env["KILN_SIGN_IN_THROTTLE"], "on"),
    runnerWaitMs: runnerWaitMs(env["KILN_RUNNER_WAIT_SECONDS"]),
    ciJanitor: {
      everyMs: seconds("KILN_CI_SWEEP_SECONDS", env["KILN_CI_SWEEP_SECONDS"], 60) * 1000,
      stuckSeconds: seconds("KILN_CI_STUCK_SECONDS", env["KILN_CI_STUCK_SECONDS"], STUCK_BUILD_SECONDS),
    },
  };
}
