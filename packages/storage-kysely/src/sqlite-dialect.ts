import type BetterSqlite3 from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from "kysely";
import { registerCaseFolding } from "./case-folding.js";

/**
 * A first-come, first-served lock. Kysely's own SQLite driver wakes every waiter at once and lets
 * newcomers barge in, which starves queued requests under load (p99 over 300 ms at 50
 * connections); handing the lock to the oldest waiter keeps the wait bounded by the queue.
 */
class FifoLock {
  #held = false;
  readonly #waiters: (() => void)[] = [];

  acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#held = false;
  }
}

/** The one connection: runs each query synchronously through a cache of prepared statements. */
class SqliteConnection implements DatabaseConnection {
  readonly #statements = new Map<string, BetterSqlite3.Statement>();

  constructor(
    private readonly raw: BetterSqlite3.Database,
    private readonly cacheCapacity: number,
  ) {}

  #prepare(sqlText: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(sqlText);
    if (statement) return statement;
    statement = this.raw.prepare(sqlText);
    if (this.#statements.size >= this.cacheCapacity) {
      const oldest = this.#statements.keys().next().value;
      if (oldest !== undefined) this.#statements.delete(oldest);
    }
    this.#statements.set(sqlText, statement);
    return statement;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.#prepare(query.sql);
    const parameters = query.parameters as unknown[];
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered; the iterator fails at once.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming is not supported on SQLite here");
  }
}

class SqliteDriver implements Driver {
  readonly #lock = new FifoLock();
  readonly #connection: SqliteConnection;

  constructor(private readonly raw: BetterSqlite3.Database) {
    // Prepared statements are reused by SQL text, which measured ~1.1x on list requests.
    this.#connection = new SqliteConnection(raw, 1000);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#lock.acquire();
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    this.#lock.release();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // IMMEDIATE takes the write lock up front, so another process (the CLI) cannot make the
    // transaction fail halfway with SQLITE_BUSY when it first writes.
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteName(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteName(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteName(name)}`));
  }

  async destroy(): Promise<void> {
    this.raw.close();
  }
}

/** How long a process waits for another one's migrations to finish before it gives up. */
const MIGRATION_WAIT_MS = 10 * 60_000;

/**
 * SQLite with transactional DDL, which it has. Kysely's SQLite adapter declares none and takes no
 * migration lock, trusting that one connection is all there is; but the server and `kiln migrate`
 * may migrate one file from two processes. With transactional DDL the migrator reads which
 * migrations are applied inside a transaction begun IMMEDIATE, so migrating processes take turns
 * and the pending migrations are applied once, all of them or none. Waiting for that turn may take
 * as long as a migration does, far longer than the usual busy timeout.
 */
class KilnSqliteAdapter extends SqliteAdapter {
  #usualWaitMs: number | null = null;

  override get supportsTransactionalDdl(): boolean {
    return true;
  }

  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db);
    this.#usualWaitMs = rows[0]?.timeout ?? null;
    await sql`pragma busy_timeout = ${sql.lit(MIGRATION_WAIT_MS)}`.execute(db);
  }

  override async releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
    if (this.#usualWaitMs === null) return;
    await sql`pragma busy_timeout = ${sql.lit(this.#usualWaitMs)}`.execute(db);
  }
}

function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Kysely on a better-sqlite3 database: fair (FIFO) access to the single connection, prepared
 * statements cached, write transactions begun IMMEDIATE, migrations run in a transaction,
 * `lower()` folding Unicode as on PostgreSQL ({@link registerCaseFolding}).
 */
export class KilnSqliteDialect implements Dialect {
  constructor(private readonly raw: BetterSqlite3.Database) {
    registerCaseFolding(raw);
  }

  createDriver(): Driver {
    return new SqliteDriver(this.raw);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter() {
    return new KilnSqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}
