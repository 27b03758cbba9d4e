import { type Kysely, sql } from "kysely";
import { notNullDefault } from "./helpers.js";

// Frozen: never edit a migration that has landed; add a new one.

/**
 * Two columns of `projects`:
 * - `public_open_issues_count`: its open issues that are not confidential, kept by the issue store
 *   beside `open_issues_count` in the transaction of every change (create, close, reopen, move,
 *   delete, confidentiality), and filled here from the rows. Those who may not read every
 *   confidential issue are shown this one, so the count does not tell them how many there are.
 * - `import_url_sealed`: the import URL sealed with the server key, as the other secrets are: it
 *   may carry credentials (`https://user:password@host/repo.git`). A migration sees the database
 *   only, not the key, which is kept outside it on purpose; so the clear values left in
 *   `import_url` are sealed and cleared when the server opens the database with its key (the
 *   services' `sealImportUrls`), and nothing writes `import_url` any more.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("projects")
    .addColumn("public_open_issues_count", "integer", notNullDefault(0))
    .execute();
  await db.schema.alterTable("projects").addColumn("import_url_sealed", "text").execute();
  await fillPublicOpenIssueCounts(db);
}

/** Sets every project's count of open issues that are not confidential from its issues. */
export async function fillPublicOpenIssueCounts<DB>(db: Kysely<DB>): Promise<void> {
  await sql`
    update projects set public_open_issues_count = (
      select count(*) from issues
       where issues.project_id = projects.id and issues.state = 'opened' and issues.confidential = 0)
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("projects").dropColumn("import_url_sealed").execute();
  await db.schema.alterTable("projects").dropColumn("public_open_issues_count").execute();
}
