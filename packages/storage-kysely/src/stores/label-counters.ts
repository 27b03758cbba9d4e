import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database, StoredIssuableState } from "../database.js";
import { onSqlite } from "../queries.js";

// Each label counts what carries it in each state (see migration 0007). Every change to a label
// link, and every state change or deletion of an issue or merge request, adjusts the counters in
// its own transaction, so that they always equal a count of the links.

/** An issue or merge request, as label links point at it. */
export interface LabelTarget {
  type: "Issue" | "MergeRequest";
  id: number;
}

/** A column of `labels` that counts the label's issues or merge requests in one state. */
type LabelCounter = "open_issues_count" | "closed_issues_count" | "open_merge_requests_count";

// Closed and merged merge requests are not counted: GitLab's label shows open ones only.
const COUNTERS: Record<LabelTarget["type"], Partial<Record<StoredIssuableState, LabelCounter>>> = {
  Issue: { opened: "open_issues_count", closed: "closed_issues_count" },
  MergeRequest: { opened: "open_merge_requests_count" },
};

const TABLES = { Issue: "issues", MergeRequest: "merge_requests" } as const;

/** The counter of labels on a `type` in a stored state, if that state is counted. */
function labelCounter(type: LabelTarget["type"], state: StoredIssuableState): LabelCounter | undefined {
  return COUNTERS[type][state];
}

/**
 * The stored state of the target, or undefined when it does not exist (nothing to count). On
 * PostgreSQL the row stays locked to the end of the transaction, so that a concurrent state change
 * waits and then recounts links made here, or is seen here when it came first. (A state change
 * locks the row the same way, before its labels: one order of locks, no deadlock.)
 */
async function storedStateOf(
  db: Kysely<Database>,
  target: LabelTarget,
): Promise<StoredIssuableState | undefined> {
  const row = await db
    .selectFrom(TABLES[target.type])
    .select("state")
    .where("id", "=", target.id)
    .$if(!onSqlite(db), (query) => query.forUpdate())
    .executeTakeFirst();
  return row?.state;
}

/**
 * Counts the links just made (`added`) and just removed (`removed`) between the target and labels,
 * by the target's current state, in one statement. Run it in the transaction that changed the links.
 */
export async function countLinks(
  db: Kysely<Database>,
  target: LabelTarget,
  { added = [], removed = [] }: { added?: readonly number[]; removed?: readonly number[] },
): Promise<void> {
  if (added.length === 0 && removed.length === 0) return;
  const state = await storedStateOf(db, target);
  const column = state && labelCounter(target.type, state);
  if (!column) return;
  const delta =
    removed.length === 0
      ? sql<number>`1`
      : added.length === 0
        ? sql<number>`-1`
        : sql<number>`case when id in (${sql.join([...added])}) then 1 else -1 end`;
  await db
    .updateTable("labels")
    .set({ [column]: sql`${sql.ref(column)} + ${delta}` })
    .where("id", "in", [...new Set([...added, ...removed])])
    .execute();
}

/**
 * Moves the target's count on every label it carries from stored state `from` to `to` (a state
 * change), or out of `from` when `to` is null (before its links are deleted with it).
 */
export async function recountLinks(
  db: Kysely<Database>,
  target: LabelTarget,
  from: StoredIssuableState,
  to: StoredIssuableState | null,
): Promise<void> {
  const before = labelCounter(target.type, from);
  const after = to === null ? undefined : labelCounter(target.type, to);
  if (before === after) return;
  const changes: Partial<Record<LabelCounter, RawBuilder<number>>> = {};
  if (before) changes[before] = sql<number>`${sql.ref(before)} - 1`;
  if (after) changes[after] = sql<number>`${sql.ref(after)} + 1`;
  await db
    .updateTable("labels")
    .set(changes)
    .where(
      "id",
      "in",
      db
        .selectFrom("label_links")
        .select("label_id")
        .where("target_type", "=", target.type)
        .where("target_id", "=", target.id),
    )
    .execute();
}
