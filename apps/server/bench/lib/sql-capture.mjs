// Preload for a Kiln server under `explain.mjs`: `node --import ./lib/sql-capture.mjs dist/main.js serve`.
// Wraps better-sqlite3's statement methods so every statement the server runs is appended to the
// file named by BENCH_SQL_LOG as a JSON line {sql, params, us, rows}, with the time spent in the call
// (SQLite plus building the JS rows). Only for finding plans and costs: the appends slow the server.
import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const logFile = process.env.BENCH_SQL_LOG;
if (logFile) {
  // The same better-sqlite3 the bundle loads (it is external to dist/main.js).
  const require = createRequire(fileURLToPath(new URL("../../dist/main.js", import.meta.url)));
  const Database = require("better-sqlite3");
  const probe = new Database(":memory:");
  const Statement = Object.getPrototypeOf(probe.prepare("select 1"));
  probe.close();
  for (const method of ["all", "get", "run", "iterate"]) {
    const original = Statement[method];
    Statement[method] = function captured(...args) {
      const start = process.hrtime.bigint();
      const result = original.apply(this, args);
      const us = Number(process.hrtime.bigint() - start) / 1000;
      const params = args.length === 1 && Array.isArray(args[0]) ? args[0] : args;
      const rows = Array.isArray(result) ? result.length : undefined;
      const line = JSON.stringify({ sql: this.source, params, us, rows, method }, (_key, value) =>
        typeof value === "bigint" ? Number(value) : value,
      );
      appendFileSync(logFile, `${line}\n`);
      return result;
    };
  }
}
