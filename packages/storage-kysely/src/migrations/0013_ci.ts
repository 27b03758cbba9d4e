import type { Kysely } from "kysely";
import { forgetSubscriber, notNullDefault, startSubscriberAtNewestEvent, withId } from "./helpers.js";

// Frozen: never edit a migration that has landed; add a new one.

/**
 * CI: pipelines (one per pushed commit and ref, or trigger), their builds (ids global, as v3 shows
 * them), runners and the projects they serve, secret variables and triggers. Tokens are kept as
 * SHA-256 digests (lookup), and sealed with the server key where the API shows them again (runner
 * and trigger tokens, the instance registration token). Traces and artifacts are files under the
 * data dir; the rows say where and how big.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await startSubscriberAtNewestEvent(db, "ci_pipelines");
  await withId(db, db.schema.createTable("ci_pipelines"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("ref", "text", (c) => c.notNull())
    .addColumn("tag", "integer", notNullDefault(0))
    .addColumn("sha", "text", (c) => c.notNull())
    .addColumn("before_sha", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("yaml_errors", "text")
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("trigger_variables", "text")
    .addColumn("started_at", "text")
    .addColumn("finished_at", "text")
    .addColumn("duration", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await index(db, "ci_pipelines_project_sha", "ci_pipelines", ["project_id", "sha"]);
  await index(db, "ci_pipelines_project_ref", "ci_pipelines", ["project_id", "ref"]);

  await withId(db, db.schema.createTable("ci_runners"))
    .addColumn("token_digest", "text", (c) => c.notNull())
    .addColumn("token_sealed", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("active", "integer", notNullDefault(1))
    .addColumn("is_shared", "integer", notNullDefault(0))
    .addColumn("name", "text")
    .addColumn("version", "text")
    .addColumn("revision", "text")
    .addColumn("platform", "text")
    .addColumn("architecture", "text")
    .addColumn("tag_list", "text", notNullDefault("[]"))
    .addColumn("run_untagged", "integer", notNullDefault(1))
    .addColumn("locked", "integer", notNullDefault(0))
    .addColumn("contacted_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await unique(db, "ci_runners_token", "ci_runners", ["token_digest"]);

  await withId(db, db.schema.createTable("ci_runner_projects"))
    .addColumn("runner_id", "integer", (c) => c.notNull().references("ci_runners.id").onDelete("cascade"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await unique(db, "ci_runner_projects_unique", "ci_runner_projects", ["runner_id", "project_id"]);
  await index(db, "ci_runner_projects_project", "ci_runner_projects", ["project_id"]);

  await withId(db, db.schema.createTable("ci_builds"))
    .addColumn("pipeline_id", "integer", (c) => c.notNull().references("ci_pipelines.id").onDelete("cascade"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    // `build` (run by a runner) or `generic` (a commit status posted by an external CI).
    .addColumn("type", "text", notNullDefault("build"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("stage", "text", (c) => c.notNull())
    .addColumn("stage_idx", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("when", "text", notNullDefault("on_success"))
    .addColumn("allow_failure", "integer", notNullDefault(0))
    .addColumn("commands", "text", notNullDefault(""))
    .addColumn("options", "text", notNullDefault("{}"))
    .addColumn("yaml_variables", "text", notNullDefault("[]"))
    .addColumn("tag_list", "text", notNullDefault("[]"))
    .addColumn("ref", "text", (c) => c.notNull())
    .addColumn("tag", "integer", notNullDefault(0))
    .addColumn("sha", "text", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("runner_id", "integer", (c) => c.references("ci_runners.id").onDelete("set null"))
    .addColumn("token_digest", "text")
    .addColumn("trace_size", "integer", notNullDefault(0))
    .addColumn("artifacts_file", "text")
    .addColumn("artifacts_size", "integer")
    .addColumn("artifacts_expire_at", "text")
    .addColumn("erased_at", "text")
    .addColumn("erased_by_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("retried", "integer", notNullDefault(0))
    .addColumn("description", "text")
    .addColumn("target_url", "text")
    .addColumn("queued_at", "text")
    .addColumn("started_at", "text")
    .addColumn("finished_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await index(db, "ci_builds_pipeline", "ci_builds", ["pipeline_id"]);
  await index(db, "ci_builds_project", "ci_builds", ["project_id", "id"]);
  await index(db, "ci_builds_status", "ci_builds", ["status", "id"]);
  await unique(db, "ci_builds_token", "ci_builds", ["token_digest"]);

  await withId(db, db.schema.createTable("ci_variables"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("value_sealed", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await unique(db, "ci_variables_project_key", "ci_variables", ["project_id", "key"]);

  await withId(db, db.schema.createTable("ci_triggers"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("token_digest", "text", (c) => c.notNull())
    .addColumn("token_sealed", "text", (c) => c.notNull())
    .addColumn("deleted_at", "text")
    .addColumn("last_used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await unique(db, "ci_triggers_token", "ci_triggers", ["token_digest"]);

  // The instance-wide registration token of shared runners, made on first use.
  await db.schema
    .alterTable("application_settings")
    .addColumn("runners_registration_token_sealed", "text")
    .execute();
}

function index(db: Kysely<unknown>, name: string, table: string, columns: string[]): Promise<void> {
  return db.schema.createIndex(name).on(table).columns(columns).execute();
}

function unique(db: Kysely<unknown>, name: string, table: string, columns: string[]): Promise<void> {
  return db.schema.createIndex(name).on(table).unique().columns(columns).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await forgetSubscriber(db, "ci_pipelines");
  await db.schema
    .alterTable("application_settings")
    .dropColumn("runners_registration_token_sealed")
    .execute();
  for (const table of [
    "ci_triggers",
    "ci_variables",
    "ci_builds",
    "ci_runner_projects",
    "ci_runners",
    "ci_pipelines",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
