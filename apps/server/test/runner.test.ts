import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { type GitClient, gitClient, repoUrl } from "./git-client.js";
import { alive, eventsOf, pushPipeline, type RunnerProcess, startRunner } from "./runner-support.js";
import { onEachDatabase, runKiln, start } from "./support.js";

/** A pipeline of two stages: `build` leaves an artifact, `test` (a later stage) reads it. */
const PIPELINE = `stages:
  - build
  - test

variables:
  GREETING: hello

compile:
  stage: build
  script:
    - mkdir -p out
    - echo "$GREETING from $CI_BUILD_NAME at $CI_BUILD_REF" > out/result.txt
  artifacts:
    paths:
      - out/

check:
  stage: test
  script:
    - cat out/result.txt
    - grep -qx "hello from compile at $CI_BUILD_REF" out/result.txt
    - test "$CI_BUILD_STAGE" = test
`;

/** A build as `GET /projects/:id/builds` shows it (the fields this test reads). */
interface BuildRow {
  id: number;
  name: string;
  status: string;
  started_at: string | null;
  finished_at: string | null;
}

/** The names of a zip's entries, sorted. */
function zipNames(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, {}, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      zip.on("entry", (entry: yauzl.Entry) => names.push(entry.fileName));
      zip.on("end", () => resolve(names.sort()));
      zip.on("error", reject);
    });
  });
}

describe("kiln runner's command line", () => {
  it("explains itself, and refuses to start without --url or a way to register", async () => {
    const help = await runKiln(["runner", "--help"], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--registration-token");
    expect(await runKiln(["runner"], {})).toMatchObject({
      code: 1,
      stderr: "kiln: --url is required (see kiln runner --help)\n",
    });
    const dir = mkdtempSync(join(tmpdir(), "kiln-runner-cli-"));
    try {
      const unregistered = await runKiln(["runner", "--url", "http://127.0.0.1:1", "--builds-dir", dir], {});
      expect(unregistered.code).toBe(1);
      expect(unregistered.stderr).toMatch(/^kiln: --registration-token is required to register this runner/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

onEachDatabase("kiln runner against a real server", (served) => {
  let client: GitClient;
  let buildsDir: string;
  let work: string;
  let remote: string;
  let projectId: number;
  const runners: RunnerProcess[] = [];

  beforeAll(() => {
    client = gitClient();
    buildsDir = mkdtempSync(join(tmpdir(), "kiln-runner-builds-"));
  });
  afterAll(async () => {
    for (const runner of runners) if (runner.child.exitCode === null) runner.child.kill("SIGKILL");
    client.remove();
    rmSync(buildsDir, { recursive: true, force: true });
  });

  it("a push with .gitlab-ci.yml is built by kiln runner processes: stages in order, traces and artifacts back", async () => {
    const { server, root, api } = served();
    const project = await api<{ id: number; path_with_namespace: string }>({
      method: "POST",
      path: "/projects",
      token: root.token,
      json: { name: "runner-demo" },
    });
    expect(project.status).toBe(201);
    const token = await runKiln(["runner", "token"], server.kilnEnv);
    expect(token).toMatchObject({ code: 0 });
    const registrationToken = token.stdout.trim();

    work = join(client.root, "work");
    mkdirSync(work);
    await client.ok(["init", "--quiet", "-b", "master"], work);
    remote = repoUrl(server.url, project.body.path_with_namespace, { username: "root", secret: root.token });
    const sha = await pushPipeline(client, work, remote, PIPELINE);

    // The first runner registers, takes the first stage's build and exits (--once).
    const first = startRunner([
      "--url",
      server.url,
      "--registration-token",
      registrationToken,
      "--builds-dir",
      buildsDir,
      "--once",
    ]);
    runners.push(first);
    expect(await first.exited).toBe(0);
    expect(first.output()).toMatch(/registered runner \d+; its token is saved in .*kiln-runner\.json/);
    // The second reuses the saved registration (no token on its command line) for the next stage.
    const second = startRunner(["--url", server.url, "--builds-dir", buildsDir, "--once"]);
    runners.push(second);
    expect(await second.exited).toBe(0);
    expect(second.output()).not.toMatch(/registered runner/);

    // Stages in order: the first runner got the build stage's job, the second the test stage's,
    // which the server hands out only once the build stage succeeded; both reported success.
    expect(eventsOf(first, "build received").map((event) => event["name"])).toEqual(["compile"]);
    expect(eventsOf(second, "build received").map((event) => event["name"])).toEqual(["check"]);
    expect(eventsOf(first, "build finished").map((event) => event["status"])).toEqual(["success"]);
    expect(eventsOf(second, "build finished").map((event) => event["status"])).toEqual(["success"]);
    const [compileId, checkId] = [first, second].map(
      (runner) => eventsOf(runner, "build received")[0]?.["build"],
    );

    // What the server received: the traces as they were written, compile's artifacts uploaded
    // and then downloaded by check (whose script checked their content), and both states.
    // The server writes its log lines in batches: the last ones may come after the runner ended.
    const requests = () =>
      server.logs
        .filter((line) => line["msg"] === "request" && String(line["path"]).startsWith("/ci/api/v1/builds/"))
        .map((line) => `${line["method"]} ${line["path"]} ${line["status"]}`);
    await expect
      .poll(requests)
      .toEqual(
        expect.arrayContaining([
          `PATCH /ci/api/v1/builds/${compileId}/trace.txt 202`,
          `POST /ci/api/v1/builds/${compileId}/artifacts 201`,
          `PUT /ci/api/v1/builds/${compileId} 200`,
          `GET /ci/api/v1/builds/${compileId}/artifacts 200`,
          `PATCH /ci/api/v1/builds/${checkId}/trace.txt 202`,
          `PUT /ci/api/v1/builds/${checkId} 200`,
        ]),
      );

    // And what a user of the API sees: both builds succeeded, check after compile, the traces
    // as the runner wrote them, compile's artifacts as the zip the runner made.
    projectId = project.body.id;
    const builds = await api<BuildRow[]>({ path: `/projects/${projectId}/builds`, token: root.token });
    const byName = new Map(builds.body.map((build) => [build.name, build]));
    const [compile, check] = [byName.get("compile"), byName.get("check")] as [BuildRow, BuildRow];
    expect([compile.id, compile.status, check.id, check.status]).toEqual([
      compileId,
      "success",
      checkId,
      "success",
    ]);
    expect(Date.parse(check.started_at as string)).toBeGreaterThanOrEqual(
      Date.parse(compile.finished_at as string),
    );
    const traceOf = async (id: number) =>
      (await api({ path: `/projects/${projectId}/builds/${id}/trace`, token: root.token })).text;
    const compileTrace = await traceOf(compileId as number);
    expect(compileTrace).toContain(`Checking out ${sha.slice(0, 8)} as master...`);
    expect(compileTrace).toContain("$ mkdir -p out");
    expect(compileTrace).toContain("Uploading artifacts to coordinator... ok");
    const checkTrace = await traceOf(checkId as number);
    expect(checkTrace).toContain(`Downloading artifacts for compile (${compileId})...`);
    expect(checkTrace).toContain(`hello from compile at ${sha}\n`);
    expect(checkTrace).toMatch(/Build succeeded\n$/);
    const artifacts = await fetch(
      `${server.url}/api/v3/projects/${projectId}/builds/${compileId}/artifacts`,
      {
        headers: { "PRIVATE-TOKEN": root.token },
      },
    );
    expect(artifacts.status).toBe(200);
    expect(await zipNames(Buffer.from(await artifacts.arrayBuffer()))).toEqual(["out/", "out/result.txt"]);
  });

  it("a cancel through the API kills the build's processes on the runner", async () => {
    const { server, root, api } = served();
    await pushPipeline(
      client,
      work,
      remote,
      'slow:\n  script:\n    - sleep 300 & echo $! > "$CI_PROJECT_DIR/../sleeper.pid"\n    - echo started\n    - wait\n',
    );
    const runner = startRunner(["--url", server.url, "--builds-dir", buildsDir, "--once"]);
    runners.push(runner);
    await expect.poll(() => eventsOf(runner, "build received").length).toBe(1);
    const buildId = eventsOf(runner, "build received")[0]?.["build"] as number;
    const trace = async () =>
      (await api({ path: `/projects/${projectId}/builds/${buildId}/trace`, token: root.token })).text;
    await expect.poll(trace).toContain("started\n");
    const sleeper = Number(readFileSync(join(buildsDir, "builds/0/sleeper.pid"), "utf8"));
    expect(alive(sleeper)).toBe(true);

    const canceled = await api({
      method: "POST",
      path: `/projects/${projectId}/builds/${buildId}/cancel`,
      token: root.token,
    });
    expect(canceled.status).toBe(201);
    expect(await runner.exited).toBe(0);
    expect(eventsOf(runner, "build finished").map((event) => event["status"])).toEqual(["canceled"]);
    expect(alive(sleeper)).toBe(false);
    const shown = await api<BuildRow>({
      path: `/projects/${projectId}/builds/${buildId}`,
      token: root.token,
    });
    expect(shown.body.status).toBe("canceled");
  });

  it("a running runner waits out a server restart and takes the builds pushed after it", async () => {
    const { server } = served();
    const runner = startRunner(["--url", server.url, "--builds-dir", buildsDir]);
    runners.push(runner);
    await expect.poll(() => runner.output()).toContain("runner started");
    await server.stop({ remove: false });
    await expect.poll(() => runner.output()).toContain("server unavailable; retrying");
    const restarted = await start({ restartOf: server, env: { PORT: String(server.port) } });
    try {
      await pushPipeline(
        client,
        work,
        remote,
        "after-restart:\n  script:\n    - echo built after the restart\n",
      );
      const built = () => {
        const received = eventsOf(runner, "build received").find(
          (event) => event["name"] === "after-restart",
        );
        return eventsOf(runner, "build finished").find((event) => event["build"] === received?.["build"])?.[
          "status"
        ];
      };
      await expect.poll(built, { timeout: 30_000 }).toBe("success");
      runner.child.kill("SIGTERM");
      expect(await runner.exited).toBe(0);
    } finally {
      await restarted.stop({ remove: false });
    }
  }, 60_000);
});
