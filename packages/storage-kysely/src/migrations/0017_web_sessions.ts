import type { Kysely } from "kysely";
import { withId } from "./helpers.js";

// Frozen: never edit a migration that has landed; add a new one.

/**
 * Web sessions: one row per signed-in browser, found by the SHA-256 digest of the random id its
 * cookie holds (the id itself is never stored), with the CSRF token of its forms, when it was made
 * and last used, and from where. Deleting the row signs that browser out; a user's rows go with
 * the user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("web_sessions"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("session_digest", "text", (c) => c.notNull().unique())
    .addColumn("csrf_token", "text", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("user_agent", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("web_sessions_user").on("web_sessions").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("web_sessions").execute();
}
