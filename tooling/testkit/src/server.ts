import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import {
  createThrowawayPostgres,
  TEST_PG_URL_ENV,
  type ThrowawayPostgres,
} from "@kiln/storage-kysely/testing";

/** How to start a server under test. */
export interface StartOptions {
  /** The server's entry point (`apps/server/dist/main.js`). */
  entry: string;
  /** `sqlite` (default) in the data dir, or a fresh database on `KILN_TEST_PG_URL`. */
  database?: "sqlite" | "postgres";
  /**
   * Extra environment; `PORT`, `KILN_DATA_DIR` and `KILN_ROOT_PASSWORD` are set unless given, and
   * `KILN_SIGN_IN_THROTTLE` is `off` unless given.
   */
  env?: Record<string, string>;
  /** Reuse a data dir (to restart a server on the same data); a new temp dir by default. */
  dataDir?: string;
  /**
   * Start on the data of a server that stopped or was killed: its data dir, its database (SQLite
   * in the data dir, or the same PostgreSQL database) and its root password. `database` and
   * `dataDir` are then ignored; stopping the new server with `remove` removes that data.
   */
  restartOf?: KilnProcess;
  /** How long to wait for "listening", in ms. */
  readyTimeoutMs?: number;
}

/** A real `kiln serve` process on loopback. */
export interface KilnProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  dataDir: string;
  rootPassword: string;
  /** The Kiln environment the server runs with (data dir, database URL), for running the CLI beside it. */
  kilnEnv: Record<string, string>;
  /** Every JSON log line the server printed so far. */
  logs: Record<string, unknown>[];
  /** Milliseconds from spawn to the "listening" log line. */
  readyMs: number;
  process: ChildProcess;
  /** Sends SIGTERM and resolves with the exit code; `remove` also deletes the data dir and database. */
  stop(options?: { remove?: boolean }): Promise<number | null>;
  /** Sends SIGKILL (no chance to finish anything) and resolves once the process is gone; the data stays. */
  kill(): Promise<void>;
  /** Deletes the data dir (unless the caller gave it) and the database this server (or the one it restarted) created. */
  remove(): Promise<void>;
}

/** Whether PostgreSQL tests can run here, and why not. */
export function postgresUnavailable(): string | null {
  return process.env[TEST_PG_URL_ENV] ? null : `set ${TEST_PG_URL_ENV} to run`;
}

/**
 * Starts `kiln serve` as a child process on a free port with a temp data dir, and resolves once it
 * logs "listening". The root password is random and known to the test.
 */
export async function startKiln(options: StartOptions): Promise<KilnProcess> {
  const previous = options.restartOf;
  const dataDir = previous?.dataDir ?? options.dataDir ?? mkdtempSync(join(tmpdir(), "kiln-test-"));
  const rootPassword =
    previous?.rootPassword ?? options.env?.["KILN_ROOT_PASSWORD"] ?? `root-${randomBytes(8).toString("hex")}`;
  let postgres: ThrowawayPostgres | undefined;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: "0",
    KILN_DATA_DIR: dataDir,
    KILN_ROOT_PASSWORD: rootPassword,
    LOG_LEVEL: "info",
    // Every test signs its users in from loopback, many a minute: the throttle's own tests turn it on.
    KILN_SIGN_IN_THROTTLE: "off",
    ...options.env,
  };
  const previousDatabase = previous?.kilnEnv["DATABASE_URL"];
  if (previousDatabase) env["DATABASE_URL"] = previousDatabase;
  else if (options.database === "postgres" && !previous) {
    const serverUrl = process.env[TEST_PG_URL_ENV];
    if (!serverUrl) throw new Error(`${TEST_PG_URL_ENV} is not set`);
    postgres = await createThrowawayPostgres(serverUrl);
    env["DATABASE_URL"] = postgres.url;
  }
  const started = performance.now();
  const child = spawn(process.execPath, [options.entry, "serve"], { env, stdio: ["ignore", "pipe", "pipe"] });
  const logs: Record<string, unknown>[] = [];
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL"); // a server that never got ready must not outlive the test
      reject(new Error(`kiln did not start within ${options.readyTimeoutMs ?? 15_000} ms: ${stderr}`));
    }, options.readyTimeoutMs ?? 15_000);
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      logs.push(entry);
      if (entry["msg"] === "listening") {
        clearTimeout(timer);
        resolve(entry["port"] as number);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`kiln exited with ${code} before listening: ${stderr}`));
    });
  });
  const readyMs = performance.now() - started;
  const removeData = async () => {
    if (previous) return previous.remove();
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  };

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    rootPassword,
    kilnEnv: Object.fromEntries(
      Object.entries(env).filter(([key]) => key.startsWith("KILN_") || key === "DATABASE_URL"),
    ),
    logs,
    readyMs,
    process: child,
    stop: async ({ remove = true } = {}) => {
      if (!child.killed && child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const code = await exited;
      if (remove) await removeData();
      return code;
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
    remove: removeData,
  };
}
