// The issues cases: the fixture (1,000,000 issues, 100,000 of them in one project), the raw issues
// baseline, the wrk scripts for random projects and creations, and the case definitions run.mjs loads.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runnable } from "./cases.mjs";
import { seedIssues } from "./seed-issues.mjs";
import { seedProjects } from "./seed-projects.mjs";
import { startBaseline } from "./servers.mjs";

/** Case ids of the issues benchmark (they need the issues fixture). */
export const ISSUE_CASES = [
  "raw_issues_list",
  "raw_issues_list_state",
  "raw_issues_list_label",
  "raw_issues_list_v3",
  "raw_issues_insert",
  "issues_list_state",
  "issues_list_label",
  "issues_create",
];
/** The label the label list filters on (carried by 30 % of the issues). */
export const LIST_LABEL = "bug";
/** The query of the measured lists. */
export const STATE_QUERY = "state=opened&per_page=20";
export const LABEL_QUERY = `${STATE_QUERY}&labels=${LIST_LABEL}`;
/** The body of every creation: what a client sends at the least. */
export const CREATE_BODY = JSON.stringify({ title: "Benchmark issue created over HTTP" });
/** Projects that hold issues (the first by id): the big one, then the others. */
const ISSUE_PROJECTS = 1000;

/**
 * Seeds the issues (and, when the projects fixture is not wanted, the 1,000 projects they go in)
 * into a data dir that holds the users. Returns the seed's summary plus the ids the cases use: the
 * big project (listed), the write project (created in: the second, about 900 issues, so that the
 * creations do not change the big project's lists) and the ordinary projects (the random list).
 */
export async function seedIssueFixture(dataDir, config, { projectsSeeded }) {
  if (!projectsSeeded) await seedProjects(dataDir, { count: ISSUE_PROJECTS, groups: 20 });
  const issues = seedIssues(dataDir, {
    count: config.issues,
    bigCount: config.bigIssues,
    projects: ISSUE_PROJECTS,
  });
  const { big, projectIds } = issues;
  return {
    ...issues,
    writeProjectId: projectIds[1],
    ordinaryProjectIds: projectIds.slice(2),
    bigProjectId: big.projectId,
  };
}

/** wrk scripts (Lua) for the cases that are not one fixed GET; written into `dir`. */
function writeScripts(dir, fixture) {
  const post = join(dir, "post-issue.lua");
  writeFileSync(
    post,
    `wrk.method = "POST"\nwrk.body = [[${CREATE_BODY}]]\nwrk.headers["Content-Type"] = "application/json"\n`,
  );
  // performance.md's raw list: a random project of about 900 issues on every request.
  const randomList = join(dir, "random-project-issues.lua");
  writeFileSync(
    randomList,
    `local ids = {${fixture.ordinaryProjectIds.join(",")}}\n` +
      "math.randomseed(os.time())\n" +
      "request = function()\n" +
      '  return wrk.format("GET", "/projects/" .. ids[math.random(#ids)] .. "/issues?per_page=20")\n' +
      "end\n",
  );
  return { post, randomList };
}

/** One POST, to check a creation case before loading it. */
async function probePost(url, headers) {
  const res = await fetch(url, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: CREATE_BODY,
  });
  const text = await res.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, bytes: Buffer.byteLength(text), body };
}

/**
 * Starts the raw issues baseline (when a raw issues case is wanted) and returns the issues cases in
 * run.mjs's shape: `{ id, label, server, path, headers, script?, method?, expect... }`.
 */
export async function issueCases({ wanted, fixture, kiln, auth, tmp, dbFile, synchronous, logLevel }) {
  const scripts = writeScripts(tmp, fixture);
  const raw = ISSUE_CASES.some((id) => id.startsWith("raw_") && wanted(id))
    ? await startBaseline("raw SQL issues", "raw-issues.mjs", [dbFile], { BENCH_SYNCHRONOUS: synchronous })
    : null;
  const big = fixture.bigProjectId;
  const write = fixture.writeProjectId;
  const kilnPath = (id, query) => `/api/v3/projects/${id}/issues${query ? `?${query}` : ""}`;
  const expectedLabelled = fixture.big.labels[LIST_LABEL] ?? 0;
  /** @type {import("./cases.mjs").BenchCase[]} */
  const cases = [
    {
      id: "raw_issues_list",
      label: "(h) raw SQL issues list: random project (~900), p1 + COUNT",
      server: raw,
      path: `/projects/${fixture.ordinaryProjectIds[0]}/issues?per_page=20`,
      script: scripts.randomList,
      expectItems: 20,
    },
    {
      id: "raw_issues_list_state",
      label: "(h) raw SQL issues, 100k project, opened p1 + counters",
      server: raw,
      path: `/projects/${big}/issues?${STATE_QUERY}`,
      expectItems: 20,
      expectTotal: String(fixture.big.opened),
    },
    {
      id: "raw_issues_list_label",
      label: `(h) raw SQL issues, 100k project, opened+${LIST_LABEL} p1 + label counter`,
      server: raw,
      path: `/projects/${big}/issues?${LABEL_QUERY}`,
      expectItems: 20,
      expectTotal: expectedLabelled > 10_000 ? null : undefined,
    },
    {
      id: "raw_issues_list_v3",
      label: "(h) raw SQL, 100k project, opened p1 as Kiln answers it (v3 JSON)",
      server: raw,
      path: `/v3/projects/${big}/issues?${STATE_QUERY}`,
      headers: auth,
      expectItems: 20,
      expectTotal: String(fixture.big.opened),
      // The same answer as Kiln's, origins aside (checked by checkSameAnswers).
      sameAs: "issues_list_state",
    },
    {
      id: "raw_issues_insert",
      label: `(h) raw SQL issue insert (iid + INSERT + counter) [${synchronous}]`,
      server: raw,
      path: `/projects/${write}/issues`,
      script: scripts.post,
      method: "POST",
    },
    {
      id: "issues_list_state",
      label: `(i) Kiln GET /projects/:id/issues?state=opened, 100k project [${logLevel}]`,
      server: kiln,
      path: kilnPath(big, STATE_QUERY),
      headers: auth,
      expectItems: 20,
      expectTotal: String(fixture.big.opened),
    },
    {
      id: "issues_list_label",
      label: `(i) Kiln GET …/issues?state=opened&labels=${LIST_LABEL}, 100k project [${logLevel}]`,
      server: kiln,
      path: kilnPath(big, LABEL_QUERY),
      headers: auth,
      expectItems: 20,
      // 70 % of the label's ~30,000 issues are open: above the cap, so no X-Total.
      expectTotal: expectedLabelled > 10_000 ? null : undefined,
    },
    {
      id: "issues_create",
      label: `(i) Kiln POST /projects/:id/issues [${logLevel}, ${synchronous}]`,
      server: kiln,
      path: kilnPath(write),
      headers: auth,
      script: scripts.post,
      method: "POST",
    },
  ];
  return cases.filter(runnable(wanted));
}

/** Checks a POST case answers 200 or 201 (Kiln: 200, as the spec says) with an issue (run.mjs probes the GET cases itself). */
export async function probeCreation(kase) {
  const check = await probePost(kase.url, kase.headers);
  if ((check.status !== 200 && check.status !== 201) || typeof check.body?.iid !== "number")
    throw new Error(`${kase.label}: ${check.status} ${JSON.stringify(check.body)}`);
  return { status: check.status, bodyBytes: check.bytes, xTotal: null, items: null };
}

/**
 * Checks that each probed case with `sameAs` answered what the named case answered (their origins
 * in URLs aside): a baseline that is meant to do Kiln's job must give Kiln's answer.
 */
export function checkSameAnswers(cases) {
  for (const kase of cases) {
    const other = cases.find((candidate) => candidate.id === kase.sameAs);
    if (!kase.sameAs || !other?.answer || !kase.answer) continue;
    const origins = /https?:\/\/[^/"]+/g;
    const mine = kase.answer.replace(origins, "<base>");
    const theirs = other.answer.replace(origins, "<base>");
    const [a, b] = [JSON.parse(mine), JSON.parse(theirs)];
    const at = a.findIndex((item, i) => JSON.stringify(item) !== JSON.stringify(b[i]));
    if (at !== -1 || a.length !== b.length)
      throw new Error(
        `${kase.label}: answers differently from ${other.label}; item ${at}:\n${JSON.stringify(a[at])}\n${JSON.stringify(b[at])}`,
      );
  }
}
