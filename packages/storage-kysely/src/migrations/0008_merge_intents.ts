import type { Kysely } from "kysely";
import { notNullDefault, withId } from "./helpers.js";

// Frozen: never edit a migration that has landed; add a new one.

/**
 * Merges about to move their target branch, written (and committed) before the branch moves and
 * deleted in the transaction that records the merge. A row that outlives its accept (the process
 * was killed in between) says what to finish: the merge is recorded if the branch holds the commit,
 * else the row is dropped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("merge_intents"))
    .addColumn("merge_request_id", "integer", (c) =>
      c.notNull().references("merge_requests.id").onDelete("cascade"),
    )
    .addColumn("target_branch", "text", (c) => c.notNull())
    .addColumn("previous_sha", "text", (c) => c.notNull())
    .addColumn("commit_sha", "text", (c) => c.notNull())
    .addColumn("source_sha", "text", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("remove_source_branch", "integer", notNullDefault(0))
    .addColumn("closing_issue_ids", "text", notNullDefault("[]"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("merge_intents_merge_request")
    .on("merge_intents")
    .column("merge_request_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("merge_intents").execute();
}
