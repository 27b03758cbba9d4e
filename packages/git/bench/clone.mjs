// Clone benchmark: @kiln/git's smart HTTP (MODE=kiln) against `git http-backend` run directly
// (MODE=cgi) on the same repository in the same run, interleaved round by round.
//
//   cd packages/git && npx tsc -p tsconfig.build.json && node bench/clone.mjs
//
// ROUNDS (default 7) rounds; each runs, for both servers in alternating order: a bare clone
// (protocol v2), a no-op fetch in an up-to-date clone, and a push of PUSH_COMMITS (200) new commits
// to a new branch. It also times `git clone --bare file://…` as the transport's floor. Reports the
// median client wall time, server wall time (sum over the operation's requests, arrival to end
// of answer) and server CPU (node plus reaped git processes). The repository (COMMITS commits,
// 500 files) is generated once into BENCH_REPO_DIR (default: $TMPDIR/kiln-bench-git-<COMMITS>).
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateRepo } from "./gen-repo.mjs";

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const COMMITS = Number(process.env.COMMITS ?? 2000);
const PUSH_COMMITS = Number(process.env.PUSH_COMMITS ?? 200);
const repoRoot = process.env.BENCH_REPO_DIR ?? join(tmpdir(), `kiln-bench-git-${COMMITS}`);
const source = join(repoRoot, "src.git");
const scratch = await mkdtemp(join(tmpdir(), "kiln-bench-run-"));
const clientEnv = {
  PATH: process.env.PATH,
  HOME: scratch,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_TERMINAL_PROMPT: "0",
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.com",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.com",
};

function git(args, cwd = scratch, input) {
  const result = spawnSync("git", args, { cwd, env: clientEnv, input, stdio: ["pipe", "pipe", "pipe"] });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
  return result.stdout.toString().trim();
}

function timed(args, cwd) {
  const start = process.hrtime.bigint();
  git(args, cwd);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function startServer(mode) {
  const child = spawn(process.execPath, [join(import.meta.dirname, "git-server.mjs")], {
    env: { ...process.env, MODE: mode, REPOS: repoRoot, RUNTIME_DIR: scratch },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise((resolve) => child.stdout.once("data", (d) => resolve(JSON.parse(d).port)));
  const url = `http://127.0.0.1:${port}`;
  const stats = async () => (await fetch(`${url}/__stats`)).json();
  return { mode, url, child, stats };
}

async function measure(server, run) {
  const before = await server.stats();
  const clientMs = run();
  const after = await server.stats();
  return {
    clientMs,
    serverWallMs: after.wallMs - before.wallMs,
    serverCpuMs: after.cpu.node + after.cpu.children - before.cpu.node - before.cpu.children,
    requests: after.requests - before.requests,
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

if (!existsSync(join(source, "HEAD"))) {
  console.error(`generating ${COMMITS} commits into ${source} …`);
  await generateRepo(source, { commits: COMMITS });
}
// A fresh push target per run (a local clone shares the source's objects through hard links).
await rm(join(repoRoot, "push.git"), { recursive: true, force: true });
git(["clone", "--quiet", "--bare", source, join(repoRoot, "push.git")]);
git(["--git-dir", join(repoRoot, "push.git"), "config", "http.receivepack", "true"]);

const servers = [await startServer("kiln"), await startServer("cgi")];
const results = { file: { clone: [] } };
for (const server of servers) results[server.mode] = { clone: [], fetch: [], push: [] };

// One up-to-date clone per server for the no-op fetches, one work tree for the pushes.
const fetchers = {};
for (const server of servers) {
  fetchers[server.mode] = join(scratch, `fetch-${server.mode}`);
  git(["clone", "--quiet", "--mirror", `${server.url}/src.git`, fetchers[server.mode]]);
}
const work = join(scratch, "work");
git(["clone", "--quiet", "--no-checkout", source, work]);

const nonce = Date.now(); // new objects in every run
function newCommits(round, mode) {
  const branch = `bench-${mode}-${round}`;
  let stream = "";
  for (let i = 0; i < PUSH_COMMITS; i++) {
    const content = `${branch} ${i} ${nonce}\n`;
    stream += `commit refs/heads/${branch}\ncommitter Bench <bench@example.com> ${1_700_000_000 + i} +0000\n`;
    stream += `data 7\n${branch.slice(0, 6)}\n`;
    if (i === 0) stream += "from refs/heads/main\n";
    stream += `M 100644 inline pushed/${branch}.txt\ndata ${content.length}\n${content}\n`;
  }
  git(["fast-import", "--quiet"], work, stream);
  return branch;
}

for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? servers : [...servers].reverse();
  spawnSync("sync");
  const dest = join(scratch, `file-${round}`);
  results.file.clone.push({ clientMs: timed(["clone", "--quiet", "--bare", `file://${source}`, dest]) });
  await rm(dest, { recursive: true, force: true });
  for (const server of order) {
    const into = join(scratch, `clone-${server.mode}-${round}`);
    spawnSync("sync");
    results[server.mode].clone.push(
      await measure(server, () => timed(["clone", "--quiet", "--bare", `${server.url}/src.git`, into])),
    );
    await rm(into, { recursive: true, force: true });
    results[server.mode].fetch.push(
      await measure(server, () => timed(["fetch", "--quiet", "origin"], fetchers[server.mode])),
    );
    const branch = newCommits(round, server.mode);
    results[server.mode].push.push(
      await measure(server, () => timed(["push", "--quiet", `${server.url}/push.git`, branch], work)),
    );
  }
  console.error(`round ${round + 1}/${ROUNDS} done`);
}

const table = [];
for (const op of ["clone", "fetch", "push"]) {
  const row = { op };
  for (const mode of ["kiln", "cgi"]) {
    const runs = results[mode][op];
    row[`${mode} client ms`] = median(runs.map((r) => r.clientMs)).toFixed(1);
    row[`${mode} server wall ms`] = median(runs.map((r) => r.serverWallMs)).toFixed(1);
    row[`${mode} server CPU ms`] = median(runs.map((r) => r.serverCpuMs)).toFixed(0);
  }
  row["kiln/cgi client"] = (
    median(results.kiln[op].map((r) => r.clientMs)) / median(results.cgi[op].map((r) => r.clientMs))
  ).toFixed(3);
  if (op === "clone") {
    const floor = median(results.file.clone.map((r) => r.clientMs));
    row["file:// ms"] = floor.toFixed(1);
    row["kiln/file"] = (median(results.kiln.clone.map((r) => r.clientMs)) / floor).toFixed(3);
    row["cgi/file"] = (median(results.cgi.clone.map((r) => r.clientMs)) / floor).toFixed(3);
  }
  table.push(row);
}
console.log(JSON.stringify({ rounds: ROUNDS, commits: COMMITS, pushCommits: PUSH_COMMITS, table }, null, 2));
for (const server of servers) server.child.kill("SIGTERM");
await rm(scratch, { recursive: true, force: true });
