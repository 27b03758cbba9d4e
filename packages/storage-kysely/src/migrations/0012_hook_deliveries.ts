import type { Kysely } from "kysely";
import { forgetSubscriber, notNullDefault, startSubscriberAtNewestEvent, withId } from "./helpers.js";

// Frozen: never edit a migration that has landed; add a new one.

/**
 * Webhook deliveries and system hooks. A delivery is one payload for one hook, written by the
 * `webhooks` outbox subscriber (one per event and hook: the unique key makes a replayed event add
 * nothing) or by a test request (no event), then sent, retried and logged by the delivery worker.
 * No foreign keys: the log outlives a hook deleted after it, and the worker drops what it cannot
 * send. System hooks (admin-managed, instance-wide) are a table of their own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await startSubscriberAtNewestEvent(db, "webhooks");
  await withId(db, db.schema.createTable("system_hooks"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("token_sealed", "text")
    .addColumn("push_events", "integer", notNullDefault(1))
    .addColumn("tag_push_events", "integer", notNullDefault(0))
    .addColumn("enable_ssl_verification", "integer", notNullDefault(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable("hook_deliveries"))
    .addColumn("uuid", "text", (c) => c.notNull().unique())
    .addColumn("event_id", "integer")
    .addColumn("hook_scope", "text", (c) => c.notNull())
    .addColumn("hook_id", "integer", (c) => c.notNull())
    .addColumn("project_id", "integer")
    .addColumn("event_name", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", notNullDefault(0))
    .addColumn("next_attempt_at", "text")
    .addColumn("claimed_until", "text")
    .addColumn("url", "text")
    .addColumn("request_headers", "text")
    .addColumn("response_status", "integer")
    .addColumn("response_headers", "text")
    .addColumn("response_body", "text")
    .addColumn("error", "text")
    .addColumn("duration_ms", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("hook_deliveries_event_hook", ["event_id", "hook_scope", "hook_id"])
    .execute();
  await db.schema
    .createIndex("hook_deliveries_due")
    .on("hook_deliveries")
    .columns(["state", "next_attempt_at"])
    .execute();
  await db.schema
    .createIndex("hook_deliveries_hook")
    .on("hook_deliveries")
    .columns(["hook_scope", "hook_id", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await forgetSubscriber(db, "webhooks");
  await db.schema.dropTable("hook_deliveries").execute();
  await db.schema.dropTable("system_hooks").execute();
}
