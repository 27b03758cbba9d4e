import type { Kysely } from "kysely";
import { notNullDefault, withId } from "./helpers.js";

// Frozen: never edit a migration that has landed; add a new one.

/**
 * The transactional outbox: a domain event is a row of `outbox_events`, written in the
 * transaction of the change it reports, and each subscriber's `outbox_positions` row says up to
 * which event it has handled them. No foreign key to the project: an event outlives a project
 * deleted after it, and writing one checks nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("outbox_events"))
    .addColumn("project_id", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("outbox_positions")
    .addColumn("subscriber", "text", (c) => c.primaryKey())
    .addColumn("position", "integer", notNullDefault(0))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("outbox_positions").execute();
  await db.schema.dropTable("outbox_events").execute();
}
