import { type Kysely, sql } from "kysely";
import { notNullDefault, withId } from "./helpers.js";

// Frozen: never edit a migration that has landed; add a new one.

const FLAGS_ON = [
  "issues_enabled",
  "merge_requests_enabled",
  "builds_enabled",
  "wiki_enabled",
  "snippets_enabled",
  "container_registry_enabled",
  "shared_runners_enabled",
  "lfs_enabled",
  "request_access_enabled",
];
const FLAGS_OFF = ["archived", "public_builds", "only_allow_merge_if_build_succeeds"];

export async function up(db: Kysely<unknown>): Promise<void> {
  let projects = withId(db, db.schema.createTable("projects"))
    .addColumn("namespace_id", "integer", (c) => c.notNull().references("namespaces.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("default_branch", "text")
    .addColumn("visibility_level", "integer", notNullDefault(0))
    .addColumn("creator_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("import_url", "text")
    .addColumn("star_count", "integer", notNullDefault(0))
    .addColumn("open_issues_count", "integer", notNullDefault(0))
    .addColumn("runners_token_digest", "text", (c) => c.notNull())
    .addColumn("runners_token_sealed", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("last_activity_at", "text", (c) => c.notNull());
  for (const flag of FLAGS_ON) projects = projects.addColumn(flag, "integer", notNullDefault(1));
  for (const flag of FLAGS_OFF) projects = projects.addColumn(flag, "integer", notNullDefault(0));
  await projects.execute();
  // A column and an expression in one index: plain SQL that SQLite and PostgreSQL both accept.
  await sql`create unique index projects_namespace_path_unique on projects (namespace_id, lower(path))`.execute(
    db,
  );
  await sql`create unique index projects_namespace_name_unique on projects (namespace_id, lower(name))`.execute(
    db,
  );
  await db.schema
    .createIndex("projects_runners_token_unique")
    .on("projects")
    .unique()
    .column("runners_token_digest")
    .execute();
  for (const column of ["created_at", "updated_at", "last_activity_at", "name", "path"]) {
    await db.schema.createIndex(`projects_${column}`).on("projects").columns([column, "id"]).execute();
  }
  await db.schema
    .createIndex("projects_visibility_created")
    .on("projects")
    .columns(["visibility_level", "created_at"])
    .execute();

  await withId(db, db.schema.createTable("project_members"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("access_level", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("project_members_unique")
    .on("project_members")
    .unique()
    .columns(["project_id", "user_id"])
    .execute();
  await db.schema
    .createIndex("project_members_user")
    .on("project_members")
    .columns(["user_id", "project_id"])
    .execute();

  await withId(db, db.schema.createTable("group_members"))
    .addColumn("group_id", "integer", (c) => c.notNull().references("namespaces.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("access_level", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("group_members_unique")
    .on("group_members")
    .unique()
    .columns(["group_id", "user_id"])
    .execute();
  await db.schema
    .createIndex("group_members_user")
    .on("group_members")
    .columns(["user_id", "group_id"])
    .execute();

  await withId(db, db.schema.createTable("project_group_links"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("group_id", "integer", (c) => c.notNull().references("namespaces.id").onDelete("cascade"))
    .addColumn("group_access", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("project_group_links_unique")
    .on("project_group_links")
    .unique()
    .columns(["project_id", "group_id"])
    .execute();
  await db.schema
    .createIndex("project_group_links_group")
    .on("project_group_links")
    .columns(["group_id", "project_id"])
    .execute();

  await db.schema
    .createTable("project_stars")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("project_stars_pk", ["user_id", "project_id"])
    .execute();
  await db.schema.createIndex("project_stars_project").on("project_stars").column("project_id").execute();

  await db.schema
    .createTable("forked_project_links")
    .addColumn("forked_to_project_id", "integer", (c) =>
      c.primaryKey().references("projects.id").onDelete("cascade"),
    )
    .addColumn("forked_from_project_id", "integer", (c) =>
      c.notNull().references("projects.id").onDelete("cascade"),
    )
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("forked_project_links_from")
    .on("forked_project_links")
    .column("forked_from_project_id")
    .execute();

  let hooks = withId(db, db.schema.createTable("project_hooks"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("token_sealed", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull());
  hooks = hooks
    .addColumn("push_events", "integer", notNullDefault(1))
    .addColumn("enable_ssl_verification", "integer", notNullDefault(1));
  for (const flag of [
    "issues_events",
    "merge_requests_events",
    "tag_push_events",
    "note_events",
    "build_events",
    "pipeline_events",
    "wiki_page_events",
  ]) {
    hooks = hooks.addColumn(flag, "integer", notNullDefault(0));
  }
  await hooks.execute();
  await db.schema.createIndex("project_hooks_project").on("project_hooks").column("project_id").execute();

  await withId(db, db.schema.createTable("events"))
    .addColumn("project_id", "integer", (c) => c.references("projects.id").onDelete("cascade"))
    .addColumn("author_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("action", "integer", (c) => c.notNull())
    .addColumn("target_type", "text")
    .addColumn("target_id", "integer")
    .addColumn("target_title", "text")
    .addColumn("data", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("events_project").on("events").columns(["project_id", "id"]).execute();
  await db.schema.createIndex("events_author").on("events").columns(["author_id", "id"]).execute();

  await withId(db, db.schema.createTable("uploads"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("uploader_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("filename", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("uploads_project_secret")
    .on("uploads")
    .unique()
    .columns(["project_id", "secret"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "uploads",
    "events",
    "project_hooks",
    "forked_project_links",
    "project_stars",
    "project_group_links",
    "group_members",
    "project_members",
    "projects",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
