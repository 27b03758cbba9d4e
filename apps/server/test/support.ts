import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  type ApiRequest,
  type ApiResponse,
  call,
  type KilnProcess,
  postgresUnavailable,
  type StartOptions,
  signInAsRoot,
  startKiln,
  type TestUser,
} from "@kiln/testkit";
import { afterAll, beforeAll, describe } from "vitest";

/** The bundled server under test (`KILN_SERVER_ENTRY` names another bundle, see build.mjs). */
export const ENTRY =
  process.env["KILN_SERVER_ENTRY"] ?? fileURLToPath(new URL("../dist/main.js", import.meta.url));

/** Starts the bundled server with the testkit. */
export const start = (options: Omit<StartOptions, "entry"> = {}): Promise<KilnProcess> =>
  startKiln({ entry: ENTRY, ...options });

/** A server shared by the tests of one suite, with root signed in. */
export interface Served {
  server: KilnProcess;
  root: TestUser;
  api<T = unknown>(request: ApiRequest): Promise<ApiResponse<T>>;
}

/**
 * Runs `suite` against a real server on each available database: SQLite always, PostgreSQL when
 * KILN_TEST_PG_URL is set. One server per database for the whole suite, started with `options`.
 */
export function onEachDatabase(
  name: string,
  suite: (served: () => Served) => void,
  options: Omit<StartOptions, "entry" | "database"> = {},
): void {
  for (const database of ["sqlite", "postgres"] as const) {
    const unavailable = database === "postgres" ? postgresUnavailable() : null;
    describe.skipIf(unavailable !== null)(
      `${name} (${database}${unavailable ? `: ${unavailable}` : ""})`,
      () => {
        let served: Served;
        beforeAll(async () => {
          const server = await start({ ...options, database });
          const root = await signInAsRoot(server);
          served = { server, root, api: (request) => call(server.url, request) };
        });
        afterAll(async () => {
          await served?.server.stop();
        });
        suite(() => served);
      },
    );
  }
}

/** Runs the `kiln` CLI to completion with extra environment; resolves with its exit code and output. */
export function runKiln(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ENTRY, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}
