import {
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type Kysely,
  PostgresAdapter,
  sql,
} from "kysely";

/** True when the migration runs on PostgreSQL. */
export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * An auto-incrementing integer primary key that never reuses a value: `serial` on PostgreSQL,
 * `integer primary key autoincrement` on SQLite.
 */
export function withId<T extends string>(
  db: Kysely<unknown>,
  table: CreateTableBuilder<T>,
): CreateTableBuilder<T> {
  return isPostgres(db)
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

/** A NOT NULL column with a default. */
export const notNullDefault =
  (value: string | number) =>
  (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    c.notNull().defaultTo(value);

/**
 * Places a durable outbox subscriber that this migration brings in at the newest event: on an
 * upgraded server it handles what happens from now on, not the week of events already kept (no
 * webhooks replayed, no pipelines for old pushes). With no event kept, it registers at 0 as usual.
 */
export async function startSubscriberAtNewestEvent(db: Kysely<unknown>, subscriber: string): Promise<void> {
  await sql`insert into outbox_positions (subscriber, position, updated_at)
    select ${subscriber}, max(id), ${new Date().toISOString()} from outbox_events having max(id) is not null
    on conflict (subscriber) do nothing`.execute(db);
}

/** Undoes {@link startSubscriberAtNewestEvent}. */
export async function forgetSubscriber(db: Kysely<unknown>, subscriber: string): Promise<void> {
  await sql`delete from outbox_positions where subscriber = ${subscriber}`.execute(db);
}
