// Kiln HTTP benchmark: Kiln against baselines doing the same job, measured in the same run.
// Method and the machine's ceilings: /work/shared/reference/performance.md. Usage: bench/README.md.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEEP_PAGE, KILN_REQUESTS, PROJECT_CASES, runnable, USERS_LIST } from "./lib/cases.mjs";
import { benchGit, GIT_CASES } from "./lib/git-bench.mjs";
import {
  checkSameAnswers,
  ISSUE_CASES,
  issueCases,
  probeCreation,
  seedIssueFixture,
} from "./lib/issue-cases.mjs";
import { measureClean } from "./lib/measure.mjs";
import { cleanUp, installExitHandlers, peakRssMiB, removeOnExit, stopping } from "./lib/proc.mjs";
import { evaluate, render, summarise } from "./lib/report.mjs";
import { seedUsers } from "./lib/seed.mjs";
import { seedProjects } from "./lib/seed-projects.mjs";
import { MAIN_JS, probe, signIn, startBaseline, startKiln } from "./lib/servers.mjs";
import { ensureWrk, runWrk } from "./lib/wrk.mjs";

const env = process.env;
const num = (name, fallback) => (env[name] === undefined || env[name] === "" ? fallback : Number(env[name]));
const config = {
  seconds: num("BENCH_DURATION", 10),
  reps: num("BENCH_REPS", 3),
  warmup: num("BENCH_WARMUP", 3),
  connections: num("BENCH_CONNECTIONS", 50),
  users: num("BENCH_USERS", 10_000),
  projects: num("BENCH_PROJECTS", 100_000),
  groups: num("BENCH_GROUPS", 200),
  issues: num("BENCH_ISSUES", 1_000_000),
  bigIssues: num("BENCH_BIG_ISSUES", 100_000),
  // Kiln's (KILN_SQLITE_SYNCHRONOUS) and the raw issues baseline's: creations compare at the same setting.
  synchronous: (env.BENCH_SYNCHRONOUS || "FULL").toUpperCase(),
  logLevel: env.BENCH_LOG_LEVEL || "warn",
  // A rep during which other processes used more CPU than this (CPU-s per 10 s of load) is retried.
  maxForeign: num("BENCH_MAX_FOREIGN", 1.0),
  retries: num("BENCH_RETRIES", 2),
  cases: env.BENCH_CASES ? env.BENCH_CASES.split(",").map((s) => s.trim()) : null,
  profile: env.BENCH_PROFILE === "1",
  strict: env.BENCH_STRICT === "1",
  gitRounds: num("BENCH_GIT_ROUNDS", 7),
  gitCommits: num("BENCH_GIT_COMMITS", 2000),
  gitPushCommits: num("BENCH_GIT_PUSH_COMMITS", 200),
};
const ROOT_PASSWORD = "bench-root-password";
const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const RESULTS_DIR = join(BENCH_DIR, "results");

function describeMachine(wrkVersion) {
  let commit = null;
  try {
    const git = (...args) => execFileSync("git", args, { cwd: BENCH_DIR, encoding: "utf8" }).trim();
    // The figures are for the built dist/main.js; note when the tree it was built from had changes.
    commit = git("rev-parse", "--short", "HEAD") + (git("status", "--porcelain", "--", ":/") ? "+dirty" : "");
  } catch {}
  return {
    date: new Date().toISOString(),
    node: process.version,
    wrk: wrkVersion,
    cpu: `${cpus().length} × ${cpus()[0]?.model ?? "?"}`,
    loadavgAtStart: loadavg().map((l) => Number(l.toFixed(2))),
    commit,
  };
}

/** The git case (clone, no-op fetch, push against `git http-backend`), printed as it ends. */
async function runGitCase(tmp) {
  const git = await benchGit({
    tmp,
    rounds: config.gitRounds,
    commits: config.gitCommits,
    pushCommits: config.gitPushCommits,
    rootPassword: ROOT_PASSWORD,
  });
  console.log(git.text);
  return git;
}

const gitFailed = (git) => git?.checks.some((check) => !check.pass && !check.informational) === true;

async function main() {
  if (!existsSync(MAIN_JS)) throw new Error(`${MAIN_JS} is missing: build first (pnpm build)`);
  const wanted = (id) => !config.cases || config.cases.includes(id);
  const gitWanted = GIT_CASES.some(wanted);
  if (config.cases?.every((id) => GIT_CASES.includes(id))) {
    // Only the git case: no users to seed, no wrk.
    const tmp = mkdtempSync(join(tmpdir(), "kiln-bench-"));
    removeOnExit(tmp);
    const machine = describeMachine(null);
    console.log(`bench: ${machine.cpu}, node ${machine.node}, load ${machine.loadavgAtStart.join(" ")}`);
    const git = await runGitCase(tmp);
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(join(RESULTS_DIR, "latest.json"), `${JSON.stringify({ machine, config, git }, null, 2)}\n`);
    console.log(`bench: results written to ${join(RESULTS_DIR, "latest.json")}`);
    return gitFailed(git) && config.strict ? 1 : 0;
  }
  const wrkVersion = ensureWrk();
  const machine = describeMachine(wrkVersion);
  console.log(
    `bench: ${machine.cpu}, node ${machine.node}, ${wrkVersion}, load ${machine.loadavgAtStart.join(" ")}`,
  );

  const tmp = mkdtempSync(join(tmpdir(), "kiln-bench-"));
  removeOnExit(tmp);
  const dataDir = join(tmp, "data");
  const kilnOptions = { dataDir, logDir: tmp, rootPassword: ROOT_PASSWORD };
  const nodeArgs = config.profile ? ["--cpu-prof", `--cpu-prof-dir=${RESULTS_DIR}`] : [];

  const withProjects = PROJECT_CASES.some(wanted);
  const withIssues = ISSUE_CASES.some(wanted);

  // The real server creates the database, root and the secret key; then 9,999 more users go in directly.
  let started = Date.now();
  const init = await startKiln({ ...kilnOptions, label: "init", logLevel: "warn" });
  // A first start: migrations on an empty database, root, the secret key, the repositories' sweep.
  console.log(`bench: first start answered in ${init.readyMs} ms (spawn to the first 401)`);
  await init.handle.stop();
  const users = await seedUsers(dataDir, config.users - 1);
  console.log(`bench: seeded ${users} users in ${((Date.now() - started) / 1000).toFixed(1)} s (${dataDir})`);
  let projects = null;
  if (withProjects) {
    started = Date.now();
    projects = await seedProjects(dataDir, { count: config.projects, groups: config.groups });
    console.log(
      `bench: seeded ${projects.projects} projects in ${projects.groups} groups and the personal namespaces, ` +
        `${projects.projectMembers} project and ${projects.groupMembers} group memberships, ` +
        `in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }

  let issues = null;
  if (withIssues) {
    started = Date.now();
    issues = await seedIssueFixture(dataDir, config, { projectsSeeded: withProjects });
    console.log(
      `bench: seeded ${issues.issues} issues in ${issues.projectIds.length} projects ` +
        `(${issues.big.issues} in project ${issues.bigProjectId}: ${issues.big.opened} open, ` +
        `labels ${JSON.stringify(issues.big.labels)}), ${issues.labelLinks} label links, ` +
        `in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }

  const kiln = await startKiln({
    ...kilnOptions,
    label: config.logLevel,
    logLevel: config.logLevel,
    nodeArgs,
    extraEnv: { KILN_SQLITE_SYNCHRONOUS: config.synchronous },
  });
  const token = await signIn(kiln.url, "root", ROOT_PASSWORD);
  const auth = { "PRIVATE-TOKEN": token };
  const me = await probe(`${kiln.url}/api/v3/user`, auth);
  if (me.status !== 200 || me.body?.username !== "root") throw new Error(`GET /user: ${me.status}`);

  const memberAuth =
    withProjects && wanted("projects_member")
      ? { "PRIVATE-TOKEN": await signIn(kiln.url, projects?.member.username, ROOT_PASSWORD) }
      : null;
  const withInfo = wanted("user_info") || wanted("users_info");
  const bare = wanted("bare")
    ? await startBaseline("bare node:http", "bare-json.mjs", [], { BENCH_BODY: JSON.stringify(me.body) })
    : null;
  const raw = wanted("raw")
    ? await startBaseline("raw SQL", "raw-users.mjs", [join(dataDir, "kiln.sqlite")])
    : null;
  const rawProjects =
    wanted("raw_projects") || wanted("raw_projects2000")
      ? await startBaseline("raw SQL projects", "raw-projects.mjs", [join(dataDir, "kiln.sqlite")])
      : null;
  const kilnInfo =
    withInfo && config.logLevel !== "info"
      ? await startKiln({ ...kilnOptions, label: "info", logLevel: "info", nodeArgs })
      : null;

  const list = USERS_LIST;
  const asRoot = (id) => ({ server: kiln, path: KILN_REQUESTS[id].path, headers: auth });
  /** @type {import("./lib/cases.mjs").BenchCase[]} */
  const specs = [
    { id: "bare", label: "(c) bare node:http, /user-sized JSON", server: bare, path: "/" },
    {
      id: "user",
      label: `(a) Kiln GET /user [${config.logLevel}]`,
      server: kiln,
      path: "/api/v3/user",
      headers: auth,
    },
    { id: "raw", label: "(d) raw SQL users list (p1 + COUNT)", server: raw, path: "/users?per_page=20" },
    {
      id: "users",
      label: `(b) Kiln GET /users p1 [${config.logLevel}]`,
      server: kiln,
      path: list,
      headers: auth,
    },
    {
      id: "users2",
      label: `(b) Kiln GET /users p2 [${config.logLevel}]`,
      server: kiln,
      path: `${list}&page=2`,
      headers: auth,
    },
    {
      id: "user_info",
      label: "(a) Kiln GET /user [info]",
      server: kilnInfo,
      path: "/api/v3/user",
      headers: auth,
    },
    { id: "users_info", label: "(b) Kiln GET /users p1 [info]", server: kilnInfo, path: list, headers: auth },
    {
      id: "raw_projects",
      label: "(e) raw SQL projects list (p1 + capped COUNT)",
      server: rawProjects,
      path: "/projects?per_page=20",
    },
    {
      id: "raw_projects2000",
      label: `(e) raw SQL projects list p${DEEP_PAGE}`,
      server: rawProjects,
      path: `/projects?per_page=20&page=${DEEP_PAGE}`,
    },
    {
      id: "projects_root",
      label: `(f) Kiln GET /projects, root [${config.logLevel}]`,
      ...asRoot("projects_root"),
      expectItems: projects?.root.projects,
      expectTotal: String(projects?.root.projects),
    },
    {
      id: "projects_member",
      label: `(f) Kiln GET /projects, member of 20 [${config.logLevel}]`,
      server: memberAuth && kiln,
      path: KILN_REQUESTS.projects_member.path,
      headers: memberAuth,
      expectItems: projects?.member.projects,
      expectTotal: String(projects?.member.projects),
    },
    {
      id: "projects_all",
      label: `(g) Kiln GET /projects/all p1 [${config.logLevel}]`,
      ...asRoot("projects_all"),
      expectItems: 20,
    },
    {
      id: "projects_all2000",
      label: `(g) Kiln GET /projects/all p${DEEP_PAGE} [${config.logLevel}]`,
      ...asRoot("projects_all2000"),
      expectItems: config.projects >= DEEP_PAGE * 20 ? 20 : undefined,
    },
  ];
  const cases = specs.filter(runnable(wanted));
  if (withIssues) {
    cases.push(
      ...(await issueCases({
        wanted,
        fixture: issues,
        kiln,
        auth,
        tmp,
        dbFile: join(dataDir, "kiln.sqlite"),
        synchronous: config.synchronous,
        logLevel: config.logLevel,
      })),
    );
  }
  for (const kase of cases) {
    kase.url = kase.server.url + kase.path;
    kase.headers ??= {};
    kase.reps = [];
    if (kase.method === "POST") {
      kase.probe = await probeCreation(kase);
      continue;
    }
    const check = await probe(kase.url, kase.headers);
    if (check.status !== 200) throw new Error(`${kase.label}: ${check.status} ${JSON.stringify(check.body)}`);
    // A list answering fewer projects than the fixture holds for the caller would measure the wrong thing.
    const items = Array.isArray(check.body) ? check.body.length : null;
    if (kase.expectItems !== undefined && items !== Math.min(kase.expectItems, 20))
      throw new Error(`${kase.label}: ${items} items, expected ${Math.min(kase.expectItems, 20)}`);
    if (kase.expectTotal !== undefined && check.total !== kase.expectTotal)
      throw new Error(`${kase.label}: X-Total ${check.total}, expected ${kase.expectTotal}`);
    kase.probe = { status: check.status, bodyBytes: check.bytes, xTotal: check.total, items };
    kase.answer = check.text;
  }
  checkSameAnswers(cases);

  started = Date.now();
  console.log(`bench: warming up ${cases.length} cases for ${config.warmup} s each`);
  for (const kase of cases)
    await runWrk(kase.url, {
      seconds: config.warmup,
      connections: config.connections,
      headers: kase.headers,
      script: kase.script,
    });
  // Reps are interleaved (rep 1 of every case, then rep 2…) so drift on the shared box hits every case alike.
  for (let rep = 1; rep <= config.reps; rep++) {
    for (const kase of cases) {
      const result = await measureClean(kase, config);
      kase.reps.push(result);
      console.log(
        `  rep ${rep}/${config.reps} ${kase.id.padEnd(21)} ${result.rps.toFixed(0).padStart(6)} req/s  p99 ${(result.p99 ?? Number.NaN).toFixed(2)} ms` +
          `  ${(result.cpuUsPerReq ?? Number.NaN).toFixed(1)} CPU-µs/req  other ${result.foreignCpuS.toFixed(2)} CPU-s`,
      );
    }
  }
  for (const kase of cases) kase.peakRssMiB = peakRssMiB(kase.server.handle.pid);

  const summaries = Object.fromEntries(cases.map((kase) => [kase.id, summarise(kase)]));
  const verdict = evaluate(summaries);
  console.log(render(cases, summaries, verdict, config));
  console.log(
    `\nbench: measured in ${((Date.now() - started) / 1000).toFixed(0)} s; peak RSS MiB: ` +
      cases.map((k) => `${k.id} ${k.peakRssMiB}`).join(", "),
  );
  const git = gitWanted ? await runGitCase(tmp) : null;

  mkdirSync(RESULTS_DIR, { recursive: true });
  const output = {
    machine,
    config: {
      ...config,
      usersSeeded: users,
      projectsSeeded: projects,
      issuesSeeded: issues && { ...issues, projectIds: undefined, ordinaryProjectIds: undefined },
    },
    cases: cases.map(({ id, label, path, probe: check, reps, peakRssMiB: rss }) => ({
      id,
      label,
      path,
      probe: check,
      peakRssMiB: rss,
      median: summaries[id],
      reps,
    })),
    verdict,
    git,
  };
  writeFileSync(join(RESULTS_DIR, "latest.json"), `${JSON.stringify(output, null, 2)}\n`);
  console.log(`bench: results written to ${join(RESULTS_DIR, "latest.json")}`);
  if (config.profile) console.log(`bench: CPU profiles go to ${RESULTS_DIR} when the Kiln servers stop`);

  const failed =
    [...verdict.ratios, ...verdict.latency].some((check) => !check.pass && !check.informational) ||
    gitFailed(git);
  const errors = Object.values(summaries).some((s) => s.errors > 0);
  if (errors)
    console.log("bench: some responses were errors (see the errors column); the figures are suspect");
  return (failed && config.strict) || errors ? 1 : 0;
}

installExitHandlers();
let code = 1;
try {
  code = await main();
} catch (error) {
  if (!stopping) console.error(`bench: ${error instanceof Error ? error.message : error}`);
} finally {
  await cleanUp();
}
process.exit(code);
