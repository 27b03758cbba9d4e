import type { Kysely } from "kysely";
import { notNullDefault } from "./helpers.js";

// Frozen: never edit a migration that has landed; add a new one.

/**
 * A project's `build_timeout` (seconds), as GitLab 8.x keeps it: the runner is handed it with each
 * build, and a build running longer is failed. 8.x's default is one hour.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("projects")
    .addColumn("build_timeout", "integer", notNullDefault(3600))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("projects").dropColumn("build_timeout").execute();
}
