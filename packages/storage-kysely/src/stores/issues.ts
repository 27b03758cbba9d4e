import {
  COUNT_LIMIT,
  ISSUE_STATES,
  type Issue,
  type IssueState,
  type Page,
  type PageRequest,
} from "@kiln/domain";
import {
  type Kysely,
  type RawBuilder,
  type Selectable,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from "kysely";
import type { Database, IssuesTable } from "../database.js";
import {
  atomically,
  DEFERRED_JOIN_OFFSET,
  definedOnly,
  flag,
  now,
  onSqlite,
  paginate,
  ReusedStatement,
} from "../queries.js";
import { InternalIdStore } from "./internal-ids.js";
import {
  countIssuable,
  deleteIssuable,
  type IssuableFilter,
  type IssuableOrder,
  type IssuableScope,
  issuableConditions,
  type ListConditions,
  narrowedBeyondStates,
  recountState,
  rowState,
  storedState,
} from "./issuables.js";

const toIssue = (row: Selectable<IssuesTable>): Issue => {
  const { reopened: _, ...rest } = row;
  return { ...rest, state: rowState(row) as IssueState, confidential: row.confidential === 1 };
};

/**
 * What a new issue is made of. `created_at` is for the administrators and owners GitLab lets set it
 * (the update time is still now, as in GitLab) and for copies that keep their dates; both default
 * to now.
 */
export type NewIssue = Pick<
  Issue,
  | "project_id"
  | "title"
  | "description"
  | "author_id"
  | "assignee_id"
  | "milestone_id"
  | "confidential"
  | "due_date"
> & { created_at?: string | undefined; updated_at?: string | undefined };

/**
 * What an edit may change; undefined fields stay. The state changes through
 * {@link IssueStore.setState} only. `updated_at` defaults to now.
 */
export type IssuePatch = {
  [K in
    | "title"
    | "description"
    | "assignee_id"
    | "milestone_id"
    | "confidential"
    | "due_date"
    | "moved_to_id"
    | "updated_at"]?: Issue[K] | undefined;
};

/** Who may see confidential issues in a list: everything else about them is the caller's rule. */
export interface ConfidentialFilter {
  /** Confidential issues this user wrote or is assigned to stay (null: none do). */
  userId: number | null;
  /** Projects whose confidential issues all stay (where the reader is reporter or above). */
  projectIds?: readonly number[] | undefined;
}

/** Filters of issue lists. */
export interface IssueFilter extends IssuableFilter<IssueState> {
  /** Leaves out confidential issues but those it names; undefined keeps them all. */
  confidential?: ConfidentialFilter | undefined;
}

/** How many issues a project has open (opened or reopened) and closed. */
export interface IssueCounts {
  opened: number;
  closed: number;
}

/** A project's issue counters: the total of its unfiltered lists (see ReusedStatement). */
const ISSUE_COUNTERS = new ReusedStatement(
  (db, projectId: number) =>
    db
      .selectFrom("projects")
      .select(["open_issues_count", "closed_issues_count"])
      .where("id", "=", projectId)
      .compile(),
  (projectId) => [projectId],
);

/** Issues: rows numbered per project, their state counters, and lists. */
export class IssueStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** An issue by id. */
  async findById(id: number): Promise<Issue | undefined> {
    const row = await this.db.selectFrom("issues").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toIssue(row);
  }

  /** Issues by id. */
  async findByIds(ids: readonly number[]): Promise<Map<number, Issue>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("issues")
      .selectAll()
      .where("id", "in", [...new Set(ids)])
      .execute();
    return new Map(rows.map((row) => [row.id, toIssue(row)]));
  }

  /** An issue of a project by iid. */
  async findByIid(projectId: number, iid: number): Promise<Issue | undefined> {
    const row = await this.db
      .selectFrom("issues")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("iid", "=", iid)
      .executeTakeFirst();
    return row && toIssue(row);
  }

  /** Issues of a project by iid (for the issues a merge request closes), in iid order. */
  async findByIids(projectId: number, iids: readonly number[]): Promise<Issue[]> {
    if (iids.length === 0) return [];
    const rows = await this.db
      .selectFrom("issues")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("iid", "in", [...new Set(iids)])
      .orderBy("iid")
      .execute();
    return rows.map(toIssue);
  }

  /**
   * Creates an opened issue with the project's next iid and counts it open, in one transaction
   * (the caller's, if any). Locks the project's issue counter, then the project's row.
   */
  async create(issue: NewIssue): Promise<Issue> {
    return atomically(this.db, async (db) => {
      const iid = await new InternalIdStore(db).next(issue.project_id, "issues");
      const at = now();
      const row = await db
        .insertInto("issues")
        .values({
          project_id: issue.project_id,
          iid,
          title: issue.title,
          description: issue.description,
          state: "opened",
          reopened: 0,
          author_id: issue.author_id,
          assignee_id: issue.assignee_id,
          milestone_id: issue.milestone_id,
          confidential: flag(issue.confidential),
          due_date: issue.due_date,
          moved_to_id: null,
          created_at: issue.created_at ?? at,
          updated_at: issue.updated_at ?? at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await countIssuable(db, "issues", issue.project_id, "opened", 1);
      if (!issue.confidential) await countPublicOpen(db, issue.project_id, 1);
      return toIssue(row);
    });
  }

  /**
   * Applies an edit; undefined when there is no such issue. Making an open issue confidential, or
   * no longer confidential, moves it out of or into the project's public count, in one transaction.
   */
  async update(id: number, patch: IssuePatch): Promise<Issue | undefined> {
    const { confidential, ...rest } = definedOnly(patch);
    const values = { ...rest, updated_at: patch.updated_at ?? now() };
    const edit = (db: Kysely<Database>) =>
      db.updateTable("issues").set(values).where("id", "=", id).returningAll().executeTakeFirst();
    if (confidential === undefined) return await edit(this.db).then((row) => row && toIssue(row));
    return atomically(this.db, async (db) => {
      // Only a change of confidentiality counts: the row's lock (PostgreSQL) orders concurrent ones.
      const toggled = await db
        .updateTable("issues")
        .set({ confidential: flag(confidential) })
        .where("id", "=", id)
        .where("confidential", "=", flag(!confidential))
        .returning(["project_id", "state"])
        .executeTakeFirst();
      if (toggled?.state === "opened") await countPublicOpen(db, toggled.project_id, confidential ? -1 : 1);
      const row = await edit(db);
      return row && toIssue(row);
    });
  }

  /**
   * Moves an issue from state `from` to `to` (the domain's state machine says which moves exist)
   * and keeps the project's counters, in one transaction. Undefined when the issue is missing or
   * no longer in `from` (someone else changed it first): then nothing changed.
   */
  async setState(
    id: number,
    from: IssueState,
    to: IssueState,
    at: string = now(),
  ): Promise<Issue | undefined> {
    return atomically(this.db, async (db) => {
      const before = storedState(from);
      const row = await db
        .updateTable("issues")
        .set({ ...storedState(to), updated_at: at })
        .where("id", "=", id)
        .where("state", "=", before.state)
        .where("reopened", "=", before.reopened)
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      await recountState(db, "issues", row, from, to);
      const open = (state: IssueState) => storedState(state).state === "opened";
      if (row.confidential === 0 && open(from) !== open(to)) {
        await countPublicOpen(db, row.project_id, open(to) ? 1 : -1);
      }
      return toIssue(row);
    });
  }

  /**
   * Deletes an issue with its notes, label links, todos and subscriptions, and uncounts it, in one
   * transaction. Its iid is not given out again. True if it existed.
   */
  async delete(id: number): Promise<boolean> {
    return atomically(this.db, async (db) => {
      // Locked (PostgreSQL) until deleted, so that a concurrent state change cannot count it twice.
      const issue = await db
        .selectFrom("issues")
        .select(["project_id", "state", "confidential"])
        .where("id", "=", id)
        .$if(!onSqlite(db), (query) => query.forUpdate())
        .executeTakeFirst();
      if (!issue || !(await deleteIssuable(db, "issues", id))) return false;
      if (issue.state === "opened" && issue.confidential === 0)
        await countPublicOpen(db, issue.project_id, -1);
      return true;
    });
  }

  /** How many issues a project has in each state, from its counters. */
  async counts(projectId: number): Promise<IssueCounts> {
    const [row] = (await this.db.executeQuery(ISSUE_COUNTERS.compile(this.db, projectId))).rows;
    return { opened: Number(row?.open_issues_count ?? 0), closed: Number(row?.closed_issues_count ?? 0) };
  }

  /**
   * One page of issues from a scope, filtered and ordered. The total comes without counting when
   * the list is one project's issues filtered by state alone (the project's counters: exact) or by
   * state and one label (the label's counters: exact up to COUNT_LIMIT, unknown (null) beyond, as
   * for any filtered list); otherwise it is counted up to COUNT_LIMIT and unknown beyond.
   */
  async list(
    scope: IssuableScope,
    filter: IssueFilter,
    order: IssuableOrder,
    page: PageRequest,
  ): Promise<Page<Issue>> {
    const conditions = await issuableConditions(this.db, "issues", scope, filter, ISSUE_STATES);
    if (conditions === null) return { items: [], page: page.page, perPage: page.perPage, total: 0 };
    // The count walks many rows and the page few: see ListConditions.
    const query = this.matching(conditions.count, filter, order);
    const pageQuery = this.matching(conditions.page, filter, order);
    const { rows, total } = await paginate(this.db, query, page, "capped", {
      total:
        scope.kind === "project" ? await this.knownTotal(scope.projectId, filter, conditions) : undefined,
      rows: (limit, offset) =>
        offset < DEFERRED_JOIN_OFFSET
          ? pageQuery.limit(limit).offset(offset).execute()
          : // The page's ids over the list's index first, then their rows by id.
            ordered(
              this.db
                .selectFrom("issues")
                .selectAll()
                .where("id", "in", pageQuery.clearSelect().select("issues.id").limit(limit).offset(offset)),
              order,
            ).execute(),
    });
    return { items: rows.map(toIssue), page: page.page, perPage: page.perPage, total };
  }

  /**
   * A one-project list's total from counters, when they can tell it (see {@link list}): a number,
   * null when it is above COUNT_LIMIT, undefined when it has to be counted.
   */
  private async knownTotal(
    projectId: number,
    filter: IssueFilter,
    conditions: ListConditions,
  ): Promise<number | null | undefined> {
    if (filter.confidential !== undefined) return undefined;
    const states = filter.states ?? ISSUE_STATES;
    if (!narrowedBeyondStates(filter)) return countedTotal(await this.counts(projectId), states) ?? undefined;
    const label = conditions.labels?.length === 1 ? conditions.labels[0] : undefined;
    if (!label || narrowedBeyondStates({ ...filter, labels: undefined })) return undefined;
    const total = countedTotal(
      { opened: label.open_issues_count, closed: label.closed_issues_count },
      states,
    );
    return total === null ? undefined : total > COUNT_LIMIT ? null : total;
  }

  /** The issues meeting these conditions and the filter's confidentiality, ordered. */
  private matching(conditions: ListConditions["count"], filter: IssueFilter, order: IssuableOrder) {
    let query = this.db.selectFrom("issues").selectAll();
    for (const condition of conditions) query = query.where(condition);
    if (filter.confidential) query = query.where(confidentialCondition(filter.confidential));
    return ordered(query, order);
  }
}

/**
 * Adds `delta` to the project's count of open issues that are not confidential (migration 0009),
 * in the transaction of the change it counts.
 */
async function countPublicOpen(db: Kysely<Database>, projectId: number, delta: number): Promise<void> {
  await db
    .updateTable("projects")
    .set({ public_open_issues_count: sql`public_open_issues_count + ${delta}` })
    .where("id", "=", projectId)
    .execute();
}

/** The query in the list's order, ties broken by id in the same direction. */
function ordered<O>(
  query: SelectQueryBuilder<Database, "issues", O>,
  order: IssuableOrder,
): SelectQueryBuilder<Database, "issues", O> {
  const sorted = query.orderBy(order.by, order.direction);
  return order.by === "id" ? sorted : sorted.orderBy("id", order.direction);
}

/** The condition of a {@link ConfidentialFilter} on `issues`: confidential issues stay only for their author and assignee and in the projects named. */
export function confidentialCondition(filter: ConfidentialFilter): RawBuilder<SqlBool> {
  const keep = [sql<SqlBool>`issues.confidential = 0`];
  if (filter.userId !== null) {
    keep.push(sql<SqlBool>`issues.author_id = ${filter.userId}`);
    keep.push(sql<SqlBool>`issues.assignee_id = ${filter.userId}`);
  }
  if (filter.projectIds && filter.projectIds.length > 0) {
    keep.push(sql<SqlBool>`issues.project_id in (${sql.join([...new Set(filter.projectIds)])})`);
  }
  return sql<SqlBool>`(${sql.join(keep, sql` or `)})`;
}

/**
 * The number of issues in `states` from the counters, or null when they cannot tell (opened
 * without reopened, or the reverse: the counters keep both as one).
 */
function countedTotal(counts: IssueCounts, states: readonly IssueState[]): number | null {
  const wanted = new Set(states);
  if (wanted.has("opened") !== wanted.has("reopened")) return null;
  return (wanted.has("opened") ? counts.opened : 0) + (wanted.has("closed") ? counts.closed : 0);
}
