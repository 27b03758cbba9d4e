// Baseline (d): the users list in raw SQL. node:http plus better-sqlite3 on the seeded database file:
// two prepared statements (the page and COUNT(*)), the X-Total style headers, the rows as JSON.
// Usage: node raw-users.mjs <kiln.sqlite>. Prints its port as a JSON line.
import { createServer } from "node:http";
import Database from "better-sqlite3";
import { USERS_COUNT_SQL, USERS_PAGE_SQL } from "../lib/raw-sql.mjs";

const db = new Database(process.argv[2], { fileMustExist: true });
db.pragma("journal_mode = WAL");
db.pragma("busy_timeout = 5000");
const pageOf = db.prepare(USERS_PAGE_SQL);
const countAll = db.prepare(USERS_COUNT_SQL).pluck();

const server = createServer((req, res) => {
  const url = req.url ?? "/";
  const query = new URLSearchParams(url.slice(url.indexOf("?") + 1 || url.length));
  const perPage = Math.min(Math.max(Number(query.get("per_page")) || 20, 1), 100);
  const page = Math.max(Number(query.get("page")) || 1, 1);
  const rows = pageOf.all(perPage, (page - 1) * perPage);
  const total = countAll.get();
  const totalPages = Math.ceil(total / perPage);
  const json = JSON.stringify(rows);
  res.writeHead(200, {
    "X-Total": String(total),
    "X-Total-Pages": String(totalPages),
    "X-Per-Page": String(perPage),
    "X-Page": String(page),
    "X-Next-Page": page < totalPages ? String(page + 1) : "",
    "X-Prev-Page": page > 1 ? String(page - 1) : "",
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
