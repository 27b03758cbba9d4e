// The git case of `pnpm bench`: clone, no-op fetch and push over Kiln's smart HTTP against
// `git http-backend` run directly on the same repositories, and a `file://` clone as the floor,
// interleaved round by round in the same run. See bench/README.md ("Git over HTTP").
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { generateRepo } from "../../../../packages/git/bench/gen-repo.mjs";
import { CLK_TCK } from "./proc.mjs";
import { signIn, startBaseline, startKiln } from "./servers.mjs";

/** Case ids of this module, as BENCH_CASES names them. */
export const GIT_CASES = ["git"];

const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** CPU ms a live process and the children it reaped (git, for both servers) have used so far. */
function treeCpuMs(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return ((Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1000) / CLK_TCK;
}

/** The git client, isolated from the machine's configuration. */
function clientGit(scratch) {
  const env = {
    PATH: process.env.PATH,
    HOME: scratch,
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: "Bench",
    GIT_AUTHOR_EMAIL: "bench@example.com",
    GIT_COMMITTER_NAME: "Bench",
    GIT_COMMITTER_EMAIL: "bench@example.com",
  };
  /** @param {string[]} args @param {{ cwd?: string; input?: string }} [options] */
  const git = (args, { cwd = scratch, input } = {}) => {
    const result = spawnSync("git", args, { cwd, env, input, stdio: ["pipe", "pipe", "pipe"] });
    if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
    return result.stdout.toString().trim();
  };
  const timed = (args, options) => {
    const start = process.hrtime.bigint();
    git(args, options);
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  return { git, timed };
}

/**
 * Reads the request lines Kiln logged since the last call (LOG_LEVEL=info): the git requests and
 * their summed `ms` (arrival to the end of the answer, as the cgi baseline counts it).
 */
function kilnRequestLog(logFile) {
  let offset = existsSync(logFile) ? statSync(logFile).size : 0;
  return () => {
    const size = statSync(logFile).size;
    const buffer = Buffer.alloc(size - offset);
    const fd = openSync(logFile, "r");
    readSync(fd, buffer, 0, buffer.length, offset);
    closeSync(fd);
    offset = size;
    let requests = 0;
    let wallMs = 0;
    for (const line of buffer.toString("utf8").split("\n")) {
      if (!line.startsWith("{")) continue;
      const entry = JSON.parse(line);
      if (entry.msg !== "request" || !/\/(info\/refs|git-upload-pack|git-receive-pack)$/.test(entry.path))
        continue;
      requests += 1;
      wallMs += entry.ms;
    }
    return { requests, wallMs };
  };
}

/** Creates a project as root over the API and answers it. */
async function createProject(url, token, name) {
  const res = await fetch(`${url}/api/v3/projects`, {
    method: "POST",
    headers: { "PRIVATE-TOKEN": token, "Content-Type": "application/json" },
    body: JSON.stringify({ name, visibility_level: 0 }),
  });
  const body = /** @type {{ id: number; path: string }} */ (await res.json());
  if (res.status !== 201) throw new Error(`creating ${name}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * Runs the git case: generates (or reuses) the repository, starts a Kiln of its own
 * (LOG_LEVEL=info, for its per-request times) and the `git http-backend` baseline on Kiln's
 * repositories directory, then `rounds` rounds of: a `file://` clone, and for each server in
 * alternating order a bare clone, a no-op fetch in an up-to-date mirror and a push of
 * `pushCommits` new commits to a new branch. Answers the medians, the checks and the printed text.
 */
export async function benchGit({ tmp, rounds, commits, pushCommits, rootPassword }) {
  const repoRoot = process.env.BENCH_GIT_REPO_DIR || join(tmpdir(), `kiln-bench-git-${commits}`);
  const source = join(repoRoot, "src.git");
  if (!existsSync(join(source, "HEAD"))) {
    const started = Date.now();
    mkdirSync(repoRoot, { recursive: true });
    await generateRepo(source, { commits });
    console.log(`bench git: generated ${commits} commits in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const scratch = join(tmp, "git-client");
  mkdirSync(scratch, { recursive: true });
  const { git, timed } = clientGit(scratch);

  const dataDir = join(tmp, "git-data");
  const kiln = await startKiln({ label: "git", dataDir, logDir: tmp, logLevel: "info", rootPassword });
  const token = await signIn(kiln.url, "root", rootPassword);
  const auth = [
    "-c",
    `http.extraHeader=Authorization: Basic ${Buffer.from(`root:${token}`).toString("base64")}`,
  ];
  // One project to clone and fetch, one to push to (pushes would make the fetches fetch).
  const cloned = await createProject(kiln.url, token, "bench-clone");
  const pushed = await createProject(kiln.url, token, "bench-push");
  const repositories = join(dataDir, "repositories");
  for (const project of [cloned, pushed]) {
    // The first push goes through Kiln like any other: main becomes the default branch.
    git([...auth, "--git-dir", source, "push", "--quiet", `${kiln.url}/root/${project.path}.git`, "main"]);
    git(["--git-dir", join(repositories, `${project.id}.git`), "repack", "-a", "-d", "-q"]);
  }
  const cgi = await startBaseline("git http-backend", "git-http-backend.mjs", [], {
    GIT_PROJECT_ROOT: repositories,
  });
  const servers = [
    {
      mode: "kiln",
      pid: kiln.handle.pid,
      clone: `${kiln.url}/root/bench-clone.git`,
      push: `${kiln.url}/root/bench-push.git`,
      args: auth,
      wall: kilnRequestLog(kiln.logFile),
    },
    {
      mode: "cgi",
      pid: cgi.handle.pid,
      clone: `${cgi.url}/${cloned.id}.git`,
      push: `${cgi.url}/${pushed.id}.git`,
      args: [],
      wall: (() => {
        let last = { requests: 0, wallMs: 0 };
        return async () => {
          const now = /** @type {typeof last} */ (await (await fetch(`${cgi.url}/__stats`)).json());
          const delta = { requests: now.requests - last.requests, wallMs: now.wallMs - last.wallMs };
          last = now;
          return delta;
        };
      })(),
    },
  ];

  const measure = async (server, run) => {
    await server.wall();
    const cpu0 = treeCpuMs(server.pid);
    const clientMs = run();
    await sleep(300); // Kiln's log lines are flushed every 200 ms; git processes reaped
    const { requests, wallMs } = await server.wall();
    return { clientMs, serverWallMs: wallMs, serverCpuMs: treeCpuMs(server.pid) - cpu0, requests };
  };

  const fetchers = {};
  for (const server of servers) {
    fetchers[server.mode] = join(scratch, `fetch-${server.mode}`);
    git([...server.args, "clone", "--quiet", "--mirror", server.clone, fetchers[server.mode]]);
  }
  const work = join(scratch, "work");
  git(["clone", "--quiet", "--no-checkout", source, work]);
  const nonce = Date.now();
  const newBranch = (round, mode) => {
    const branch = `bench-${mode}-${round}`;
    let stream = "";
    for (let i = 0; i < pushCommits; i++) {
      const content = `${branch} ${i} ${nonce}\n`;
      stream += `commit refs/heads/${branch}\ncommitter Bench <bench@example.com> ${1_700_000_000 + i} +0000\n`;
      stream += `data 7\n${branch.slice(0, 6)}\n`;
      if (i === 0) stream += "from refs/heads/main\n";
      stream += `M 100644 inline pushed/${branch}.txt\ndata ${content.length}\n${content}\n`;
    }
    git(["fast-import", "--quiet"], { cwd: work, input: stream });
    return branch;
  };

  /** @type {Record<string, Record<string, Record<string, number>[]>>} */
  const results = {
    file: { clone: [] },
    kiln: { clone: [], fetch: [], push: [] },
    cgi: { clone: [], fetch: [], push: [] },
  };
  const floorRepo = join(repositories, `${cloned.id}.git`);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    spawnSync("sync");
    const floorDest = join(scratch, `file-${round}`);
    results.file.clone.push({
      clientMs: timed(["clone", "--quiet", "--bare", `file://${floorRepo}`, floorDest]),
    });
    await rm(floorDest, { recursive: true, force: true });
    for (const server of order) {
      const dest = join(scratch, `clone-${server.mode}-${round}`);
      spawnSync("sync");
      results[server.mode].clone.push(
        await measure(server, () =>
          timed([...server.args, "clone", "--quiet", "--bare", server.clone, dest]),
        ),
      );
      await rm(dest, { recursive: true, force: true });
      results[server.mode].fetch.push(
        await measure(server, () =>
          timed([...server.args, "fetch", "--quiet", "origin"], { cwd: fetchers[server.mode] }),
        ),
      );
      const branch = newBranch(round, server.mode);
      results[server.mode].push.push(
        await measure(server, () =>
          timed([...server.args, "push", "--quiet", server.push, branch], { cwd: work }),
        ),
      );
    }
    console.log(`bench git: round ${round + 1}/${rounds} done`);
  }
  await kiln.handle.stop();
  await cgi.handle.stop();

  const pick = (mode, op, key) => median(results[mode][op].map((run) => run[key]));
  const summary = {};
  for (const op of ["clone", "fetch", "push"]) {
    summary[op] = {};
    for (const mode of ["kiln", "cgi"]) {
      summary[op][mode] = {
        clientMs: pick(mode, op, "clientMs"),
        serverWallMs: pick(mode, op, "serverWallMs"),
        serverCpuMs: pick(mode, op, "serverCpuMs"),
        requests: pick(mode, op, "requests"),
      };
    }
    summary[op].kilnOverCgi = summary[op].kiln.clientMs / summary[op].cgi.clientMs;
  }
  summary.clone.fileMs = pick("file", "clone", "clientMs");
  summary.clone.kilnOverFile = summary.clone.kiln.clientMs / summary.clone.fileMs;
  summary.clone.cgiOverFile = summary.clone.cgi.clientMs / summary.clone.fileMs;

  const checks = [
    {
      label: "git clone: Kiln ÷ git http-backend (client time)",
      value: summary.clone.kilnOverCgi,
      target: 1.05,
      unit: "≤",
      pass: summary.clone.kilnOverCgi <= 1.05,
      informational: false,
    },
    {
      label: "git clone: Kiln ÷ file:// (client time)",
      value: summary.clone.kilnOverFile,
      target: 1.05,
      unit: "≤",
      pass: summary.clone.kilnOverFile <= 1.05,
      informational: true,
    },
    {
      label: "git no-op fetch: Kiln server time (ms)",
      value: summary.fetch.kiln.serverWallMs,
      target: 20,
      unit: "<",
      pass: summary.fetch.kiln.serverWallMs < 20,
      informational: false,
    },
    {
      label: `git push of ${pushCommits} commits: Kiln ÷ git http-backend`,
      value: summary.push.kilnOverCgi,
      target: 1.05,
      unit: "≤",
      pass: summary.push.kilnOverCgi <= 1.05,
      informational: true,
    },
  ];
  return {
    config: { rounds, commits, pushCommits, repo: source },
    summary,
    results,
    checks,
    text: render(summary, checks, { rounds, commits, pushCommits }),
  };
}

const fmt = (value, digits = 1) => (value === null || Number.isNaN(value) ? "–" : value.toFixed(digits));

function render(summary, checks, { rounds, commits, pushCommits }) {
  const header = [
    "operation",
    "Kiln ms",
    "cgi ms",
    "Kiln÷cgi",
    "Kiln srv ms",
    "cgi srv ms",
    "Kiln CPU ms",
    "cgi CPU ms",
    "requests",
  ];
  const rows = [
    ["clone --bare", "clone"],
    ["no-op fetch", "fetch"],
    [`push ${pushCommits} commits`, "push"],
  ].map(([label, op]) => {
    const s = summary[op];
    return [
      label,
      fmt(s.kiln.clientMs),
      fmt(s.cgi.clientMs),
      fmt(s.kilnOverCgi, 3),
      fmt(s.kiln.serverWallMs),
      fmt(s.cgi.serverWallMs),
      fmt(s.kiln.serverCpuMs, 0),
      fmt(s.cgi.serverCpuMs, 0),
      `${s.kiln.requests}/${s.cgi.requests}`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ");
  const lines = [
    "",
    `git over HTTP: ${commits} commits × 500 files, median of ${rounds} rounds (client wall time; server: summed request time, CPU with git)`,
    line(header),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...rows.map(line),
    `file:// clone ${fmt(summary.clone.fileMs)} ms; Kiln÷file ${fmt(summary.clone.kilnOverFile, 3)}, cgi÷file ${fmt(summary.clone.cgiOverFile, 3)}`,
    "",
  ];
  for (const check of checks) {
    const mark = (check.pass ? "PASS" : "FAIL") + (check.informational ? " (info only)" : "");
    lines.push(
      `${check.label.padEnd(48)} ${fmt(check.value, check.unit === "<" ? 1 : 3).padStart(6)}  (target ${check.unit} ${check.target})  ${mark}`,
    );
  }
  return lines.join("\n");
}
