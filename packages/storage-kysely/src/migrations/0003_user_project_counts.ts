import { type Kysely, sql } from "kysely";

// Frozen: never edit a migration that has landed; add a new one.

/** How many projects each user's personal namespace holds, kept with every create, delete and transfer. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("personal_projects_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    update users set personal_projects_count = (
      select count(*) from projects join namespaces on namespaces.id = projects.namespace_id
       where namespaces.kind = 'user' and namespaces.owner_id = users.id)
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("personal_projects_count").execute();
}
