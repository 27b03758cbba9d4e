import type { Kysely } from "kysely";
import { notNullDefault, withId } from "./helpers.js";

// Frozen: never edit a migration that has landed; add a new one.

/**
 * The OAuth 2.0 provider (Doorkeeper's tables as GitLab keeps them, secrets as digests only):
 * applications (the client), grants (authorization codes, with their PKCE challenge) and access
 * tokens (with their refresh token). And the scopes of personal access tokens, `api` for the
 * tokens minted before scopes existed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("oauth_applications"))
    .addColumn("owner_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("uid", "text", (c) => c.notNull().unique())
    .addColumn("secret_digest", "text", (c) => c.notNull())
    .addColumn("redirect_uri", "text", (c) => c.notNull())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("oauth_applications_owner")
    .on("oauth_applications")
    .column("owner_id")
    .execute();

  await withId(db, db.schema.createTable("oauth_access_grants"))
    .addColumn("application_id", "integer", (c) =>
      c.notNull().references("oauth_applications.id").onDelete("cascade"),
    )
    .addColumn("resource_owner_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_digest", "text", (c) => c.notNull().unique())
    .addColumn("redirect_uri", "text", (c) => c.notNull())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("code_challenge", "text")
    .addColumn("code_challenge_method", "text")
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .execute();

  await withId(db, db.schema.createTable("oauth_access_tokens"))
    // Null for the password grant, which names no client.
    .addColumn("application_id", "integer", (c) => c.references("oauth_applications.id").onDelete("cascade"))
    .addColumn("resource_owner_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("grant_id", "integer", (c) => c.references("oauth_access_grants.id").onDelete("cascade"))
    .addColumn("token_digest", "text", (c) => c.notNull().unique())
    .addColumn("refresh_token_digest", "text", (c) => c.unique())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("expires_in", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema
    .createIndex("oauth_access_tokens_owner")
    .on("oauth_access_tokens")
    .columns(["resource_owner_id", "application_id"])
    .execute();
  await db.schema
    .createIndex("oauth_access_tokens_grant")
    .on("oauth_access_tokens")
    .column("grant_id")
    .execute();
  await db.schema
    .createIndex("oauth_access_tokens_application")
    .on("oauth_access_tokens")
    .column("application_id")
    .execute();

  await db.schema
    .alterTable("personal_access_tokens")
    .addColumn("scopes", "text", notNullDefault("api"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("personal_access_tokens").dropColumn("scopes").execute();
  for (const table of ["oauth_access_tokens", "oauth_access_grants", "oauth_applications"]) {
    await db.schema.dropTable(table).execute();
  }
}
