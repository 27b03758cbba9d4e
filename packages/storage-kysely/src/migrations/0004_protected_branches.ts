import type { Kysely } from "kysely";
import { notNullDefault, withId } from "./helpers.js";

// Frozen: never edit a migration that has landed; add a new one.

/** Branch protection rules, one per project and exact branch name. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("protected_branches"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("developers_can_push", "integer", notNullDefault(0))
    .addColumn("developers_can_merge", "integer", notNullDefault(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("protected_branches_project_name_unique")
    .on("protected_branches")
    .unique()
    .columns(["project_id", "name"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("protected_branches").execute();
}
