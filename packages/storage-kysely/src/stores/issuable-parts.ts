import type { Issue, Label, Milestone, UserSummary } from "@kiln/domain";
import type { CompiledQuery, Kysely, RawBuilder } from "kysely";
import { sql } from "kysely";
import type { Database } from "../database.js";
import { onSqlite, ReusedStatement } from "../queries.js";
import type { IssuableType } from "./issuables.js";
import { byTitle, LABEL_COLUMNS } from "./labels.js";

/** What an issue or merge request shows beside its own row, as stored. */
export interface StoredIssuableParts {
  /** Null when it has none, or once the account is deleted. */
  author: UserSummary | null;
  assignee: UserSummary | null;
  milestone: Milestone | null;
  /** Its labels in GitLab's list order (by title). */
  labels: Label[];
  /** The user's explicit choice to follow it or not; null when they made none (or no user was given). */
  subscription: boolean | null;
  /** Notes written by users (system notes left out). */
  userNotesCount: number;
}

const USER_COLUMNS = [
  "id",
  "username",
  "name",
  "state",
  "created_at",
] as const satisfies readonly (keyof UserSummary)[];
const MILESTONE_COLUMNS = [
  "id",
  "iid",
  "project_id",
  "title",
  "description",
  "state",
  "due_date",
  "start_date",
  "created_at",
  "updated_at",
] as const satisfies readonly (keyof Milestone)[];

/** A joined row's columns of `T`, named `<prefix><column>`, null when nothing was joined. */
type Prefixed<T, C extends keyof T & string, P extends string> = { [K in C as `${P}${K}`]: T[K] | null };

type PartsRow = { id: number; user_notes_count: number | string; subscribed: number | null } & {
  /** A JSON array of label objects: text on SQLite, parsed by the driver on PostgreSQL. */
  labels: string | Label[];
} & Prefixed<UserSummary, (typeof USER_COLUMNS)[number], "author_"> &
  Prefixed<UserSummary, (typeof USER_COLUMNS)[number], "assignee_"> &
  Prefixed<Milestone, (typeof MILESTONE_COLUMNS)[number], "milestone_">;

/** `<alias>.<column> as <prefix><column>` for each column. */
function aliased(alias: string, columns: readonly string[], prefix: string): RawBuilder<unknown> {
  return sql.join(
    columns.map((column) => sql`${sql.ref(`${alias}.${column}`)} as ${sql.id(`${prefix}${column}`)}`),
  );
}

const JOINED_COLUMNS = sql.join([
  aliased("a", USER_COLUMNS, "author_"),
  aliased("s", USER_COLUMNS, "assignee_"),
  aliased("m", MILESTONE_COLUMNS, "milestone_"),
]);

/** The label fields as `'name', l.name` pairs, for the dialect's JSON object function. */
const LABEL_FIELDS = sql.join(
  LABEL_COLUMNS.map((column) => sql`${sql.lit(column)}, ${sql.ref(`l.${column}`)}`),
);
const LABELS_JSON = {
  sqlite: sql`json_group_array(json_object(${LABEL_FIELDS}))`,
  postgres: sql`coalesce(json_agg(json_build_object(${LABEL_FIELDS})), '[]'::json)`,
};

/** What the parts of an issue or merge request hang off: its id and the ids it points at. */
export type IssuablePointers = Pick<Issue, "id" | "author_id" | "assignee_id" | "milestone_id">;

/**
 * The statement of {@link IssuablePartsStore.of}: the rows' pointers as a table of values, the rest
 * joined or in subqueries keyed by id. Its parameters are {@link partsParameters}, in that order.
 */
function partsQuery(
  db: Kysely<Database>,
  type: IssuableType,
  rows: readonly IssuablePointers[],
  userId: number | null,
): CompiledQuery<PartsRow> {
  // Typed, because PostgreSQL reads untyped parameters in VALUES as text.
  const id = (value: number | null) => sql`cast(${value} as integer)`;
  const pointers = sql.join(
    rows.map((row) => sql`(${sql.join([row.id, row.author_id, row.assignee_id, row.milestone_id].map(id))})`),
  );
  const labels = onSqlite(db) ? LABELS_JSON.sqlite : LABELS_JSON.postgres;
  const subscription =
    userId === null
      ? sql`null`
      : sql`(select subscribed from subscriptions where subscribable_type = ${type}
          and subscribable_id = t.id and user_id = ${userId})`;
  return sql<PartsRow>`with t (id, author_id, assignee_id, milestone_id) as (values ${pointers})
    select t.id, ${JOINED_COLUMNS},
      (select ${labels} from label_links ll join labels l on l.id = ll.label_id
        where ll.target_type = ${type} and ll.target_id = t.id) as labels,
      (select count(*) from notes where noteable_type = ${type} and noteable_id = t.id and system = 0)
        as user_notes_count,
      ${subscription} as subscribed
    from t
    left join users a on a.id = t.author_id
    left join users s on s.id = t.assignee_id
    left join milestones m on m.id = t.milestone_id`.compile(db);
}

/** The parameters of {@link partsQuery}, in the order its text takes them. */
function partsParameters(
  type: IssuableType,
  rows: readonly IssuablePointers[],
  userId: number | null,
): unknown[] {
  const pointers = rows.flatMap((row) => [row.id, row.author_id, row.assignee_id, row.milestone_id]);
  return [...pointers, type, type, ...(userId === null ? [] : [type, userId])];
}

/** Pages up to this size reuse their statement's text; larger sets are compiled each time. */
const REUSED_UP_TO = 100;

/** The parts statement, compiled once per page size (about 120 fragments: slow to build). */
const PARTS = new ReusedStatement(partsQuery, partsParameters, (_type, rows, userId) =>
  rows.length > REUSED_UP_TO ? null : `${rows.length} ${userId === null}`,
);

/**
 * The parts of issues or merge requests that live in other tables (author, assignee, milestone,
 * labels, user notes, a user's subscription), for a page of them in one statement.
 */
export class IssuablePartsStore {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The parts of these issues or merge requests, by id, from the pointers given (as the caller
   * holds the rows, so a row changed or deleted meanwhile still gets the parts it names); `userId`
   * names whose subscriptions to read (null: none).
   */
  async of(
    type: IssuableType,
    rows: readonly IssuablePointers[],
    userId: number | null,
  ): Promise<Map<number, StoredIssuableParts>> {
    const parts = new Map<number, StoredIssuableParts>();
    if (rows.length === 0) return parts;
    const { rows: found } = await this.db.executeQuery(PARTS.compile(this.db, type, rows, userId));
    for (const row of found) parts.set(row.id, toParts(row));
    return parts;
  }
}

function toParts(row: PartsRow): StoredIssuableParts {
  const labels = typeof row.labels === "string" ? (JSON.parse(row.labels) as Label[]) : row.labels;
  return {
    author: row.author_id === null ? null : userOf(row, "author_"),
    assignee: row.assignee_id === null ? null : userOf(row, "assignee_"),
    milestone: row.milestone_id === null ? null : milestoneOf(row),
    labels: labels.sort(byTitle),
    subscription: row.subscribed === null ? null : row.subscribed === 1,
    userNotesCount: Number(row.user_notes_count),
  };
}

// A record a left join found by its id has every column as its table stores it: the casts below
// only undo the nulls the join's type allows. Written out rather than copied in a loop over the
// column lists: objects of one literal shape cost 14 µs less per page of 20 (measured in a loop).

function userOf(row: PartsRow, prefix: "author_" | "assignee_"): UserSummary {
  return {
    id: row[`${prefix}id`] as number,
    username: row[`${prefix}username`] as string,
    name: row[`${prefix}name`] as string,
    state: row[`${prefix}state`] as UserSummary["state"],
    created_at: row[`${prefix}created_at`] as string,
  };
}

function milestoneOf(row: PartsRow): Milestone {
  return {
    id: row.milestone_id as number,
    iid: row.milestone_iid as number,
    project_id: row.milestone_project_id as number,
    title: row.milestone_title as string,
    description: row.milestone_description,
    state: row.milestone_state as Milestone["state"],
    due_date: row.milestone_due_date,
    start_date: row.milestone_start_date,
    created_at: row.milestone_created_at as string,
    updated_at: row.milestone_updated_at as string,
  };
}
