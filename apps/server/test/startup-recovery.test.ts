import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ProjectJson, UploadJson } from "@kiln/schemas";
import { createThrowawayPostgres, TEST_PG_URL_ENV } from "@kiln/storage-kysely/testing";
import { call, postgresUnavailable, signIn, signInAsRoot } from "@kiln/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { runKiln, start } from "./support.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "kiln-startup-recovery-"));
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

      const created = servers.flatMap((server) => server.logs.filter((l) => l["msg"] === CREATED));
      expect(created).toHaveLength(1);
      const password = created[0]?.["password"] as string;
      const sessions = await Promise.all(servers.map((server) => signIn(server, "root", password)));
      // The private token is sealed under secret.key: every process opens it with the same key.
      expect(new Set(sessions.map((session) => session.token)).size).toBe(1);
    },
  );
});

/** Writes a file and its dirs, as an interrupted upload leaves it. */
function put(path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, "left behind");
  return path;
}

/** Sets the modification time of each path to two hours ago, older than any upload in progress. */
function backdate(...paths: string[]): void {
  const then = new Date(Date.now() - 2 * 60 * 60_000);
  for (const path of paths) utimesSync(path, then, then);
}

describe("a start after a crash in the middle of uploads", () => {
  for (const database of ["sqlite", "postgres"] as const) {
    const unavailable = database === "postgres" ? postgresUnavailable() : null;
    it.skipIf(unavailable !== null)(
      `removes old temp files and files without a row, and keeps recorded uploads and recent files (${database})`,
      async () => {
        const dataDir = tempDir();
        const env: Record<string, string> = { KILN_ROOT_PASSWORD: "root-password" };
        if (database === "postgres") env["DATABASE_URL"] = await emptyPostgres();
        const first = await start({ dataDir, env });
        const root = await signInAsRoot(first);
        const project = await call<ProjectJson>(first.url, {
          method: "POST",
          path: "/projects",
          token: root.token,
          json: { name: "files" },
        });
        const form = new FormData();
        form.append("file", new Blob(["recorded"]), "kept.txt");
        const uploaded = await fetch(`${first.url}/api/v3/projects/${project.body.id}/uploads`, {
          method: "POST",
          body: form,
          headers: { "PRIVATE-TOKEN": root.token },
        });
        const { url } = (await uploaded.json()) as UploadJson;
        expect(await first.stop({ remove: false })).toBe(0);

        // What kill -9 leaves: received files never moved, and a file moved but never recorded.
        const projectDir = join(dataDir, "uploads", String(project.body.id));
        const kept = join(projectDir, url.replace(/^\/uploads\//, ""));
        const unrecorded = put(join(projectDir, "0123456789abcdef0123456789abcdef", "lost.txt"));
        const oldTemp = put(join(dataDir, "tmp", "uploads", `upload-${randomUUID()}`));
        const recentTemp = put(join(dataDir, "tmp", "uploads", `upload-${randomUUID()}`));
        backdate(kept, dirname(kept), unrecorded, dirname(unrecorded), oldTemp);

        const second = await start({ dataDir, env });
        cleanups.push(async () => void (await second.stop({ remove: false })));
        expect(second.logs.find((line) => line["msg"] === "reclaimed upload leftovers")).toMatchObject({
          temp_files: 1,
          files: 1,
        });
        expect(existsSync(dirname(unrecorded))).toBe(false);
        expect(existsSync(oldTemp)).toBe(false);
        expect(existsSync(recentTemp)).toBe(true);
        expect(readFileSync(kept, "utf8")).toBe("recorded");
        const served = await fetch(`${second.url}/${project.body.path_with_namespace}${url}`, {
          headers: { "PRIVATE-TOKEN": root.token },
        });
        expect(served.status).toBe(200);
        expect(await served.text()).toBe("recorded");
      },
    );
  }
});
