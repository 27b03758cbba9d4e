import { COUNT_LIMIT, type PageRequest } from "@kiln/domain";
import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import type { Database } from "./database.js";

/** How a list's total is computed. */
export type CountMode =
  /** Always exact: for lists bounded by nature (one user's keys, all users). */
  | "exact"
  /** Exact up to {@link COUNT_LIMIT}, then unknown (null): for filtered lists over big tables. */
  | "capped";

/**
 * Runs one page of `query` and its total, both in SQL. The count reuses the query's filters without
 * its ordering, and stops after COUNT_LIMIT + 1 rows in `capped` mode.
 */
export async function paginate<DB, TB extends keyof DB, O>(
  db: Kysely<Database>,
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageRequest,
  countMode: CountMode,
): Promise<{ rows: O[]; total: number | null }> {
  const rows = await query
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .execute();
  // A short first page is its own total: no second query.
  if (page.page === 1 && rows.length < page.perPage) return { rows, total: rows.length };
  let matches = query.clearSelect().clearOrderBy().select(sql<number>`1`.as("one"));
  if (countMode === "capped") matches = matches.limit(COUNT_LIMIT + 1);
  // Plain count(*): SQLite's fast path; PostgreSQL returns it as a bigint string, hence Number().
  const counted = await db
    .selectFrom(matches.as("matches"))
    .select(sql<number | string>`count(*)`.as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(counted.n);
  return { rows, total: countMode === "capped" && total > COUNT_LIMIT ? null : total };
}

/** A `LIKE` pattern matching `text` anywhere, with `%`, `_` and `\` escaped (use with `escape '\'`). */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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
