import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, type KilnProcess, postgresUnavailable, signInAsRoot, type TestUser } from "@kiln/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipartFile, runnerCall, zipOf } from "./ci-support.js";
import { type GitClient, gitClient, repoUrl } from "./git-client.js";
import { alive, eventsOf, pushPipeline, type RunnerProcess, startRunner } from "./runner-support.js";
import { runKiln, start } from "./support.js";

// The CI janitor in a real server, sweeping five times a second: a build past its project's
// build_timeout is failed and its runner kills the job; expired artifacts go; and the
// max_artifacts_size setting bounds what a runner may upload.

const SLOW_JOB =
  'slow:\n  script:\n    - sleep 600 & echo $! > "$CI_PROJECT_DIR/../sleeper.pid"\n    - echo started\n    - wait\n';

interface BuildJson {
  id: number;
  token: string;
  status: string;
}

for (const database of ["sqlite", "postgres"] as const) {
  const unavailable = database === "postgres" ? postgresUnavailable() : null;
  describe.skipIf(unavailable !== null)(`the CI janitor (${database})`, () => {
    let server: KilnProcess;
    let root: TestUser;
    let git: GitClient;
    let buildsDir: string;
    const runners: RunnerProcess[] = [];

    beforeAll(async () => {
      server = await start({
        database,
        env: { KILN_CI_SWEEP_SECONDS: "0.2", KILN_RUNNER_WAIT_SECONDS: "1" },
      });
      root = await signInAsRoot(server);
      git = gitClient();
      buildsDir = mkdtempSync(join(tmpdir(), "kiln-janitor-builds-"));
    });
    afterAll(async () => {
      for (const runner of runners) if (runner.child.exitCode === null) runner.child.kill("SIGKILL");
      git?.remove();
      rmSync(buildsDir, { recursive: true, force: true });
      await server?.stop();
    });

    const api = <T = unknown>(method: string, path: string, json?: Record<string, unknown>) =>
      call<T>(server.url, { method, path, token: root.token, ...(json ? { json } : {}) });

    /** A new project with `ciFile` pushed to master; answers its id and runners token. */
    async function projectWith(name: string, ciFile: string) {
      const created = await api<{ id: number; path_with_namespace: string; runners_token: string }>(
        "POST",
        "/projects",
        { name },
      );
      expect(created.status).toBe(201);
      const work = join(git.root, name);
      mkdirSync(work);
      await git.ok(["init", "--quiet", "-b", "master"], work);
      const remote = repoUrl(server.url, created.body.path_with_namespace, {
        username: "root",
        secret: root.token,
      });
      await pushPipeline(git, work, remote, ciFile);
      const shown = await api<{ runners_token: string }>("GET", `/projects/${created.body.id}`);
      return { id: created.body.id, runnersToken: shown.body.runners_token };
    }

    it("fails a build running past its project's build_timeout, and the runner kills the job", async () => {
      const project = await projectWith("slow", SLOW_JOB);
      const refused = await api("PUT", `/projects/${project.id}`, { build_timeout: 0 });
      expect(refused.status).toBe(400);
      const token = await runKiln(["runner", "token"], server.kilnEnv);
      const runner = startRunner([
        "--url",
        server.url,
        "--registration-token",
        token.stdout.trim(),
        "--builds-dir",
        buildsDir,
        "--once",
      ]);
      runners.push(runner);
      await expect.poll(() => eventsOf(runner, "build received").length).toBe(1);
      const buildId = eventsOf(runner, "build received")[0]?.["build"] as number;
      const trace = async () => (await api("GET", `/projects/${project.id}/builds/${buildId}/trace`)).text;
      await expect.poll(trace).toContain("started\n");
      const sleeper = Number(readFileSync(join(buildsDir, "builds/0/sleeper.pid"), "utf8"));
      expect(alive(sleeper)).toBe(true);
      // Handed the project's hour, the runner would wait; the server now allows one second.
      expect((await api("PUT", `/projects/${project.id}`, { build_timeout: 1 })).status).toBe(200);

      expect(await runner.exited).toBe(0);
      expect(alive(sleeper)).toBe(false);
      const build = await api<BuildJson>("GET", `/projects/${project.id}/builds/${buildId}`);
      expect(build.body.status).toBe("failed");
      expect(await trace()).toMatch(
        /started\n[\s\S]*ERROR: Build failed: execution took longer than 1 seconds\n$/,
      );
      const pipelines = await api<{ status: string }[]>("GET", `/projects/${project.id}/pipelines`);
      expect(pipelines.body.map((pipeline) => pipeline.status)).toEqual(["failed"]);
    }, 60_000);

    it("refuses artifacts above max_artifacts_size with 413, and removes expired ones", async () => {
      const settings = await api<{ max_artifacts_size: number }>("GET", "/application/settings");
      expect(settings.body.max_artifacts_size).toBe(100);
      expect((await api("PUT", "/application/settings", { max_artifacts_size: 0 })).status).toBe(400);
      const changed = await api<{ max_artifacts_size: number }>("PUT", "/application/settings", {
        max_artifacts_size: 1,
      });
      expect(changed.body.max_artifacts_size).toBe(1);

      const project = await projectWith("artifacts", "pack:\n  script: make\n");
      const registered = await runnerCall<{ token: string }>(server, "POST", "/runners/register", {
        token: project.runnersToken,
      });
      let claimed = await runnerCall<BuildJson>(server, "POST", "/builds/register", {
        token: registered.body.token,
      });
      for (let tries = 0; claimed.status === 204 && tries < 10; tries++)
        claimed = await runnerCall<BuildJson>(server, "POST", "/builds/register", {
          token: registered.body.token,
        });
      expect(claimed.status).toBe(201);
      const build = claimed.body;
      const authorize = (filesize: number) =>
        runnerCall(server, "POST", `/builds/${build.id}/artifacts/authorize`, {
          token: build.token,
          filesize: String(filesize),
        });
      expect((await authorize(1024 * 1024 + 1)).status).toBe(413);
      expect((await authorize(1024)).status).toBe(200);
      const upload = (content: Buffer, expireIn?: string) => {
        const body = multipartFile(content);
        const query = `token=${build.token}${expireIn ? `&expire_in=${encodeURIComponent(expireIn)}` : ""}`;
        return call(server.url, {
          method: "POST",
          path: `${server.url}/ci/api/v1/builds/${build.id}/artifacts?${query}`,
          body: body.body,
          headers: { "Content-Type": body.type },
        });
      };
      expect((await upload(randomBytes(1024 * 1024 + 1024))).status).toBe(413);

      expect((await upload(zipOf({ "out/app": "binary" }), "1 sec")).status).toBe(201);
      const artifacts = () => api("GET", `/projects/${project.id}/builds/${build.id}/artifacts`);
      await expect.poll(async () => (await artifacts()).status, { timeout: 20_000 }).toBe(404);
      const shown = await api<{ artifacts_file: unknown }>(
        "GET",
        `/projects/${project.id}/builds/${build.id}`,
      );
      expect(shown.body.artifacts_file ?? null).toBeNull();
    }, 60_000);
  });
}
