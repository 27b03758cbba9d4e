// The SQL behind each benchmark case: which statements the real server runs for one request, what
// each costs in the server (median µs over many requests) and SQLite's EXPLAIN QUERY PLAN for it.
// Seeds the same fixture as run.mjs, starts dist/main.js with lib/sql-capture.mjs preloaded, sends
// each case's request one at a time, and explains the captured statements on the seeded file.
// Usage: bench/README.md ("Query plans").
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEEP_PAGE, KILN_REQUESTS, PROJECT_CASES } from "./lib/cases.mjs";
import { CREATE_BODY, ISSUE_CASES, LABEL_QUERY, STATE_QUERY, seedIssueFixture } from "./lib/issue-cases.mjs";
import { cleanUp, installExitHandlers, removeOnExit, stopping } from "./lib/proc.mjs";
import { rawIssueStatements } from "./lib/raw-issues-explain.mjs";
import { PROJECTS_COUNT_SQL, PROJECTS_PAGE_SQL, USERS_COUNT_SQL, USERS_PAGE_SQL } from "./lib/raw-sql.mjs";
import { seedUsers } from "./lib/seed.mjs";
import { MEMBER_USERNAME, seedProjects } from "./lib/seed-projects.mjs";
import { MAIN_JS, signIn, startKiln } from "./lib/servers.mjs";

const env = process.env;
const num = (name, fallback) => (env[name] === undefined || env[name] === "" ? fallback : Number(env[name]));
const config = {
  runs: num("BENCH_EXPLAIN_RUNS", 200),
  users: num("BENCH_USERS", 10_000),
  projects: num("BENCH_PROJECTS", 100_000),
  groups: num("BENCH_GROUPS", 200),
  issues: num("BENCH_ISSUES", 1_000_000),
  bigIssues: num("BENCH_BIG_ISSUES", 100_000),
  cases: env.BENCH_CASES ? env.BENCH_CASES.split(",").map((s) => s.trim()) : null,
};
const ROOT_PASSWORD = "bench-root-password";
const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const RESULTS_DIR = join(BENCH_DIR, "results");
const Database = createRequire(MAIN_JS)("better-sqlite3");

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** EXPLAIN QUERY PLAN as an indented tree, one line per step. */
function explain(db, sqlText, params) {
  const steps = db.prepare(`EXPLAIN QUERY PLAN ${sqlText}`).all(params);
  const depth = new Map([[0, -1]]);
  return steps.map((step) => {
    const level = (depth.get(step.parent) ?? -1) + 1;
    depth.set(step.id, level);
    return `${"  ".repeat(level)}${step.detail}`;
  });
}

/** The statements of one request, read from the part of the capture log it wrote. */
function readCapture(logFile, from) {
  const text = readFileSync(logFile, "utf8").slice(from);
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/**
 * One case: `runs` sequential requests after a warm-up; per statement, the median µs and rows.
 * `body`: a JSON body to POST instead of a GET.
 */
async function captureCase(url, headers, logFile, body) {
  const init = body
    ? { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body }
    : { headers };
  for (let i = 0; i < 20; i++) await (await fetch(url, init)).arrayBuffer();
  const requests = [];
  for (let i = 0; i < config.runs; i++) {
    const from = statSync(logFile).size;
    const start = process.hrtime.bigint();
    const res = await fetch(url, init);
    await res.arrayBuffer();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (res.status !== 200 && res.status !== 201) throw new Error(`${url}: ${res.status}`);
    requests.push({ ms, statements: readCapture(logFile, from) });
  }
  // Statements are matched by position; a request whose sequence differs (a background write) is
  // left out of the per-statement medians.
  const shape = (r) => r.statements.map((s) => s.sql).join("\u0000");
  const shapes = new Map();
  for (const r of requests) shapes.set(shape(r), (shapes.get(shape(r)) ?? 0) + 1);
  const common = [...shapes.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const typical = requests.filter((r) => shape(r) === common);
  const statements = typical[0].statements.map((first, i) => ({
    sql: first.sql,
    params: first.params,
    rows: first.rows,
    us: median(typical.map((r) => r.statements[i].us)),
  }));
  return {
    requestMs: median(requests.map((r) => r.ms)),
    sqlUs: median(typical.map((r) => r.statements.reduce((sum, s) => sum + s.us, 0))),
    requestsMatched: typical.length,
    statements,
  };
}

/** The raw baselines' statements, timed in this process (prepared once, as the baselines do). */
function rawCase(db, statements) {
  return {
    statements: statements.map(({ sql: sqlText, params }) => {
      const statement = db.prepare(sqlText);
      for (let i = 0; i < 50; i++) statement.all(params);
      const times = [];
      let rows = 0;
      for (let i = 0; i < config.runs; i++) {
        const start = process.hrtime.bigint();
        rows = statement.all(params).length;
        times.push(Number(process.hrtime.bigint() - start) / 1000);
      }
      return { sql: sqlText, params, rows, us: median(times) };
    }),
  };
}

const short = (sqlText, max = 400) => (sqlText.length > max ? `${sqlText.slice(0, max)}…` : sqlText);

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), "kiln-explain-"));
  removeOnExit(tmp);
  const dataDir = join(tmp, "data");
  const logFile = join(tmp, "sql.log");
  writeFileSync(logFile, "");
  const kilnOptions = { dataDir, logDir: tmp, rootPassword: ROOT_PASSWORD };

  let started = Date.now();
  const init = await startKiln({ ...kilnOptions, label: "init", logLevel: "warn" });
  await init.handle.stop();
  const wanted = (id) => !config.cases || config.cases.includes(id);
  const users = await seedUsers(dataDir, config.users - 1);
  const withProjects = PROJECT_CASES.some(wanted) || ["user", "users", "users2"].some(wanted);
  const seeded = withProjects
    ? await seedProjects(dataDir, { count: config.projects, groups: config.groups })
    : null;
  const issues = ISSUE_CASES.some(wanted)
    ? await seedIssueFixture(dataDir, config, { projectsSeeded: withProjects })
    : null;
  console.log(
    `explain: seeded ${users} users, ${seeded?.projects ?? "no"} projects and ${issues?.issues ?? "no"} issues in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  const capture = fileURLToPath(new URL("./lib/sql-capture.mjs", import.meta.url));
  const kiln = await startKiln({
    ...kilnOptions,
    label: "explain",
    logLevel: "warn",
    nodeArgs: ["--import", capture],
    extraEnv: { BENCH_SQL_LOG: logFile },
  });
  const tokens = {
    root: await signIn(kiln.url, "root", ROOT_PASSWORD),
    member: seeded ? await signIn(kiln.url, MEMBER_USERNAME, ROOT_PASSWORD) : null,
  };

  const db = new Database(join(dataDir, "kiln.sqlite"), { readonly: true, fileMustExist: true });
  /**
   * @type {{ id: string; request: string; requestMs?: number; sqlUs: number;
   *   statements: { sql: string; params: unknown; rows?: number; us: number; plan?: string[] }[] }[]}
   */
  const cases = [];
  started = Date.now();
  const issuesOf = (projectId, query) => `/api/v3/projects/${projectId}/issues${query ? `?${query}` : ""}`;
  const requests = {
    ...(seeded ? KILN_REQUESTS : { user: KILN_REQUESTS.user }),
    ...(issues && {
      issues_list_state: { path: issuesOf(issues.bigProjectId, STATE_QUERY), as: "root" },
      issues_list_label: { path: issuesOf(issues.bigProjectId, LABEL_QUERY), as: "root" },
      issues_create: { path: issuesOf(issues.writeProjectId), as: "root", body: CREATE_BODY },
    }),
  };
  for (const [id, request] of Object.entries(requests)) {
    if (!wanted(id)) continue;
    const measured = await captureCase(
      kiln.url + request.path,
      { "PRIVATE-TOKEN": tokens[request.as] },
      logFile,
      request.body,
    );
    const verb = request.body ? "POST" : "GET";
    cases.push({ id, request: `${verb} ${request.path} as ${request.as}`, ...measured });
  }
  const perPage = 20;
  const deep = DEEP_PAGE;
  /** @type {[string, string, ...[string, unknown][]][]} */
  const raws = [
    ["raw", "raw users list p1", [USERS_PAGE_SQL, [perPage, 0]], [USERS_COUNT_SQL, []]],
    ["raw_projects", "raw projects list p1", [PROJECTS_PAGE_SQL, [perPage, 0]], [PROJECTS_COUNT_SQL, []]],
    [
      "raw_projects2000",
      `raw projects list p${deep}`,
      [PROJECTS_PAGE_SQL, [perPage, (deep - 1) * perPage]],
      [PROJECTS_COUNT_SQL, []],
    ],
    ...(issues ? rawIssueStatements(db, issues) : []),
  ];
  for (const [id, label, ...statements] of raws) {
    if (config.cases && !config.cases.includes(id)) continue;
    const measured = rawCase(
      db,
      statements.map(([sqlText, params]) => ({ sql: sqlText, params })),
    );
    cases.push({ id, request: label, sqlUs: measured.statements.reduce((s, x) => s + x.us, 0), ...measured });
  }
  for (const kase of cases) {
    for (const statement of kase.statements) {
      try {
        statement.plan = explain(db, statement.sql, statement.params);
      } catch (error) {
        statement.plan = [`(not explained: ${/** @type {Error} */ (error).message})`];
      }
    }
  }
  db.close();

  for (const kase of cases) {
    const timing =
      kase.requestMs === undefined
        ? `SQL ${kase.sqlUs.toFixed(0)} µs (in-process)`
        : `request ${kase.requestMs.toFixed(2)} ms (sequential, client side), SQL ${kase.sqlUs.toFixed(0)} µs in ${kase.statements.length} statements`;
    console.log(`\n== ${kase.id}: ${kase.request}\n   ${timing}`);
    for (const [i, statement] of kase.statements.entries()) {
      console.log(
        `\n  [${i + 1}] ${statement.us.toFixed(1)} µs, ${statement.rows ?? "–"} rows, params ${JSON.stringify(statement.params)}`,
      );
      console.log(`      ${short(statement.sql)}`);
      for (const line of statement.plan ?? []) console.log(`      | ${line}`);
    }
  }
  console.log(
    `\nexplain: ${cases.length} cases, ${config.runs} requests each, in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  mkdirSync(RESULTS_DIR, { recursive: true });
  const output = { date: new Date().toISOString(), config, seeded, cases };
  writeFileSync(join(RESULTS_DIR, "explain.json"), `${JSON.stringify(output, null, 2)}\n`);
  console.log(`explain: written to ${join(RESULTS_DIR, "explain.json")}`);
  return 0;
}

installExitHandlers();
let code = 1;
try {
  code = await main();
} catch (error) {
  if (!stopping) console.error(`explain: ${error instanceof Error ? error.stack : error}`);
} finally {
  await cleanUp();
}
process.exit(code);
