import { type Kysely, sql } from "kysely";
import { isPostgres } from "./helpers.js";

// Frozen: never edit a migration that has landed; add a new one.

/**
 * SQLite connections now replace `lower()` with one that folds beyond ASCII as PostgreSQL's does
 * (`registerCaseFolding`). The indexes on `lower(...)` were built with SQLite's built-in, which left
 * non-ASCII letters as they were, so their entries for such names no longer match what lookups
 * compute: rebuild every one of them with the new function. Nothing to do on PostgreSQL.
 *
 * A rebuild fails when two rows that were distinct under ASCII folding are now equal, e.g. the
 * projects "Ärger" and "ärger" in one namespace (PostgreSQL never allowed them); the error names
 * them, so that one can be renamed before starting again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  const indexes = await sql<{ name: string }>`
    select name from sqlite_master where type = 'index' and sql like '%lower(%' order by name
  `.execute(db);
  for (const { name } of indexes.rows) {
    try {
      await sql`reindex ${sql.id(name)}`.execute(db);
    } catch (error) {
      throw new Error(
        `index ${name} cannot be rebuilt with Unicode case folding: ${(error as Error).message}. ` +
          `Rows now equal ignoring case: ${await clashes(db, name)}. Rename all but one and start again.`,
        { cause: error },
      );
    }
  }
}

/**
 * The rows that clash in the index `name`, for the error (only free-text columns can clash). `not
 * indexed`: the index still holds the old foldings and would show no clash.
 */
async function clashes(db: Kysely<unknown>, name: string): Promise<string> {
  const query =
    name === "projects_namespace_name_unique"
      ? sql<{ row: string }>`
          select 'project ' || id || ' "' || name || '" in namespace ' || namespace_id as row from projects not indexed
          where (namespace_id, lower(name)) in
            (select namespace_id, lower(name) from projects not indexed group by 1, 2 having count(*) > 1)
          order by namespace_id, lower(name), id`
      : name === "users_email_unique"
        ? sql<{ row: string }>`
            select 'user ' || id || ' <' || email || '>' as row from users not indexed
            where lower(email) in (select lower(email) from users not indexed group by 1 having count(*) > 1)
            order by lower(email), id`
        : null;
  if (!query) return "(see the index's columns)";
  const { rows } = await query.execute(db);
  return rows.map((r) => r.row).join(", ");
}

export async function down(): Promise<void> {
  // Nothing to undo: an older Kiln, back on the built-in lower(), would need `reindex` itself.
}
