import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createThrowawayPostgres, TEST_PG_URL_ENV } from "@kiln/storage-kysely/testing";
import { type KilnProcess, postgresUnavailable, signIn } from "@kiln/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { runKiln, start } from "./support.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "kiln-concurrent-start-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An empty PostgreSQL database, dropped after the test. */
async function emptyPostgres(): Promise<string> {
  const postgres = await createThrowawayPostgres(process.env[TEST_PG_URL_ENV] as string);
  cleanups.push(() => postgres.drop());
  return postgres.url;
}

const CREATED = "created the administrator; this password is shown once";

describe("several processes starting at once on an empty data dir and database", () => {
  for (const database of ["sqlite", "postgres"] as const) {
    const unavailable = database === "postgres" ? postgresUnavailable() : null;
    it.skipIf(unavailable !== null)(`all apply the migrations (${database})`, async () => {
      const env: Record<string, string> = { KILN_DATA_DIR: tempDir() };
      if (database === "postgres") env["DATABASE_URL"] = await emptyPostgres();
      const runs = await Promise.all([1, 2, 3, 4].map(() => runKiln(["migrate"], env)));
      expect(runs.map((run) => run.stderr)).toEqual(["", "", "", ""]);
      expect(runs.map((run) => run.code)).toEqual([0, 0, 0, 0]);
    });
  }

  it.skipIf(postgresUnavailable() !== null)(
    "on PostgreSQL all listen, one creates root and prints its password, and every one signs root in with it",
    async () => {
      const env = { DATABASE_URL: await emptyPostgres(), KILN_ROOT_PASSWORD: "" };
      const dataDir = tempDir();
      const starts = await Promise.allSettled([1, 2, 3].map(() => start({ dataDir, env })));
      const servers = starts.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
      for (const server of servers) cleanups.push(async () => void (await server.stop({ remove: false })));
      expect(starts.filter((s) => s.status === "rejected")).toEqual([]);

      const created = servers.flatMap((server: KilnProcess) => server.logs.filter((l) => l["msg"] === CREATED));
      expect(created).toHaveLength(1);
      const password = created[0]?.["password"] as string;
      const sessions = await Promise.all(servers.map((server) => signIn(server, "root", password)));
      // The private token is sealed under secret.key: every process opens it with the same key.
      expect(new Set(sessions.map((session) => session.token)).size).toBe(1);
    },
  );
});
