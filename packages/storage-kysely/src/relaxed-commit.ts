import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "./database.js";
import { onSqlite } from "./queries.js";

/**
 * Runs `work` in a transaction whose commit does not wait for the disk: SQLite commits it with
 * `synchronous=NORMAL` (restoring the connection's setting after), PostgreSQL with
 * `synchronous_commit=off`. It survives a crash of the process, but a power loss may take it back;
 * every later commit that does wait for the disk makes it durable too, as both databases flush
 * their log in order.
 */
export async function relaxedTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  if (!onSqlite(db)) {
    return db.transaction().execute(async (trx) => {
      await sql`set local synchronous_commit = off`.execute(trx);
      return work(trx);
    });
  }
  // One connection for the three steps, so that no other commit runs with the relaxed setting.
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(connection);
    const previous = Number(rows[0]?.synchronous ?? 2);
    await sql`pragma synchronous = normal`.execute(connection);
    try {
      return await connection.transaction().execute(work);
    } finally {
      await sql.raw(`pragma synchronous = ${previous}`).execute(connection);
    }
  });
}
