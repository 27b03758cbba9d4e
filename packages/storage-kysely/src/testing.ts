import { randomBytes } from "node:crypto";
import pg from "pg";
import { type DialectName, type OpenDatabase, openDatabase } from "./connect.js";
import { migrateToLatest } from "./migrate.js";

/** A dialect that tests run against, and whether it is available here. */
export interface TestDialect {
  name: DialectName;
  /** Why the dialect cannot run here, or null when it can. */
  unavailable: string | null;
  /** Opens a fresh, migrated, empty database; `close` also throws it away. */
  open(): Promise<OpenDatabase>;
}

/** The environment variable naming a PostgreSQL server for tests (`postgres://…`). */
export const TEST_PG_URL_ENV = "KILN_TEST_PG_URL";

/**
 * The dialects a contract test should loop over: SQLite always (in memory), and PostgreSQL when
 * `KILN_TEST_PG_URL` is set, each test database created fresh and dropped on close.
 */
export function testDialects(): TestDialect[] {
  const pgUrl = process.env[TEST_PG_URL_ENV];
  return [
    {
      name: "sqlite",
      unavailable: null,
      open: async () => {
        const opened = await openDatabase({ kind: "sqlite", filename: ":memory:" });
        await migrateToLatest(opened.db);
        return opened;
      },
    },
    {
      name: "postgres",
      unavailable: pgUrl ? null : `set ${TEST_PG_URL_ENV} to run`,
      open: () => openThrowawayPostgres(pgUrl ?? ""),
    },
  ];
}

/** A new, empty database on a PostgreSQL server, and how to drop it. */
export interface ThrowawayPostgres {
  url: string;
  drop(): Promise<void>;
}

/** Creates an empty database with a unique name on the server at `serverUrl`. */
export async function createThrowawayPostgres(serverUrl: string): Promise<ThrowawayPostgres> {
  const name = `kiln_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await withAdminClient(serverUrl, (client) => client.query(`create database ${name}`));
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    drop: () =>
      withAdminClient(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`)),
  };
}

/** Creates a new database on the server at `url`, migrated; closing drops it. */
export async function openThrowawayPostgres(url: string): Promise<OpenDatabase> {
  const throwaway = await createThrowawayPostgres(url);
  const opened = await openDatabase({ kind: "postgres", url: throwaway.url, poolSize: 4 });
  await migrateToLatest(opened.db);
  return {
    ...opened,
    close: async () => {
      await opened.close();
      await throwaway.drop();
    },
  };
}

async function withAdminClient(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
