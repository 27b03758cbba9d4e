import type { Kysely } from "kysely";
import { withId } from "./helpers.js";

// Frozen: never edit a migration that has landed; add a new one.

/**
 * Two-factor authentication (TOTP), on `users`:
 * - `otp_secret_sealed`: the secret of the enrolled authenticator, sealed with the server key as
 *   the other secrets Kiln must read back are (the private token, import URLs);
 * - `otp_pending_secret_sealed`: a secret shown during enrolment, not in force until a code from
 *   it is confirmed;
 * - `otp_last_step`: the last 30-second step a code was accepted for, so that no step is accepted
 *   twice (a code seen over a shoulder or replayed is refused);
 * - `two_factor_enabled_at`: when the user confirmed enrolment (null: not enrolled).
 * And `two_factor_recovery_codes`: each user's single-use recovery codes, stored as SHA-256
 * digests, `used_at` set when one is spent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("otp_secret_sealed", "text").execute();
  await db.schema.alterTable("users").addColumn("otp_pending_secret_sealed", "text").execute();
  await db.schema.alterTable("users").addColumn("otp_last_step", "integer").execute();
  await db.schema.alterTable("users").addColumn("two_factor_enabled_at", "text").execute();
  await withId(db, db.schema.createTable("two_factor_recovery_codes"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_digest", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema
    .createIndex("two_factor_recovery_codes_user_digest")
    .on("two_factor_recovery_codes")
    .unique()
    .columns(["user_id", "code_digest"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("two_factor_recovery_codes").execute();
  await db.schema.alterTable("users").dropColumn("two_factor_enabled_at").execute();
  await db.schema.alterTable("users").dropColumn("otp_last_step").execute();
  await db.schema.alterTable("users").dropColumn("otp_pending_secret_sealed").execute();
  await db.schema.alterTable("users").dropColumn("otp_secret_sealed").execute();
}
