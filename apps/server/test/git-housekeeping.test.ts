import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProjectJson } from "@kiln/schemas";
import {
  call,
  git,
  type KilnProcess,
  postgresUnavailable,
  repositoryPath,
  signInAsRoot,
  type TestUser,
} from "@kiln/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { gitClient, repoUrl } from "./git-client.js";
import { start } from "./support.js";

/** Waits for `condition`, polling, until the deadline. */
async function until(condition: () => boolean, what: string, deadlineMs = 15_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Kills a server as a crash would: SIGKILL, nothing runs after. */
async function kill(server: KilnProcess): Promise<void> {
  const exited = new Promise((resolve) => server.process.once("exit", resolve));
  server.process.kill("SIGKILL");
  await exited;
}

/** Sets the mtime of `path` and everything under it `ms` into the past. */
function backdate(path: string, ms: number): void {
  const time = new Date(Date.now() - ms);
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path)) backdate(join(path, name), ms);
  }
  utimesSync(path, time, time);
}

for (const database of ["sqlite", "postgres"] as const) {
  const unavailable = database === "postgres" ? postgresUnavailable() : null;
  describe.skipIf(unavailable !== null)(`git housekeeping (${database})`, () => {
    const running: KilnProcess[] = [];
    const dirs: string[] = [];
    afterEach(async () => {
      // The first server of a test owns the PostgreSQL database: it is dropped last.
      for (const server of running.splice(0).reverse()) await server.stop();
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    });

    const launch = async (dataDir: string, env?: Record<string, string>) => {
      const server = await start({ dataDir, ...(env ? { env } : { database }) });
      running.push(server);
      return server;
    };
    const newProject = async (server: KilnProcess, root: TestUser, name: string) => {
      const res = await call<ProjectJson>(server.url, {
        method: "POST",
        path: "/projects",
        token: root.token,
        json: { name, visibility_level: 0 },
      });
      expect(res.status).toBe(201);
      return res.body;
    };
    const commitFile = (server: KilnProcess, root: TestUser, project: ProjectJson, path: string) =>
      call(server.url, {
        method: "POST",
        path: `/projects/${project.id}/repository/files`,
        token: root.token,
        json: { file_path: path, branch_name: "master", content: `${path}\n`, commit_message: `add ${path}` },
      });

    it("writes a branch again at once after a kill -9 and a restart, and sweeps what the killed git left", async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "kiln-housekeeping-"));
      dirs.push(dataDir);
      const first = await launch(dataDir);
      const root = await signInAsRoot(first);
      const project = await newProject(first, root, "crashed");
      expect((await commitFile(first, root, project, "one.txt")).status).toBe(201);
      const gitDir = repositoryPath(first, project.id);
      const head = git(["rev-parse", "master"], gitDir).trim();
      await kill(first);

      // What git processes killed with the server leave: the locks of an update of master (and of
      // HEAD, which names it), a push's quarantine with its temporary pack, a temporary object.
      writeFileSync(join(gitDir, "refs/heads/master.lock"), `${head}\n`);
      writeFileSync(join(gitDir, "HEAD.lock"), "ref: refs/heads/master\n");
      mkdirSync(join(gitDir, "objects/tmp_objdir-incoming-Ab12Cd/pack"), { recursive: true });
      writeFileSync(join(gitDir, "objects/tmp_objdir-incoming-Ab12Cd/pack/tmp_pack_Ef34Gh"), "PACK");
      mkdirSync(join(gitDir, "objects/ab"), { recursive: true });
      writeFileSync(join(gitDir, "objects/ab/tmp_obj_Ij56Kl"), "");
      const leftovers = [
        "refs/heads/master.lock",
        "HEAD.lock",
        "objects/tmp_objdir-incoming-Ab12Cd",
        "objects/ab/tmp_obj_Ij56Kl",
      ];
      for (const path of leftovers) backdate(join(gitDir, path), 5_000); // killed five seconds ago

      const second = await launch(dataDir, first.kilnEnv);
      // Through the API and through git, master moves again.
      expect((await commitFile(second, root, project, "two.txt")).status).toBe(201);
      const client = gitClient();
      try {
        const work = join(client.root, "work");
        const url = repoUrl(second.url, project.path_with_namespace, {
          username: "root",
          secret: root.token,
        });
        await client.ok(["clone", "--quiet", url, work]);
        await client.commit(work, "pushed after the crash");
        await client.ok(["push", "--quiet", "origin", "master"], work);
      } finally {
        client.remove();
      }
      await until(() => second.logs.some((line) => line["msg"] === "swept the repositories"), "the sweep");
      for (const path of leftovers) expect(existsSync(join(gitDir, path)), path).toBe(false);
      expect(git(["fsck", "--no-progress"], gitDir)).toBe("");
    });

    it.skipIf(database !== "postgres")(
      "leaves a lock to a running server that shares the data, and takes it once that server is killed",
      async () => {
        const dataDir = mkdtempSync(join(tmpdir(), "kiln-housekeeping-"));
        dirs.push(dataDir);
        const first = await launch(dataDir);
        const second = await launch(dataDir, first.kilnEnv);
        const root = await signInAsRoot(first);
        const project = await newProject(first, root, "shared");
        expect((await commitFile(first, root, project, "one.txt")).status).toBe(201);
        const gitDir = repositoryPath(first, project.id);
        // The first server's update of master, in progress (its git holds the lock).
        const lock = join(gitDir, "refs/heads/master.lock");
        writeFileSync(lock, `${git(["rev-parse", "master"], gitDir).trim()}\n`);
        backdate(lock, 3_000);

        expect((await commitFile(second, root, project, "two.txt")).status).toBe(409);
        expect(existsSync(lock)).toBe(true);
        await kill(first); // now nobody can hold it
        expect((await commitFile(second, root, project, "two.txt")).status).toBe(201);
        expect(existsSync(lock)).toBe(false);
      },
    );
  });
}
