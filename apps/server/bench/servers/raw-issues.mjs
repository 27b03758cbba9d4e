// Baseline (h): the issues list and issue creation in raw SQL. node:http plus better-sqlite3 on the
// seeded database file, prepared statements from lib/raw-issues-sql.mjs:
// - GET /projects/:id/issues?per_page=&page=: performance.md's raw list: the page of every state and
//   the project's exact COUNT(*).
// - GET /projects/:id/issues?state=opened[&labels=<title>]&per_page=&page=: the page (Kiln's WHERE,
//   ORDER BY and LIMIT); the total from the project's counters for the state list, from the label's
//   for the label list (no X-Total above 10,000, as GitLab and Kiln); the rows as JSON.
// - GET /v3/projects/:id/issues?state=opened&per_page=&page= with PRIVATE-TOKEN: Kiln's answer (the
//   v3 Issue JSON, its headers, the token and the project's permissions checked) by hand, in two
//   statements a request (see V3_PROJECT_SQL, v3PageSql); the token's user is remembered, as
//   Kiln's identity cache does.
// - POST /projects/:id/issues {"title"}: one transaction (BEGIN IMMEDIATE) bumping the project's iid
//   counter, inserting the issue and counting it open; 201 with the row as JSON.
// The connection's `synchronous` is BENCH_SYNCHRONOUS (FULL, the server's default, unless told).
// Usage: node raw-issues.mjs <kiln.sqlite>. Prints its port as a JSON line.
import { createHash } from "node:crypto";
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
  V3_PROJECT_SQL,
  v3PageSql,
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
const v3Project = db.prepare(V3_PROJECT_SQL);
const v3Pages = { all: db.prepare(v3PageSql(false)), visible: db.prepare(v3PageSql(true)) };
const userByToken = db.prepare(
  "SELECT id, is_admin, external, state FROM users WHERE private_token_digest = ?",
);
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

/** The token's user (remembered by digest, as Kiln's identity cache does), or null. */
const identities = new Map();
function identify(token) {
  if (!token) return null;
  const digest = createHash("sha256").update(token).digest("hex");
  let user = identities.get(digest);
  if (user === undefined) {
    user = userByToken.get(digest) ?? null;
    identities.set(digest, user);
  }
  return user && user.state === "active" ? user : null;
}

const GUEST = 10;
const REPORTER = 20;

/** Who wrote something whose account is gone, as Kiln shows them. */
function ghost(baseUrl) {
  return {
    name: "Ghost User",
    username: "ghost",
    id: 0,
    state: "active",
    avatar_url: null,
    web_url: `${baseUrl}/ghost`,
  };
}

/** The v3 user (author, assignee) of a page row's `<prefix>_*` columns; the ghost when deleted. */
function v3User(id, row, prefix, baseUrl) {
  if (id === null) return null;
  const username = row[`${prefix}_username`];
  if (username === null) return ghost(baseUrl);
  return {
    name: row[`${prefix}_name`],
    username,
    id,
    state: row[`${prefix}_state`],
    avatar_url: null,
    web_url: `${baseUrl}/${username}`,
  };
}

function v3Milestone(row) {
  if (row.m_id === null) return null;
  return {
    id: row.m_id,
    iid: row.m_iid,
    project_id: row.m_project_id,
    title: row.m_title,
    description: row.m_description,
    state: row.m_state,
    created_at: row.m_created_at,
    updated_at: row.m_updated_at,
    due_date: row.m_due_date,
    start_date: row.m_start_date,
  };
}

/** A page row as the v3 Issue JSON. */
function v3Issue(row, user, projectUrl, baseUrl) {
  return {
    id: row.id,
    iid: row.iid,
    project_id: row.project_id,
    title: row.title,
    description: row.description,
    state: row.state === "opened" && row.reopened === 1 ? "reopened" : row.state,
    created_at: row.created_at,
    updated_at: row.updated_at,
    labels: JSON.parse(row.labels),
    milestone: v3Milestone(row),
    assignee: v3User(row.assignee_id, row, "assignee", baseUrl),
    author: v3User(row.author_id, row, "author", baseUrl) ?? ghost(baseUrl),
    subscribed:
      row.subscription === null
        ? row.author_id === user.id || row.assignee_id === user.id
        : row.subscription === 1,
    user_notes_count: row.user_notes_count,
    upvotes: 0,
    downvotes: 0,
    due_date: row.due_date,
    confidential: row.confidential === 1,
    web_url: `${projectUrl}/issues/${row.iid}`,
  };
}

/** Kiln's `GET /projects/:id/issues?state=opened` by hand: the caller, the project and the page. */
function getV3Issues(req, res, projectId, query) {
  const user = identify(req.headers["private-token"]);
  if (!user) return send(res, 401, '{"message":"401 Unauthorized"}');
  const project = v3Project.get({ user: user.id, project: projectId });
  const level = Math.max(project?.owns ? 50 : 0, project?.project_level ?? 0, project?.group_level ?? 0);
  const readable =
    project &&
    (user.is_admin ||
      level >= GUEST ||
      project.visibility_level === 20 ||
      (project.visibility_level === 10 && !user.external));
  if (!readable) return send(res, 404, '{"message":"404 Project Not Found"}');
  if (!project.issues_enabled && !user.is_admin) return send(res, 403, '{"message":"403 Forbidden"}');
  if (query.get("state") !== "opened") return send(res, 400, '{"message":"only state=opened here"}');
  const perPage = Math.min(Math.max(Number(query.get("per_page")) || 20, 1), 100);
  const page = Math.max(Number(query.get("page")) || 1, 1);
  const seesAll = user.is_admin || level >= REPORTER;
  const rows = (seesAll ? v3Pages.all : v3Pages.visible).all({
    user: user.id,
    project: projectId,
    limit: perPage,
    offset: (page - 1) * perPage,
  });
  const baseUrl = `http://${req.headers.host}`;
  const projectUrl = `${baseUrl}/${project.namespace_path}/${project.path}`;
  const json = JSON.stringify(rows.map((row) => v3Issue(row, user, projectUrl, baseUrl)));
  // Callers who may not see every issue would need a count: the baseline leaves their total out.
  const total = seesAll ? project.open_issues_count : null;
  const pageUrl = (to) =>
    `${baseUrl}/api/v3/projects/${projectId}/issues?page=${to}&per_page=${perPage}&state=opened`;
  send(res, 200, json, rawPageHeaders(rows, perPage, page, total, pageUrl));
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
  const match = /^(\/v3)?\/projects\/(\d+)\/issues(?:\?|$)/.exec(url);
  if (!match) return send(res, 404, '{"message":"404 Not Found"}');
  const projectId = Number(match[2]);
  const query = new URLSearchParams(url.slice(url.indexOf("?") + 1 || url.length));
  if (match[1]) return getV3Issues(req, res, projectId, query);
  if (req.method === "POST") return postIssue(req, res, projectId);
  getIssues(res, projectId, query);
});

server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  process.stdout.write(`${JSON.stringify({ msg: "listening", port })}\n`);
});
process.once("SIGTERM", () => {
  db.close();
  process.exit(0);
});
