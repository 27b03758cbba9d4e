// Baseline (h): the issues list and issue creation in raw SQL. node:http plus better-sqlite3 on the
// seeded database file, prepared statements from lib/raw-issues-sql.mjs:
// - GET /projects/:id/issues?per_page=&page=: performance.md's raw list: the page of every state and
//   the project's exact COUNT(*).
// - GET /projects/:id/issues?state=opened[&labels=<title>]&per_page=&page=: the page (Kiln's WHERE,
//   ORDER BY and LIMIT); the total from the project's counters for the state list, from the label's
//   for the label list (no X-Total above 10,000, as GitLab and Kiln); the rows as JSON.
// - POST /projects/:id/issues {"title"}: one transaction (BEGIN IMMEDIATE) bumping the project's iid
//   counter, inserting the issue and counting it open; 201 with the row as JSON.
// The connection's `synchronous` is BENCH_SYNCHRONOUS (FULL, the server's default, unless told).
// Usage: node raw-issues.mjs <kiln.sqlite>. Prints its port as a JSON line.
import { createServer } from "node:http";
import Database from "better-sqlite3";
import {
  COUNT_OPENED_SQL,
  INSERT_ISSUE_SQL,
  ISSUES_COUNT_SQL,
  ISSUES_COUNTERS_SQL,
  ISSUES_OPENED_LABEL_PAGE_SQL,
  ISSUES_OPENED_PAGE_SQL,
  ISSUES_PAGE_SQL,
  LABEL_SQL,
  NEXT_IID_SQL,
} from "../lib/raw-issues-sql.mjs";
import { COUNT_LIMIT, rawPageHeaders } from "../lib/raw-sql.mjs";

const db = new Database(process.argv[2], { fileMustExist: true });
db.pragma("journal_mode = WAL");
db.pragma(`synchronous = ${process.env.BENCH_SYNCHRONOUS || "FULL"}`);
db.pragma("busy_timeout = 5000");
const anyPage = db.prepare(ISSUES_PAGE_SQL);
const anyCount = db.prepare(ISSUES_COUNT_SQL).pluck();
const openedPage = db.prepare(ISSUES_OPENED_PAGE_SQL);
const counters = db.prepare(ISSUES_COUNTERS_SQL);
const labelOf = db.prepare(LABEL_SQL);
const labelPage = db.prepare(ISSUES_OPENED_LABEL_PAGE_SQL);
const nextIid = db.prepare(NEXT_IID_SQL).pluck();
const insertIssue = db.prepare(INSERT_ISSUE_SQL);
const countOpened = db.prepare(COUNT_OPENED_SQL);
const create = db.transaction((projectId, title, authorId) => {
  const at = new Date().toISOString();
  const iid = nextIid.get(projectId);
  const row = insertIssue.get(projectId, iid, title, null, authorId, at, at);
  countOpened.run(projectId);
  return row;
});

function send(res, status, json, extra = {}) {
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(json),
    "Cache-Control": "no-cache",
    ...extra,
  });
  res.end(json);
}

/** The page and its total (null above the cap): every state, or opened with or without a label. */
function list(projectId, state, label, perPage, page) {
  const offset = (page - 1) * perPage;
  if (state !== "opened")
    return { rows: anyPage.all(projectId, perPage, offset), total: anyCount.get(projectId) };
  if (!label) {
    const rows = openedPage.all(projectId, perPage, offset);
    return { rows, total: counters.get(projectId)?.open_issues_count ?? 0 };
  }
  const found = labelOf.get(projectId, label);
  if (found === undefined) return { rows: [], total: 0 };
  const rows = labelPage.all(projectId, found.id, perPage, offset);
  const counted = page === 1 && rows.length < perPage ? rows.length : found.open_issues_count;
  return { rows, total: counted > COUNT_LIMIT ? null : counted };
}

function getIssues(res, projectId, query) {
  const perPage = Math.min(Math.max(Number(query.get("per_page")) || 20, 1), 100);
  const page = Math.max(Number(query.get("page")) || 1, 1);
  const { rows, total } = list(projectId, query.get("state"), query.get("labels"), perPage, page);
  send(res, 200, JSON.stringify(rows), rawPageHeaders(rows, perPage, page, total));
}

function postIssue(req, res, projectId) {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk) => {
    body += chunk;
  });
  req.on("end", () => {
    const { title } = JSON.parse(body || "{}");
    if (!title) return send(res, 400, '{"message":"400 (Bad request) \\"title\\" not given"}');
    send(res, 201, JSON.stringify(create(projectId, String(title), 1)));
  });
}

const server = createServer((req, res) => {
  const url = req.url ?? "/";
  const match = /^\/projects\/(\d+)\/issues(?:\?|$)/.exec(url);
  if (!match) return send(res, 404, '{"message":"404 Not Found"}');
  const projectId = Number(match[1]);
  if (req.method === "POST") return postIssue(req, res, projectId);
  getIssues(res, projectId, new URLSearchParams(url.slice(url.indexOf("?") + 1 || url.length)));
});

server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ msg: "listening", port: server.address().port })}\n`);
});
process.once("SIGTERM", () => {
  db.close();
  process.exit(0);
});
