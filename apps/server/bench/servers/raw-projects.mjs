// Baseline (e): the projects list in raw SQL. node:http plus better-sqlite3 on the seeded database
// file: two prepared statements (the page, newest first, and a count capped at 10,001 rows as
// GitLab's and Kiln's are), the X-Total style headers (X-Total and X-Total-Pages left out above
// 10,000, as GitLab does), the rows as JSON. Usage: node raw-projects.mjs <kiln.sqlite>.
// Prints its port as a JSON line.
import { createServer } from "node:http";
import Database from "better-sqlite3";
import { COUNT_LIMIT, PROJECTS_COUNT_SQL, PROJECTS_PAGE_SQL, rawPageHeaders } from "../lib/raw-sql.mjs";

const db = new Database(process.argv[2], { fileMustExist: true });
db.pragma("journal_mode = WAL");
db.pragma("busy_timeout = 5000");
const pageOf = db.prepare(PROJECTS_PAGE_SQL);
const countCapped = db.prepare(PROJECTS_COUNT_SQL).pluck();

const server = createServer((req, res) => {
  const url = req.url ?? "/";
  const query = new URLSearchParams(url.slice(url.indexOf("?") + 1 || url.length));
  const perPage = Math.min(Math.max(Number(query.get("per_page")) || 20, 1), 100);
  const page = Math.max(Number(query.get("page")) || 1, 1);
  const rows = pageOf.all(perPage, (page - 1) * perPage);
  const counted = countCapped.get();
  const json = JSON.stringify(rows);
  res.writeHead(200, {
    ...rawPageHeaders(rows, perPage, page, counted > COUNT_LIMIT ? null : counted),
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(json),
    "Cache-Control": "no-cache",
  });
  res.end(json);
});

server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  process.stdout.write(`${JSON.stringify({ msg: "listening", port })}\n`);
});
process.once("SIGTERM", () => {
  db.close();
  process.exit(0);
});
