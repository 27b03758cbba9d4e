import { type Kysely, sql } from "kysely";
import { notNullDefault, withId } from "./helpers.js";

// Frozen: never edit a migration that has landed; add a new one.

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("users"))
    .addColumn("username", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("state", "text", notNullDefault("active"))
    .addColumn("is_admin", "integer", notNullDefault(0))
    .addColumn("can_create_group", "integer", notNullDefault(1))
    .addColumn("projects_limit", "integer", notNullDefault(10))
    .addColumn("external", "integer", notNullDefault(0))
    .addColumn("bio", "text")
    .addColumn("location", "text")
    .addColumn("organization", "text")
    .addColumn("skype", "text", notNullDefault(""))
    .addColumn("linkedin", "text", notNullDefault(""))
    .addColumn("twitter", "text", notNullDefault(""))
    .addColumn("website_url", "text", notNullDefault(""))
    .addColumn("theme_id", "integer", notNullDefault(1))
    .addColumn("color_scheme_id", "integer", notNullDefault(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("confirmed_at", "text")
    .addColumn("last_sign_in_at", "text")
    .addColumn("current_sign_in_at", "text")
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("private_token_digest", "text", (c) => c.notNull())
    .addColumn("private_token_sealed", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("users_username_unique")
    .on("users")
    .unique()
    .expression(sql`lower(username)`)
    .execute();
  await db.schema
    .createIndex("users_email_unique")
    .on("users")
    .unique()
    .expression(sql`lower(email)`)
    .execute();
  await db.schema
    .createIndex("users_private_token_digest_unique")
    .on("users")
    .unique()
    .column("private_token_digest")
    .execute();

  await withId(db, db.schema.createTable("namespaces"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("owner_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("description", "text", notNullDefault(""))
    .addColumn("visibility_level", "integer", notNullDefault(0))
    .addColumn("share_with_group_lock", "integer", notNullDefault(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("namespaces_path_unique")
    .on("namespaces")
    .unique()
    .expression(sql`lower(path)`)
    .execute();
  await db.schema.createIndex("namespaces_owner").on("namespaces").columns(["owner_id", "kind"]).execute();

  await withId(db, db.schema.createTable("personal_access_tokens"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("token_digest", "text", (c) => c.notNull().unique())
    .addColumn("revoked", "integer", notNullDefault(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text")
    .execute();
  await db.schema
    .createIndex("personal_access_tokens_user")
    .on("personal_access_tokens")
    .column("user_id")
    .execute();

  await withId(db, db.schema.createTable("ssh_keys"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("fingerprint", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("ssh_keys_user").on("ssh_keys").column("user_id").execute();

  await db.schema
    .createTable("application_settings")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["application_settings", "ssh_keys", "personal_access_tokens", "namespaces", "users"]) {
    await db.schema.dropTable(table).execute();
  }
}
