import type { SortDirection } from "@kiln/domain";
import { type Kysely, type RawBuilder, type SqlBool, sql } from "kysely";
import type { Database, StoredIssuableState } from "../database.js";
import { containsIgnoringCase } from "../queries.js";
import { recountLinks } from "./label-counters.js";
import { type ProjectReader, readableProjectIds } from "./project-scopes.js";

// What issues and merge requests share in storage: the stored form of their state, the filters of
// their lists, and the rows that hang off them by type and id (notes, label links, todos and
// subscriptions).

/** The two tables of issuables. */
export type IssuableTable = "issues" | "merge_requests";

/** An issuable's type as notes, label links, todos and subscriptions name it. */
export type IssuableType = "Issue" | "MergeRequest";

/** The states of issues and merge requests together. */
type IssuableState = "opened" | "reopened" | "closed" | "merged";

/** A state as stored: see {@link StoredIssuableState}. */
export function storedState(state: IssuableState): { state: StoredIssuableState; reopened: number } {
  return state === "reopened" ? { state: "opened", reopened: 1 } : { state, reopened: 0 };
}

/** The state a stored row stands for. */
export function rowState(row: { state: StoredIssuableState; reopened: number }): IssuableState {
  return row.state === "opened" && row.reopened === 1 ? "reopened" : row.state;
}

/** Which projects an issue or merge request list draws from. */
export type IssuableScope =
  | { kind: "project"; projectId: number }
  | { kind: "projects"; projectIds: readonly number[] }
  /**
   * Every project the reader may read (see {@link readableProjectIds}); with `minLevel`, private
   * ones only where they are a member at that level or above (merge requests: reporters).
   */
  | { kind: "readable"; reader: ProjectReader; minLevel?: number }
  /** Every project: for administrators. */
  | { kind: "all" };

/** Filters issue and merge request lists share. Undefined filters match everything. */
export interface IssuableFilter<S extends IssuableState> {
  /** The states to list (from the domain's state filters: `opened` is opened and reopened). */
  states?: readonly S[] | undefined;
  iids?: readonly number[] | undefined;
  /** Label titles: issuables carrying any of them, or all of them. */
  labels?: { titles: readonly string[]; match: "any" | "all" } | undefined;
  /** A milestone by title, or null for issuables without one. */
  milestone?: string | null | undefined;
  milestoneId?: number | undefined;
  authorId?: number | undefined;
  /** An assignee, or null for unassigned ones. */
  assigneeId?: number | null | undefined;
  /** Text in the title or description, ignoring case. */
  search?: string | undefined;
}

/** How an issue or merge request list is ordered; ties are broken by id in the same direction. */
export interface IssuableOrder {
  by: "created_at" | "updated_at" | "id";
  direction: SortDirection;
}

/** True when the filter narrows the list beyond its states. */
export function narrowedBeyondStates(filter: IssuableFilter<IssuableState>): boolean {
  return (
    filter.iids !== undefined ||
    filter.labels !== undefined ||
    filter.milestone !== undefined ||
    filter.milestoneId !== undefined ||
    filter.authorId !== undefined ||
    filter.assigneeId !== undefined ||
    Boolean(filter.search)
  );
}

/**
 * The conditions of a list in two shapes, the same but for a one-project label filter, which reads
 * `label_links` in the way that suits each:
 * - `count`: `id in (select target_id …)`. SQLite builds the label's whole list of ids once per
 *   statement (about 4 ms for a label on 30,000 issues), then tests each row it walks cheaply:
 *   best for counts, which walk many rows.
 * - `page`: the same for a label on fewer than {@link COMMON_LABEL_LINKS} issuables; for a more
 *   common one `exists (…)`, one primary-key probe of `label_links` per row walked, so that a
 *   page, which stops after its rows, does not pay for the whole list first.
 */
export interface ListConditions {
  count: RawBuilder<SqlBool>[];
  page: RawBuilder<SqlBool>[];
  /**
   * The issue counters of the labels a one-project label filter names (those the project has):
   * a list narrowed by one label and states alone takes its total from them.
   */
  labels?: LabelIssueCounts[] | undefined;
}

/** A label's counters of open and closed issues (see label-counters.ts). */
export interface LabelIssueCounts {
  id: number;
  open_issues_count: number;
  closed_issues_count: number;
}

/** From how many issuables a label counts as common (see {@link ListConditions}). */
export const COMMON_LABEL_LINKS = 2000;

/**
 * The conditions of a list, each a SQL predicate on `table`, in the two shapes of
 * {@link ListConditions}; null when nothing can match (an empty project list, a label that does
 * not exist in the project).
 */
export async function issuableConditions(
  db: Kysely<Database>,
  table: IssuableTable,
  scope: IssuableScope,
  filter: IssuableFilter<IssuableState>,
  allStates: readonly IssuableState[],
): Promise<ListConditions | null> {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  const type: IssuableType = table === "issues" ? "Issue" : "MergeRequest";
  const conditions: RawBuilder<SqlBool>[] = [];
  switch (scope.kind) {
    case "project":
      conditions.push(sql<SqlBool>`${column("project_id")} = ${scope.projectId}`);
      break;
    case "projects":
      if (scope.projectIds.length === 0) return null;
      conditions.push(sql<SqlBool>`${column("project_id")} in (${sql.join([...new Set(scope.projectIds)])})`);
      break;
    case "readable":
      conditions.push(
        sql<SqlBool>`${column("project_id")} in ${readableProjectIds(db, scope.reader, scope.minLevel)}`,
      );
      break;
    case "all":
      break;
  }
  if (filter.states !== undefined) {
    const states = statesCondition(table, filter.states, allStates);
    if (states) conditions.push(states);
  }
  if (filter.iids !== undefined) {
    if (filter.iids.length === 0) return null;
    conditions.push(sql<SqlBool>`${column("iid")} in (${sql.join([...new Set(filter.iids)])})`);
  }
  let labels: ListConditions = { count: [], page: [] };
  if (filter.labels !== undefined) {
    const found = await labelConditions(db, table, type, scope, filter.labels);
    if (found === null) return null;
    labels = found;
  }
  if (filter.milestone === null) conditions.push(sql<SqlBool>`${column("milestone_id")} is null`);
  else if (filter.milestone !== undefined) {
    const project = scope.kind === "project" ? sql`project_id = ${scope.projectId} and ` : sql``;
    conditions.push(
      sql<SqlBool>`${column("milestone_id")} in (select id from milestones where ${project}title = ${filter.milestone})`,
    );
  }
  if (filter.milestoneId !== undefined) {
    conditions.push(sql<SqlBool>`${column("milestone_id")} = ${filter.milestoneId}`);
  }
  if (filter.authorId !== undefined)
    conditions.push(sql<SqlBool>`${column("author_id")} = ${filter.authorId}`);
  if (filter.assigneeId === null) conditions.push(sql<SqlBool>`${column("assignee_id")} is null`);
  else if (filter.assigneeId !== undefined) {
    conditions.push(sql<SqlBool>`${column("assignee_id")} = ${filter.assigneeId}`);
  }
  if (filter.search) {
    conditions.push(
      sql<SqlBool>`(${containsIgnoringCase(db, column("title"), filter.search)} or ${containsIgnoringCase(db, column("description"), filter.search)})`,
    );
  }
  return {
    count: [...conditions, ...labels.count],
    page: [...conditions, ...labels.page],
    labels: labels.labels,
  };
}

/**
 * The stored states that stand for `states`, as a predicate, or null when they are every state.
 * Opened and reopened together are one equality on `state`; one without the other also reads
 * `reopened`.
 */
function statesCondition(
  table: IssuableTable,
  states: readonly IssuableState[],
  allStates: readonly IssuableState[],
): RawBuilder<SqlBool> | null {
  const wanted = new Set(states);
  if (allStates.every((state) => wanted.has(state))) return null;
  const state = sql.ref(`${table}.state`);
  const reopened = sql.ref(`${table}.reopened`);
  const groups: StoredIssuableState[] = [];
  if (wanted.has("closed")) groups.push("closed");
  if (wanted.has("merged")) groups.push("merged");
  const parts: RawBuilder<SqlBool>[] = [];
  if (wanted.has("opened") && wanted.has("reopened")) groups.unshift("opened");
  else if (wanted.has("opened")) parts.push(sql<SqlBool>`(${state} = 'opened' and ${reopened} = 0)`);
  else if (wanted.has("reopened")) parts.push(sql<SqlBool>`(${state} = 'opened' and ${reopened} = 1)`);
  if (groups.length === 1) parts.unshift(sql<SqlBool>`${state} = ${groups[0]}`);
  else if (groups.length > 1) parts.unshift(sql<SqlBool>`${state} in (${sql.join(groups)})`);
  if (parts.length === 0) return sql<SqlBool>`1 = 0`;
  return parts.length === 1 ? parts[0]! : sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/**
 * The label filter. In one project, titles become label ids first (a title the project lacks
 * matches nothing), and each condition reads one range of `label_links` by label. Across projects,
 * a title names a label in each, so the issuable's own links are joined to their labels instead.
 */
async function labelConditions(
  db: Kysely<Database>,
  table: IssuableTable,
  type: IssuableType,
  scope: IssuableScope,
  labels: { titles: readonly string[]; match: "any" | "all" },
): Promise<ListConditions | null> {
  const titles = [...new Set(labels.titles)];
  if (titles.length === 0) return labels.match === "all" ? { count: [], page: [] } : null;
  const id = sql.ref(`${table}.id`);
  if (scope.kind === "project") {
    const found = await db
      .selectFrom("labels")
      .select(["id", "open_issues_count", "closed_issues_count"])
      .where("project_id", "=", scope.projectId)
      .where("title", "in", titles)
      .execute();
    if (found.length === 0 || (labels.match === "all" && found.length < titles.length)) return null;
    const groups = labels.match === "any" ? [found] : found.map((label) => [label]);
    const conditions: ListConditions = { count: [], page: [], labels: found };
    // Each label (or set of labels) takes its own page shape: with `all`, a rare label keeps the list.
    for (const group of groups) {
      const labelIds = group.map((label) => label.id);
      const inList = sql<SqlBool>`${id} in (select target_id from label_links where label_id in (${sql.join(labelIds)}) and target_type = ${type})`;
      conditions.count.push(inList);
      const common =
        type === "Issue"
          ? // The counters tell for issues; merge requests count their open ones only.
            group.reduce((sum, label) => sum + label.open_issues_count + label.closed_issues_count, 0) >=
            COMMON_LABEL_LINKS
          : await commonLabels(db, type, labelIds);
      conditions.page.push(
        common
          ? sql<SqlBool>`exists (select 1 from label_links where label_id in (${sql.join(labelIds)}) and target_type = ${type} and target_id = ${id})`
          : inList,
      );
    }
    return conditions;
  }
  const links = sql`from label_links ll inner join labels l on l.id = ll.label_id
      where ll.target_type = ${type} and ll.target_id = ${id} and l.title in (${sql.join(titles)})`;
  // Every title, as one subquery that counts them: one EXISTS per title made PostgreSQL's planning
  // grow much faster than the titles (100 took 14 s).
  const condition =
    labels.match === "any" || titles.length === 1
      ? sql<SqlBool>`exists (select 1 ${links})`
      : sql<SqlBool>`(select count(distinct l.title) ${links}) = ${titles.length}`;
  return { count: [condition], page: [condition] };
}

/**
 * True when these labels are on at least {@link COMMON_LABEL_LINKS} issuables of `type` together:
 * reads at most that many entries of `label_links`' primary key (about 50 µs).
 */
async function commonLabels(db: Kysely<Database>, type: IssuableType, labelIds: number[]): Promise<boolean> {
  const links = db
    .selectFrom("label_links")
    .select(sql<number>`1`.as("one"))
    .where("label_id", "in", labelIds)
    .where("target_type", "=", type)
    .limit(COMMON_LABEL_LINKS);
  const row = await db
    .selectFrom(links.as("links"))
    .select(sql<number | string>`count(*)`.as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n) >= COMMON_LABEL_LINKS;
}

/**
 * Removes what hangs off an issue or merge request by type and id: its notes (and the todos that
 * point at them), label links, todos and subscriptions. Part of deleting it, in its transaction.
 */
export async function deleteDependents(db: Kysely<Database>, type: IssuableType, id: number): Promise<void> {
  await db.deleteFrom("todos").where("target_type", "=", type).where("target_id", "=", id).execute();
  await db.deleteFrom("notes").where("noteable_type", "=", type).where("noteable_id", "=", id).execute();
  await db.deleteFrom("label_links").where("target_type", "=", type).where("target_id", "=", id).execute();
  await db
    .deleteFrom("subscriptions")
    .where("subscribable_type", "=", type)
    .where("subscribable_id", "=", id)
    .execute();
}

/** The project column that counts an issuable of each table in each state. */
const COUNTERS = {
  issues: { opened: "open_issues_count", reopened: "open_issues_count", closed: "closed_issues_count" },
  merge_requests: {
    opened: "open_merge_requests_count",
    reopened: "open_merge_requests_count",
    closed: "closed_merge_requests_count",
    merged: "merged_merge_requests_count",
  },
} as const satisfies Record<IssuableTable, Partial<Record<IssuableState, string>>>;

const TYPES: Record<IssuableTable, IssuableType> = { issues: "Issue", merge_requests: "MergeRequest" };

/**
 * Adds `delta` to the project's counter of `table` rows in `state`. Call it in the transaction of
 * the change it counts, so that unfiltered list totals never need a `COUNT(*)`.
 */
export async function countIssuable(
  db: Kysely<Database>,
  table: IssuableTable,
  projectId: number,
  state: IssuableState,
  delta: number,
): Promise<void> {
  const column = (COUNTERS[table] as Partial<Record<IssuableState, string>>)[state];
  if (column === undefined) throw new Error(`${table} have no state ${state}`);
  await db
    .updateTable("projects")
    .set({ [column]: sql`${sql.ref(column)} + ${delta}` })
    .where("id", "=", projectId)
    .execute();
}

/** Moves one issuable's count from state `from` to `to`, on its project and on its labels. */
export async function recountState(
  db: Kysely<Database>,
  table: IssuableTable,
  row: { id: number; project_id: number },
  from: IssuableState,
  to: IssuableState,
): Promise<void> {
  await countIssuable(db, table, row.project_id, from, -1);
  await countIssuable(db, table, row.project_id, to, 1);
  await recountLinks(db, { type: TYPES[table], id: row.id }, storedState(from).state, storedState(to).state);
}

/**
 * Deletes an issue or merge request with its notes, label links, todos and subscriptions, and
 * uncounts it; run it in a transaction. Its iid is not given out again. True if it existed.
 */
export async function deleteIssuable(
  db: Kysely<Database>,
  table: IssuableTable,
  id: number,
): Promise<boolean> {
  const row = await db
    .deleteFrom(table)
    .where("id", "=", id)
    .returning(["project_id", "state", "reopened"])
    .executeTakeFirst();
  if (!row) return false;
  await recountLinks(db, { type: TYPES[table], id }, row.state, null);
  await deleteDependents(db, TYPES[table], id);
  await countIssuable(db, table, row.project_id, rowState(row), -1);
  return true;
}
