// CI bench (issue "CI"): push to a running build on an idle runner, a one-job pipeline to success,
// claims by 10 runners of 200 pending builds, and the issues API while a build writes 20 MB of trace.
//   node bench/ci.mjs [--pushes N] [--builds N]     (after corepack pnpm build; ~2 min; bench/README.md)
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { cleanUp, installExitHandlers, removeOnExit, startChild } from "./lib/proc.mjs";
import { MAIN_JS, signIn, startKiln, v3Client } from "./lib/servers.mjs";

const { values } = parseArgs({
  options: { pushes: { type: "string", default: "20" }, builds: { type: "string", default: "200" } },
});
const PUSHES = Number(values.pushes);
const BUILDS = Number(values.builds);
const RUNNERS = 10;
const TRACE_BYTES = 20 * 1024 * 1024;
const TRACE_CHUNK = 256 * 1024;
const PASSWORD = "bench-root-password";
const RUNNER_AGENT = "gitlab-ci-multi-runner 1.8.0 (1-8-stable; go1.6.3; linux/amd64)";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

/** A call of the runner API `/ci/api/v1`, as a runner makes it. */
async function runnerCall(url, method, path, form, signal) {
  const res = await fetch(`${url}/ci/api/v1${path}`, {
    method,
    headers: { "User-Agent": RUNNER_AGENT, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
    signal,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** A local clone pushing to the project as root. */
function gitWork(dir, remote) {
  const git = (...args) => execFileSync("git", args, { cwd: dir, encoding: "utf8" }).trim();
  mkdirSync(dir, { recursive: true });
  git("init", "--quiet", "-b", "master");
  git("config", "user.name", "Bench");
  git("config", "user.email", "bench@example.com");
  return {
    commitAndPush(files, message) {
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      git("add", "-A");
      git("commit", "--quiet", "-m", message);
      const sha = git("rev-parse", "HEAD");
      git("push", "--quiet", remote, "master");
      return { sha, pushedAt: Date.now() };
    },
  };
}

async function waitFor(check, ms = 60_000, everyMs = 25) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("bench: timed out waiting");
    await sleep(everyMs);
  }
}

/**
 * Requests a second of `GET /projects/:id/issues` from 8 clients while `busy()` holds (or for `ms`).
 * @param {string} url
 * @param {string} token
 * @param {number} projectId
 * @param {{ ms?: number; busy?: () => boolean }} options
 */
async function issuesThroughput(url, token, projectId, { ms = 0, busy = undefined }) {
  let done = 0;
  const started = performance.now();
  const going = () => (busy ? busy() : performance.now() - started < ms);
  const client = async () => {
    while (going()) {
      const res = await fetch(`${url}/api/v3/projects/${projectId}/issues?per_page=20`, {
        headers: { "PRIVATE-TOKEN": token },
      });
      await res.arrayBuffer();
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: 8 }, client));
  return done / ((performance.now() - started) / 1000);
}

async function main() {
  installExitHandlers();
  const tmp = mkdtempSync(join(tmpdir(), "kiln-bench-ci-"));
  removeOnExit(tmp);
  const kiln = await startKiln({
    label: "ci",
    dataDir: join(tmp, "data"),
    logDir: tmp,
    logLevel: "warn",
    rootPassword: PASSWORD,
  });
  const token = await signIn(kiln.url, "root", PASSWORD);
  const api = v3Client(kiln.url, token);
  const remoteOf = (path) => `${kiln.url.replace("//", `//root:${token}@`)}/root/${path}.git`;
  const project = async (name) => {
    const { id } = await api("POST", "/projects", { name });
    return { id, runnersToken: (await api("GET", `/projects/${id}`)).runners_token };
  };
  console.log(
    `bench: CI, ${PUSHES} pushes, ${RUNNERS} runners × ${BUILDS} builds, ${TRACE_BYTES >> 20} MB of trace`,
  );

  // 1. Push to running and to success, one `echo` job, a real kiln runner long-polling.
  const echo = await project("echo");
  const runner = startChild(
    "kiln runner",
    process.execPath,
    [
      MAIN_JS,
      "runner",
      "--url",
      kiln.url,
      "--registration-token",
      echo.runnersToken,
      "--builds-dir",
      join(tmp, "builds"),
    ],
    { logFile: join(tmp, "runner.log") },
  );
  const work = gitWork(join(tmp, "echo"), remoteOf("echo"));
  const toRunning = [];
  const toSuccess = [];
  for (let i = 0; i <= PUSHES; i++) {
    const { sha, pushedAt } = work.commitAndPush(
      { ".gitlab-ci.yml": "hello:\n  script: echo hello\n", "round.txt": `${i}\n` },
      `round ${i}`,
    );
    const build = await waitFor(async () => {
      const builds = await api("GET", `/projects/${echo.id}/repository/commits/${sha}/builds`).catch(
        () => [],
      );
      return builds.find((b) => b.status === "success" || b.status === "failed");
    });
    if (build.status !== "success") throw new Error(`bench: the echo build ${build.id} ${build.status}`);
    // The first round warms the runner's clone up; it is not counted.
    if (i === 0) continue;
    toRunning.push(Date.parse(build.started_at) - pushedAt);
    toSuccess.push(Date.parse(build.finished_at) - pushedAt);
  }
  await runner.stop();
  console.log(
    `bench: git push → build running: median ${median(toRunning)} ms (max ${Math.max(...toRunning)}); ` +
      `→ pipeline success: median ${median(toSuccess)} ms (max ${Math.max(...toSuccess)}), ${PUSHES} pushes`,
  );

  // 2. 10 runners asking at once for 200 pending builds.
  const many = await project("many");
  const jobs = Array.from({ length: BUILDS }, (_, i) => `job${i}:\n  script: echo ${i}\n`).join("");
  const pushed = gitWork(join(tmp, "many"), remoteOf("many")).commitAndPush(
    { ".gitlab-ci.yml": jobs },
    "many",
  );
  await waitFor(
    async () => {
      const res = await fetch(`${kiln.url}/api/v3/projects/${many.id}/builds?scope=pending&per_page=1`, {
        headers: { "PRIVATE-TOKEN": token },
      });
      await res.arrayBuffer();
      return Number(res.headers.get("x-total")) >= BUILDS;
    },
    120_000,
    200,
  );
  const runnerTokens = [];
  for (let i = 0; i < RUNNERS; i++) {
    const registered = await runnerCall(kiln.url, "POST", "/runners/register", { token: many.runnersToken });
    runnerTokens.push(registered.body.token);
  }
  const claimed = [];
  const claimMs = [];
  const stop = new AbortController();
  const claimsStarted = performance.now();
  await Promise.all(
    runnerTokens.map(async (runnerToken) => {
      while (claimed.length < BUILDS) {
        const started = performance.now();
        const res = await runnerCall(
          kiln.url,
          "POST",
          "/builds/register",
          { token: runnerToken },
          stop.signal,
        ).catch(() => null);
        if (res?.status !== 201) break;
        claimMs.push(performance.now() - started);
        claimed.push({ id: res.body.id, token: res.body.token, runnerToken });
      }
      stop.abort();
    }),
  );
  // The server claims one build at a time (one writer): the wall time per claim is its server time.
  const perClaim = (performance.now() - claimsStarted) / claimed.length;
  const distinct = new Set(claimed.map((c) => c.id)).size;
  console.log(
    `bench: ${claimed.length} builds claimed by ${RUNNERS} runners at once, ${claimed.length - distinct} twice; ` +
      `${perClaim.toFixed(1)} ms of server time a claim (all ${claimed.length} in ` +
      `${((perClaim * claimed.length) / 1000).toFixed(2)} s); each request waited median ${median(claimMs).toFixed(1)} ms, ` +
      `p99 ${percentile(claimMs, 0.99).toFixed(1)} ms with 10 in flight (commit ${pushed.sha.slice(0, 8)})`,
  );

  // 3. The issues API idle, then while one build appends 20 MB of trace.
  const tracked = await project("tracked");
  for (let i = 0; i < 100; i++) await api("POST", `/projects/${tracked.id}/issues`, { title: `Issue ${i}` });
  const idle = await issuesThroughput(kiln.url, token, tracked.id, { ms: 5000 });
  const writer = claimed[0];
  let written = 0;
  let writing = true;
  const chunk = Buffer.alloc(TRACE_CHUNK, "a\n");
  const traceStarted = performance.now();
  const appending = (async () => {
    while (written < TRACE_BYTES) {
      const res = await fetch(`${kiln.url}/ci/api/v1/builds/${writer.id}/trace.txt`, {
        method: "PATCH",
        headers: {
          "User-Agent": RUNNER_AGENT,
          "BUILD-TOKEN": writer.token,
          "Content-Type": "text/plain",
          "Content-Range": `${written}-${written + chunk.length - 1}`,
        },
        body: chunk,
      });
      await res.arrayBuffer();
      if (res.status !== 202) throw new Error(`bench: trace append answered ${res.status}`);
      written += chunk.length;
    }
    writing = false;
  })();
  const during = await issuesThroughput(kiln.url, token, tracked.id, { busy: () => writing });
  await appending;
  const traceSeconds = (performance.now() - traceStarted) / 1000;
  console.log(
    `bench: GET /projects/:id/issues: ${idle.toFixed(0)} req/s idle, ${during.toFixed(0)} req/s while a build ` +
      `appended ${TRACE_BYTES >> 20} MB of trace in ${traceSeconds.toFixed(1)} s: idle/during ${(idle / during).toFixed(2)}`,
  );
  await kiln.handle.stop();
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanUp);
