import BetterSqlite3 from "better-sqlite3";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import type { Database } from "./database.js";
import { KilnSqliteDialect } from "./sqlite-dialect.js";

/** The two engines Kysely runs on. */
export type DialectName = "sqlite" | "postgres";

/** `synchronous` settings for SQLite; FULL keeps an acknowledged write through a power loss. */
export type SqliteSynchronous = "FULL" | "NORMAL" | "OFF";

/** Where the data lives: a `postgres://` URL, or a SQLite file (`:memory:` for a throwaway). */
export type DatabaseLocation =
  | { kind: "postgres"; url: string; poolSize?: number }
  | { kind: "sqlite"; filename: string; synchronous?: SqliteSynchronous };

/** An open database and how to close it. */
export interface OpenDatabase {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

/**
 * Opens the database. SQLite gets WAL, foreign keys, `synchronous=FULL` unless told otherwise, a
 * prepared-statement cache and fair access to its one connection; PostgreSQL gets a pool and is probed once, so a bad URL fails here
 * with the driver's reason rather than on the first request.
 */
export async function openDatabase(location: DatabaseLocation): Promise<OpenDatabase> {
  if (location.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: location.url, max: location.poolSize ?? 10 });
    // An idle client whose server went away (restart, failover, dropped database) emits "error";
    // unhandled, that would crash the process. The pool already discards the client.
    pool.on("error", () => {});
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    try {
      await sql`select 1`.execute(db);
    } catch (error) {
      await db.destroy();
      throw error;
    }
    return { db, dialect: "postgres", close: () => db.destroy() };
  }
  const raw = new BetterSqlite3(location.filename);
  raw.pragma("journal_mode = WAL");
  raw.pragma("foreign_keys = ON");
  raw.pragma(`synchronous = ${location.synchronous ?? "FULL"}`);
  raw.pragma("busy_timeout = 5000");
  const db = new Kysely<Database>({ dialect: new KilnSqliteDialect(raw) });
  return { db, dialect: "sqlite", close: () => db.destroy() };
}
