import { COUNT_LIMIT, type PageRequest } from "@kiln/domain";
import {
  CompiledQuery,
  type Expression,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  SqliteAdapter,
  sql,
} from "kysely";
import { foldCase } from "./case-folding.js";
import type { Database } from "./database.js";

/** How a list's total is computed. */
export type CountMode =
  /** Always exact: for lists bounded by nature (one user's keys, all users). */
  | "exact"
  /** Exact up to {@link COUNT_LIMIT}, then unknown (null): for filtered lists over big tables. */
  | "capped";

/**
 * From this offset on, a page is better read as a deferred join (see {@link PageOptions.rows}):
 * under it the walk to the page is short and the extra subquery costs more than it saves.
 */
export const DEFERRED_JOIN_OFFSET = 1000;

/** How {@link paginate} may do better than the plain query where it knows more. */
export interface PageOptions<O> {
  /**
   * Reads the page's rows instead of `query.limit(limit).offset(offset)`: e.g. deep pages as a
   * deferred join, which selects the page's keys over an index that covers the order (OFFSET then
   * steps over index entries instead of table rows) and only then the page's rows by key.
   */
  rows?: ((limit: number, offset: number) => Promise<O[]>) | undefined;
  /**
   * Set when `query` reads every row of this table, with no filter and no join. SQLite then counts
   * with a plain `count(*)` on the table, which it answers from the b-tree's pages (about 20 µs for
   * 100,000 rows, growing by about 0.2 µs per 1,000 rows) rather than stepping through up to
   * COUNT_LIMIT + 1 rows of a subquery (about 350 µs, whatever the table's size); the cap is applied
   * in code. PostgreSQL has no such shortcut (its `count(*)` reads every row: 8 ms for 100,000), so
   * it keeps the capped count.
   */
  wholeTable?: keyof Database | undefined;
  /**
   * The list's total when it is known without counting (a counter kept with every change), or null
   * when it is known to be above COUNT_LIMIT (reported as unknown, as a capped count would): no
   * count query runs.
   */
  total?: number | null | undefined;
}

/**
 * A statement whose text depends only on its shape: compiled once per dialect and shape, then run
 * with new parameters. Kysely builds and compiles a query on every call, which for a small lookup
 * costs more than SQLite takes to run it (a 26-column select of one project: about 17 µs to build
 * and compile, 2 µs to run). The first compilation of each shape checks that `parameters` gives
 * the compiled statement's parameters in their order, so a statement whose parameters are not the
 * ones named fails on its first use instead of running with the wrong values. Texts are kept by
 * dialect, not by Kysely instance: the stores' instances carry no plugin that rewrites queries.
 */
export class ReusedStatement<Args extends unknown[], Row> {
  readonly #texts = new Map<string, string>();

  /**
   * @param build the statement for these arguments, compiled for `db`
   * @param parameters its parameters for these arguments, in the order its text takes them
   * @param shape what its text depends on besides the dialect (none by default), or null for a
   *   shape too rare to keep (compiled on every call): keep the kept shapes few
   */
  constructor(
    private readonly build: (db: Kysely<Database>, ...args: Args) => CompiledQuery<Row>,
    private readonly parameters: (...args: Args) => unknown[],
    private readonly shape: (...args: Args) => string | null = () => "",
  ) {}

  /** The statement for these arguments on `db`, ready for `db.executeQuery`. */
  compile(db: Kysely<Database>, ...args: Args): CompiledQuery<Row> {
    const shape = this.shape(...args);
    const key = shape === null ? null : `${onSqlite(db) ? "sqlite" : "postgres"}:${shape}`;
    const parameters = this.parameters(...args);
    const text = key === null ? undefined : this.#texts.get(key);
    if (text !== undefined) return CompiledQuery.raw(text, parameters) as CompiledQuery<Row>;
    const compiled = this.build(db, ...args);
    const expected = JSON.stringify(parameters);
    if (JSON.stringify(compiled.parameters) !== expected) {
      throw new Error(`a reused statement takes ${JSON.stringify(compiled.parameters)}, not ${expected}`);
    }
    if (key !== null) this.#texts.set(key, compiled.sql);
    return compiled;
  }
}

/** True when `db` runs on SQLite. */
export function onSqlite(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/**
 * Runs one page of `query` and its total, both in SQL. The count reuses the query's filters without
 * its ordering, and stops after COUNT_LIMIT + 1 rows in `capped` mode.
 */
export async function paginate<DB, TB extends keyof DB, O>(
  db: Kysely<Database>,
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageRequest,
  countMode: CountMode,
  options: PageOptions<O> = {},
): Promise<{ rows: O[]; total: number | null }> {
  const offset = (page.page - 1) * page.perPage;
  const rows = options.rows
    ? await options.rows(page.perPage, offset)
    : await query.limit(page.perPage).offset(offset).execute();
  // A short first page is its own total: no second query.
  if (page.page === 1 && rows.length < page.perPage) return { rows, total: rows.length };
  if (options.total !== undefined) return { rows, total: options.total };
  let counted: { n: number | string };
  if (options.wholeTable !== undefined && onSqlite(db)) {
    counted = await db
      .selectFrom(options.wholeTable)
      .select(sql<number>`count(*)`.as("n"))
      .executeTakeFirstOrThrow();
  } else {
    let matches = query.clearSelect().clearOrderBy().select(sql<number>`1`.as("one"));
    if (countMode === "capped") matches = matches.limit(COUNT_LIMIT + 1);
    // Plain count(*): SQLite's fast path; PostgreSQL returns it as a bigint string, hence Number().
    counted = await db
      .selectFrom(matches.as("matches"))
      .select(sql<number | string>`count(*)`.as("n"))
      .executeTakeFirstOrThrow();
  }
  const total = Number(counted.n);
  return { rows, total: countMode === "capped" && total > COUNT_LIMIT ? null : total };
}

/** A `LIKE` pattern matching `text` anywhere, with `%`, `_` and `\` escaped (use with `escape '\'`). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `value` lowercased by the database (`lower(?)`), to compare with `lower(column)`: both sides fold
 * the same way on each dialect, beyond ASCII too (SQLite's `lower()` is replaced: case-folding.ts),
 * and an index on `lower(column)` still serves the lookup.
 */
export const lowered = (value: string): RawBuilder<string> => sql<string>`lower(${value})`;

/**
 * True where `column` contains `text`, ignoring case: `lower(column) like lower(pattern)` on both
 * dialects. On SQLite, where `lower()` is a JavaScript function (about 0.4 µs a call, three times
 * the built-in's cost on a 100,000-project search), the built-in `like`, which ignores ASCII case
 * only, is tried first against the pattern folded once here by that same function. For a value that
 * is pure ASCII (as many bytes as characters) its answer is the exact one; for any other value a
 * match means `lower(value)` matches too (the pattern's letters are already lowercase), and a miss
 * is decided by `lower()` itself. So `lower()` runs only on the values beyond ASCII that the
 * built-in does not match. NULL never matches.
 */
export function containsIgnoringCase(
  db: Kysely<Database>,
  column: Expression<unknown>,
  text: string,
): RawBuilder<SqlBool> {
  const pattern = containsPattern(text);
  if (!onSqlite(db)) return sql<SqlBool>`lower(${column}) like lower(${pattern}) escape '\\'`;
  const folded = foldCase(pattern);
  return sql<SqlBool>`(${column} like ${folded} escape '\\' or (length(${column}) <> octet_length(${column}) and lower(${column}) like ${folded} escape '\\'))`;
}

/**
 * Runs `work` in one transaction: the caller's when `db` is already one, else a new one. Stores use
 * it for writes of several statements (an iid, the row, the counters) that must land together.
 */
export function atomically<T>(db: Kysely<Database>, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  return db.transaction().execute(work);
}

/** Current time as stored: ISO 8601 UTC with milliseconds. */
export const now = (): string => new Date().toISOString();

/** Converts the 0/1 integers of the given keys to booleans. */
export function withBooleans<E>(row: Record<string, unknown>, keys: readonly (keyof E & string)[]): E {
  const out: Record<string, unknown> = { ...row };
  for (const key of keys) out[key] = row[key] === 1 || row[key] === true;
  return out as E;
}

/** A boolean as stored. */
export const flag = (value: boolean): number => (value ? 1 : 0);

/** The object without its undefined properties: a patch says only what changes. */
export function definedOnly<T extends object>(patch: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
