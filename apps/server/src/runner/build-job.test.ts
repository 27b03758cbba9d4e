import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunnerApi } from "./api-client.js";
import type { BuildDetails } from "./api-schema.js";
import { type BuildHost, runBuild } from "./build-job.js";
import { CiApiDouble } from "./ci-api-double.js";
import { QUIET_LOG } from "./log.js";
import { pollForBuilds } from "./poll-loop.js";
import { extractZip } from "./zip-read.js";

const scratch = mkdtempSync(join(tmpdir(), "kiln-build-job-"));
const repo = join(scratch, "repo");
let double: CiApiDouble;
let host: BuildHost;
let nextId = 1;

const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: repo,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "A",
      GIT_AUTHOR_EMAIL: "a@example.com",
      GIT_COMMITTER_NAME: "A",
      GIT_COMMITTER_EMAIL: "a@example.com",
    },
  }).trim();

/** Commits `files` on main of the test repository; answers the commit's sha. */
function commit(files: Record<string, string>): string {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(repo, name), text);
  git("add", "-A");
  git("commit", "-q", "-m", "change");
  return git("rev-parse", "HEAD");
}

/** A build of the test repository's head, as the server would hand it over. */
function buildOf(fields: Partial<BuildDetails> & { commands: string }): BuildDetails {
  const id = nextId++;
  return {
    id,
    token: double.buildToken(id),
    ref: "main",
    tag: false,
    sha: git("rev-parse", "HEAD"),
    name: "test",
    stage: "test",
    project_id: 7,
    repo_url: `file://${repo}`,
    allow_git_fetch: true,
    timeout: 3600,
    variables: [
      { key: "CI_BUILD_ID", value: String(id), public: true },
      { key: "CI_BUILD_NAME", value: "test", public: true },
      { key: "CI_BUILD_REF_NAME", value: "main", public: true },
    ],
    options: {},
    depends_on_builds: [],
    ...fields,
  };
}

/** How the server names an earlier build with artifacts in a later build's `depends_on_builds`. */
function dependencyOn(build: BuildDetails) {
  return {
    id: build.id,
    name: build.name,
    token: build.token,
    artifacts_file: { filename: "artifacts.zip" },
  };
}

/** Hands `build` to the runner through the double and runs it in slot 0. */
async function run(build: BuildDetails, stop?: AbortSignal) {
  double.enqueue(build);
  double.queue.length = 0;
  double.states.set(build.id, "running");
  return runBuild(build, host, 0, stop);
}

beforeAll(async () => {
  mkdirSync(repo);
  git("init", "-q", "-b", "main");
  commit({ "README.md": "# test\n", ".gitignore": "vendor/\n" });
  double = await new CiApiDouble().start();
  host = {
    api: new RunnerApi(double.url),
    runnerToken: double.runnerToken,
    buildsDir: join(scratch, "builds"),
    description: "test runner",
    traceLimit: 1024 * 1024,
    log: QUIET_LOG,
    runnerEnv: { PATH: process.env["PATH"], HOME: scratch, KILN_DATA_DIR: "/must/not/leak" },
    timing: { intervalMs: 50, keepaliveMs: 100, retry: { minMs: 20, maxMs: 100 } },
    retry: { minMs: 20, maxMs: 100, attempts: 3 },
    killGraceMs: 500,
  };
});
afterAll(async () => {
  await double.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("runBuild (against a double of the 8.x runner API, with a real git repository and bash)", () => {
  it("checks the commit out, runs the commands with the variables, then after_script, uploads the artifacts and reports success", async () => {
    const build = buildOf({
      commands:
        'echo "build $CI_BUILD_ID in $CI_PROJECT_DIR"\nprintenv KILN_DATA_DIR || echo leak=none\nmkdir -p out && cat README.md > out/readme.txt',
      options: {
        image: "ruby:2.3",
        after_script: ["echo cleaning up"],
        artifacts: { paths: ["out/"], expire_in: "1 week", name: "result-$CI_BUILD_ID" },
      },
    });
    expect(await run(build)).toBe("success");
    const trace = double.trace(build.id);
    expect(trace).toContain(`Checking out ${build.sha.slice(0, 8)} as main...`);
    expect(trace).toContain(`$ echo "build $CI_BUILD_ID in $CI_PROJECT_DIR"`);
    expect(trace).toContain(`build ${build.id} in ${join(host.buildsDir, "builds/0/project-7")}`);
    expect(trace).toContain("leak=none");
    expect(trace).toContain("WARNING: image and services are not used by the shell executor");
    expect(trace).toContain("Running after script...");
    expect(trace).toContain("cleaning up");
    expect(trace).toMatch(/Uploading artifacts to coordinator\.\.\. ok \(2 entries\)\nBuild succeeded\n$/);
    const artifacts = double.artifacts.get(build.id);
    expect(artifacts).toMatchObject({ filename: `result-${build.id}.zip`, expireIn: "1 week" });
    const unpacked = join(scratch, `artifacts-${build.id}`);
    writeFileSync(`${unpacked}.zip`, artifacts?.bytes as Buffer);
    expect(await extractZip(`${unpacked}.zip`, unpacked)).toBe(2);
    expect(readFileSync(join(unpacked, "out/readme.txt"), "utf8")).toBe("# test\n");
    expect(double.states.get(build.id)).toBe("success");
  });

  it("a failing script fails the build; after_script still runs; artifacts follow `when`", async () => {
    const onFailure = buildOf({
      commands: "echo partial > partial.txt\nexit 4",
      options: { after_script: ["echo after"], artifacts: { paths: ["partial.txt"], when: "on_failure" } },
    });
    expect(await run(onFailure)).toBe("failed");
    expect(double.trace(onFailure.id)).toContain("ERROR: Build failed: exit code 4");
    expect(double.trace(onFailure.id)).toContain("after\n");
    expect(double.artifacts.has(onFailure.id)).toBe(true);

    const onSuccess = buildOf({
      commands: "echo x > x.txt\nfalse",
      options: { artifacts: { paths: ["x.txt"] } },
    });
    expect(await run(onSuccess)).toBe("failed");
    expect(double.artifacts.has(onSuccess.id)).toBe(false);
    expect(double.states.get(onSuccess.id)).toBe("failed");
  });

  it("unpacks the artifacts of the builds it depends on, and refuses a dependency's hostile archive", async () => {
    const producer = buildOf({
      commands: "mkdir -p dist && echo compiled > dist/app.txt",
      options: { artifacts: { paths: ["dist"] } },
    });
    expect(await run(producer)).toBe("success");
    const consumer = buildOf({
      commands: "cat dist/app.txt",
      depends_on_builds: [dependencyOn(producer)],
    });
    expect(await run(consumer)).toBe("success");
    expect(double.trace(consumer.id)).toContain(`Downloading artifacts for test (${producer.id})...`);
    expect(double.trace(consumer.id)).toContain("compiled\n");

    const stored = double.artifacts.get(producer.id)?.bytes as Buffer;
    const hostile = Buffer.from(
      stored.toString("latin1").split("dist/app.txt").join("../../ap.txt"),
      "latin1",
    );
    double.artifacts.set(producer.id, { filename: "artifacts.zip", bytes: hostile, expireIn: null });
    const victim = buildOf({
      commands: "echo should not run",
      depends_on_builds: [dependencyOn(producer)],
    });
    expect(await run(victim)).toBe("failed");
    expect(double.trace(victim.id)).toMatch(
      /ERROR: Build failed: Artifacts of test \(\d+\): .*\.\.\/\.\.\/ap\.txt/,
    );
    expect(double.trace(victim.id)).not.toContain("should not run\n");
    expect(existsSync(join(host.buildsDir, "builds/0/ap.txt"))).toBe(false);
  });

  it("keeps a cache per key between builds, which git clean does not remove", async () => {
    const cache = { key: "deps-$CI_BUILD_REF_NAME", paths: ["vendor/"] };
    const first = buildOf({
      commands: "test ! -e vendor/lib.txt\nmkdir -p vendor && echo cached > vendor/lib.txt",
      options: { cache },
    });
    expect(await run(first)).toBe("success");
    expect(double.trace(first.id)).toContain("Created cache");
    expect(existsSync(join(host.buildsDir, "cache/project-7/deps-main.zip"))).toBe(true);
    const second = buildOf({ commands: "cat vendor/lib.txt", options: { cache } });
    expect(await run(second)).toBe("success");
    expect(double.trace(second.id)).toContain(
      "Checking cache for deps-main...\nSuccessfully extracted cache",
    );
    expect(double.trace(second.id)).toContain("cached\n");
    const otherKey = buildOf({
      commands: "test ! -e vendor/lib.txt",
      options: { cache: { ...cache, key: "other" } },
    });
    expect(await run(otherKey)).toBe("success");
  });

  it("fetches a new commit into the checkout a previous build left", async () => {
    const sha = commit({ "NEW.md": "new file\n" });
    const build = buildOf({ commands: "cat NEW.md" });
    expect(build.sha).toBe(sha);
    expect(await run(build)).toBe("success");
    expect(double.trace(build.id)).toContain("Fetching changes...");
    expect(double.trace(build.id)).toContain("new file\n");
  });

  it("a cancel on the server kills the running script and nothing more is reported", async () => {
    const build = buildOf({
      commands: "echo started\nsleep 300",
      options: { after_script: ["echo must not run"] },
    });
    const running = run(build);
    await expect.poll(() => double.trace(build.id)).toContain("started\n");
    double.cancel(build.id);
    expect(await running).toBe("canceled");
    expect(double.updates.filter((update) => update.id === build.id)).toEqual([]);
    expect(double.trace(build.id)).not.toContain("must not run");
  });

  it("a build past its timeout is killed and failed", async () => {
    const build = buildOf({ commands: "echo started\nsleep 300", timeout: 1 });
    expect(await run(build)).toBe("failed");
    expect(double.trace(build.id)).toContain("ERROR: Build failed: execution took longer than 1 seconds");
  });

  it("a commit that cannot be fetched fails the build with git's reason, the token masked", async () => {
    const build = buildOf({ commands: "true" });
    build.repo_url = `http://gitlab-ci-token:${build.token}@127.0.0.1:1/nobody/nothing.git`;
    expect(await run(build)).toBe("failed");
    const trace = double.trace(build.id);
    expect(trace).toMatch(/ERROR: Build failed: git fetch failed/);
    expect(trace).not.toContain(build.token);
  });
});

describe("pollForBuilds", () => {
  it("with --once takes one build, runs it and stops; a refused runner token ends it with 1", async () => {
    const build = buildOf({ commands: "echo once" });
    double.enqueue(build);
    const stop = new AbortController();
    expect(await pollForBuilds(host, { concurrency: 1, once: true }, stop.signal)).toBe(0);
    expect(double.states.get(build.id)).toBe("success");
    expect(double.trace(build.id)).toContain("once\n");

    const refused = { ...host, runnerToken: "not-a-runner" };
    expect(await pollForBuilds(refused, { concurrency: 2, once: false }, stop.signal)).toBe(1);
  });

  it("runs builds at once up to its concurrency, each in its own folder", async () => {
    // Each build waits until both have started: they finish only if they run at the same time.
    const markers = join(scratch, "markers");
    mkdirSync(markers);
    const builds = [1, 2].map(() =>
      buildOf({
        commands: `touch "${markers}/$CI_BUILD_ID"\nuntil [ "$(ls "${markers}" | wc -l)" -ge 2 ]; do sleep 0.05; done`,
        timeout: 30,
      }),
    );
    for (const build of builds) double.enqueue(build);
    const stop = new AbortController();
    const polling = pollForBuilds(
      host,
      { concurrency: 2, once: false, idleMinMs: 20, idleMaxMs: 50 },
      stop.signal,
    );
    await expect
      .poll(() => builds.map((build) => double.states.get(build.id)))
      .toEqual(["success", "success"]);
    stop.abort();
    expect(await polling).toBe(0);
    expect(readFileSync(join(host.buildsDir, "builds/1/project-7/README.md"), "utf8")).toBe("# test\n");
  });
});
