import { type Kysely, sql } from "kysely";
import type { Database } from "../database.js";
import { fillLabelCounters } from "../migrations/0007_label_counters.js";

/**
 * Inserts `count` issues into a project in one statement, bypassing the store (no counters, no
 * internal ids): for tests of deep pages and capped counts. Issue `i` (from 1) has iid `1000 + i`,
 * title `bulk i`, state closed when `i` is divisible by `closedEvery`, and is created `i` seconds
 * after a fixed start, so creation order is iid order.
 */
export async function bulkIssues(
  db: Kysely<Database>,
  projectId: number,
  count: number,
  closedEvery = 0,
): Promise<void> {
  const closed =
    closedEvery > 0
      ? sql`case when n.i % cast(${closedEvery} as integer) = 0 then 'closed' else 'opened' end`
      : sql`'opened'`;
  // A recursive series, which SQLite and PostgreSQL both put before an INSERT.
  await sql`
    with recursive n(i) as (select 1 union all select i + 1 from n where i < cast(${count} as integer))
    insert into issues (project_id, iid, title, state, reopened, confidential, created_at, updated_at)
    select cast(${projectId} as integer), 1000 + n.i, 'bulk ' || n.i, ${closed}, 0, 0, ${timestampAt(sql`n.i`)}, ${timestampAt(sql`n.i`)}
    from n
  `.execute(db);
}

/** `2020-01-01T00:00:00.000Z` plus `seconds`, as ISO text, in SQL both dialects run (up to a day). */
function timestampAt(seconds: ReturnType<typeof sql>) {
  const two = (value: ReturnType<typeof sql>) =>
    sql`case when ${value} < 10 then '0' || (${value}) else '' || (${value}) end`;
  const hours = two(sql`${seconds} / 3600`);
  const minutes = two(sql`(${seconds} / 60) % 60`);
  const secs = two(sql`${seconds} % 60`);
  return sql`'2020-01-01T' || ${hours} || ':' || ${minutes} || ':' || ${secs} || '.000Z'`;
}

/**
 * Sets every label's counters (see stores/label-counters.ts) from its links, as the migration that
 * added them did: for tests that insert label links or issues in bulk, bypassing the stores.
 */
export const recountLabels = (db: Kysely<Database>): Promise<void> => fillLabelCounters(db);
