import { type Kysely, sql } from "kysely";

// Frozen: never edit a migration that has landed; add a new one.

/**
 * The application settings row has a creation time, and exists from the start, as GitLab's did
 * (created with the defaults on first use), so that `created_at` and `updated_at` are always
 * timestamps. A row already there was created no later than its last change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("application_settings")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await sql`update application_settings set created_at = updated_at`.execute(db);
  const now = new Date().toISOString();
  await sql`
    insert into application_settings (id, data, created_at, updated_at)
    values (1, '{}', ${now}, ${now})
    on conflict (id) do nothing
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("application_settings").dropColumn("created_at").execute();
}
