import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, PostgresAdapter } from "kysely";

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
