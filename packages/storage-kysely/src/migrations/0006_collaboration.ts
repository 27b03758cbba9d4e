import { type ForeignKeyConstraintBuilder, type Kysely, sql } from "kysely";
import { notNullDefault, withId } from "./helpers.js";

// Frozen: never edit a migration that has landed; add a new one.

/**
 * Issues, merge requests, notes, labels, milestones, todos, subscriptions and per-project iid
 * counters.
 *
 * - Everything goes with its project (`on delete cascade` from `projects`, directly or through
 *   `labels`). Notes, label links, todos and subscriptions point at their issue or merge request
 *   by type and id, as GitLab's do; the stores remove them with it.
 * - A deleted user's issues, merge requests, notes and the todos they caused stay, without an
 *   author (`set null`: the conversation belongs to the project, and the open and closed counts
 *   only change through the stores); their own todos and subscriptions go with them.
 * - `state` holds what lists filter on (`opened`, `closed`, `merged`); `reopened` marks an open
 *   issue or merge request that was reopened, which GitLab reports as state `reopened`. So the
 *   `opened` filter (opened and reopened) is one equality, served by one index range in order.
 * - Every list index ends with `id`, the tie-breaker of every order, so a page is one index walk.
 * - `projects` keeps how many issues and merge requests it has in each state, in the same
 *   transaction as every change, so that an unfiltered list's total needs no count.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("internal_ids")
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("usage", "text", (c) => c.notNull())
    .addColumn("last_value", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("internal_ids_pk", ["project_id", "usage"])
    .execute();

  for (const counter of [
    "closed_issues_count",
    "open_merge_requests_count",
    "closed_merge_requests_count",
    "merged_merge_requests_count",
  ]) {
    await db.schema.alterTable("projects").addColumn(counter, "integer", notNullDefault(0)).execute();
  }

  await withId(db, db.schema.createTable("milestones"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("iid", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("state", "text", notNullDefault("active"))
    .addColumn("due_date", "text")
    .addColumn("start_date", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await unique(db, "milestones_project_iid", "milestones", ["project_id", "iid"]);
  await unique(db, "milestones_project_title", "milestones", ["project_id", "title"]);

  // Foreign keys of issues and merge requests are checked at commit: see `deferred`.
  await withId(db, db.schema.createTable("issues"))
    .addColumn("project_id", "integer", (c) => c.notNull())
    .addColumn("iid", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("state", "text", notNullDefault("opened"))
    .addColumn("reopened", "integer", notNullDefault(0))
    .addColumn("author_id", "integer")
    .addColumn("assignee_id", "integer")
    .addColumn("milestone_id", "integer")
    .addColumn("confidential", "integer", notNullDefault(0))
    .addColumn("due_date", "text")
    .addColumn("moved_to_id", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addForeignKeyConstraint("issues_project_fk", ["project_id"], "projects", ["id"], deferred("cascade"))
    .addForeignKeyConstraint("issues_author_fk", ["author_id"], "users", ["id"], deferred("set null"))
    .addForeignKeyConstraint("issues_assignee_fk", ["assignee_id"], "users", ["id"], deferred("set null"))
    .addForeignKeyConstraint(
      "issues_milestone_fk",
      ["milestone_id"],
      "milestones",
      ["id"],
      deferred("set null"),
    )
    .addForeignKeyConstraint("issues_moved_to_fk", ["moved_to_id"], "issues", ["id"], deferred("set null"))
    .execute();
  await unique(db, "issues_project_iid", "issues", ["project_id", "iid"]);
  await listIndexes(db, "issues", { stateUpdated: true });
  await index(db, "issues_author", "issues", ["author_id", "created_at", "id"]);
  // The other references: their filters, and `set null` when what they point at is deleted.
  await index(db, "issues_assignee", "issues", ["assignee_id"]);
  await index(db, "issues_milestone", "issues", ["milestone_id"]);
  await index(db, "issues_moved_to", "issues", ["moved_to_id"]);

  await withId(db, db.schema.createTable("merge_requests"))
    .addColumn("project_id", "integer", (c) => c.notNull())
    .addColumn("iid", "integer", (c) => c.notNull())
    .addColumn("source_project_id", "integer")
    .addColumn("source_branch", "text", (c) => c.notNull())
    .addColumn("target_branch", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("state", "text", notNullDefault("opened"))
    .addColumn("reopened", "integer", notNullDefault(0))
    .addColumn("author_id", "integer")
    .addColumn("assignee_id", "integer")
    .addColumn("milestone_id", "integer")
    .addColumn("merge_status", "text", notNullDefault("unchecked"))
    .addColumn("merge_when_build_succeeds", "integer", notNullDefault(0))
    .addColumn("merge_user_id", "integer")
    .addColumn("should_remove_source_branch", "integer", notNullDefault(0))
    .addColumn("force_remove_source_branch", "integer", notNullDefault(0))
    .addColumn("diff_head_sha", "text")
    .addColumn("merge_commit_sha", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addForeignKeyConstraint(
      "merge_requests_project_fk",
      ["project_id"],
      "projects",
      ["id"],
      deferred("cascade"),
    )
    .addForeignKeyConstraint(
      "merge_requests_source_project_fk",
      ["source_project_id"],
      "projects",
      ["id"],
      deferred("set null"),
    )
    .addForeignKeyConstraint("merge_requests_author_fk", ["author_id"], "users", ["id"], deferred("set null"))
    .addForeignKeyConstraint(
      "merge_requests_assignee_fk",
      ["assignee_id"],
      "users",
      ["id"],
      deferred("set null"),
    )
    .addForeignKeyConstraint(
      "merge_requests_milestone_fk",
      ["milestone_id"],
      "milestones",
      ["id"],
      deferred("set null"),
    )
    .addForeignKeyConstraint(
      "merge_requests_merge_user_fk",
      ["merge_user_id"],
      "users",
      ["id"],
      deferred("set null"),
    )
    .execute();
  await unique(db, "merge_requests_project_iid", "merge_requests", ["project_id", "iid"]);
  await listIndexes(db, "merge_requests", { stateUpdated: false });
  // One open merge request per source and target branch: the database refuses a second one, even
  // when two are created at once. The literal in the predicate is what lets SQLite use the index
  // for queries that say `state = 'opened'` the same way.
  await sql`create unique index merge_requests_open_branches on merge_requests
    (source_project_id, source_branch, project_id, target_branch) where state = 'opened'`.execute(db);
  await sql`create index merge_requests_open_target on merge_requests
    (project_id, target_branch) where state = 'opened'`.execute(db);
  await index(db, "merge_requests_source", "merge_requests", ["source_project_id", "source_branch"]);
  await index(db, "merge_requests_author", "merge_requests", ["author_id", "created_at", "id"]);
  await index(db, "merge_requests_assignee", "merge_requests", ["assignee_id"]);
  await index(db, "merge_requests_milestone", "merge_requests", ["milestone_id"]);
  await index(db, "merge_requests_merge_user", "merge_requests", ["merge_user_id"]);

  await withId(db, db.schema.createTable("notes"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("noteable_type", "text", (c) => c.notNull())
    .addColumn("noteable_id", "integer", (c) => c.notNull())
    .addColumn("author_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("attachment", "text")
    .addColumn("system", "integer", notNullDefault(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await index(db, "notes_noteable", "notes", ["noteable_type", "noteable_id", "id"]);
  await index(db, "notes_project", "notes", ["project_id"]);
  await index(db, "notes_author", "notes", ["author_id"]);

  await withId(db, db.schema.createTable("labels"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("color", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("priority", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // Case-sensitive, as GitLab's uniqueness validation on PostgreSQL: `Bug` and `bug` are two labels.
  await unique(db, "labels_project_title", "labels", ["project_id", "title"]);

  // Keyed by label first: a label filter reads the label's issues (or merge requests) in one range.
  await db.schema
    .createTable("label_links")
    .addColumn("label_id", "integer", (c) => c.notNull().references("labels.id").onDelete("cascade"))
    .addColumn("target_type", "text", (c) => c.notNull())
    .addColumn("target_id", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("label_links_pk", ["label_id", "target_type", "target_id"])
    .execute();
  await index(db, "label_links_target", "label_links", ["target_type", "target_id", "label_id"]);

  await withId(db, db.schema.createTable("todos"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("target_type", "text", (c) => c.notNull())
    .addColumn("target_id", "integer", (c) => c.notNull())
    .addColumn("action", "integer", (c) => c.notNull())
    .addColumn("author_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("note_id", "integer", (c) => c.references("notes.id").onDelete("cascade"))
    .addColumn("state", "text", notNullDefault("pending"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // At most one pending todo per user and target, whatever the action (GitLab's TodoService rule),
  // kept by the database so that two concurrent creations cannot both succeed.
  await sql`create unique index todos_pending_target on todos
    (user_id, target_type, target_id) where state = 'pending'`.execute(db);
  await index(db, "todos_user", "todos", ["user_id", "state", "id"]);
  await index(db, "todos_target", "todos", ["target_type", "target_id"]);
  await index(db, "todos_project", "todos", ["project_id"]);
  await index(db, "todos_author", "todos", ["author_id"]);
  await index(db, "todos_note", "todos", ["note_id"]);

  await withId(db, db.schema.createTable("subscriptions"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("subscribable_type", "text", (c) => c.notNull())
    .addColumn("subscribable_id", "integer", (c) => c.notNull())
    .addColumn("subscribed", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await unique(db, "subscriptions_subject_user", "subscriptions", [
    "subscribable_type",
    "subscribable_id",
    "user_id",
  ]);
  await index(db, "subscriptions_user", "subscriptions", ["user_id"]);
  await index(db, "subscriptions_project", "subscriptions", ["project_id"]);
}

/**
 * A foreign key whose existence check waits for the commit; its action (`cascade`, `set null`) still
 * runs at once. Issues and merge requests have several `set null` references to users, and more to
 * projects, milestones and issues: deleting a user whose own projects go too updates such a row once
 * per reference that points at them. PostgreSQL checks every foreign key of a row it updates a second
 * time in one transaction, immediately, while the row still names the project about to remove it, and
 * refuses the deletion. Checked at the commit, only the row's final state counts.
 */
const deferred =
  (onDelete: "cascade" | "set null") =>
  (fk: ForeignKeyConstraintBuilder): ForeignKeyConstraintBuilder =>
    fk.onDelete(onDelete).deferrable().initiallyDeferred();

/**
 * The list indexes of issues or merge requests: a project's rows by creation or update time, in
 * every state (the `all` filter) and in one state group, each ending with the `id` tie-breaker.
 */
async function listIndexes(
  db: Kysely<unknown>,
  table: "issues" | "merge_requests",
  options: { stateUpdated: boolean },
): Promise<void> {
  await index(db, `${table}_project_created`, table, ["project_id", "created_at", "id"]);
  await index(db, `${table}_project_updated`, table, ["project_id", "updated_at", "id"]);
  await index(db, `${table}_project_state_created`, table, ["project_id", "state", "created_at", "id"]);
  if (options.stateUpdated) {
    await index(db, `${table}_project_state_updated`, table, ["project_id", "state", "updated_at", "id"]);
  }
}

function index(db: Kysely<unknown>, name: string, table: string, columns: string[]): Promise<void> {
  return db.schema.createIndex(name).on(table).columns(columns).execute();
}

function unique(db: Kysely<unknown>, name: string, table: string, columns: string[]): Promise<void> {
  return db.schema.createIndex(name).on(table).unique().columns(columns).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "subscriptions",
    "todos",
    "label_links",
    "labels",
    "notes",
    "merge_requests",
    "issues",
    "milestones",
    "internal_ids",
  ]) {
    await db.schema.dropTable(table).execute();
  }
  for (const counter of [
    "closed_issues_count",
    "open_merge_requests_count",
    "closed_merge_requests_count",
    "merged_merge_requests_count",
  ]) {
    await db.schema.alterTable("projects").dropColumn(counter).execute();
  }
}
