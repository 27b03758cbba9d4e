import { EventAction, type Page, type PageRequest, type ProjectEvent } from "@kiln/domain";
import { type Kysely, type RawBuilder, type SqlBool, sql } from "kysely";
import type { Database } from "../database.js";
import { now, paginate } from "../queries.js";
import { type ConfidentialFilter, confidentialCondition } from "./issues.js";

/** A new entry of the activity feed. */
export type NewEvent = Omit<ProjectEvent, "id" | "created_at">;

/**
 * Which of a project's events a reader sees; a field left undefined hides nothing. An event about
 * an issue, a merge request or a note on one that a field restricts stays only while what it is
 * about exists and passes the field.
 */
export interface EventFilter {
  /** Leaves out push events. */
  withoutPushes?: boolean | undefined;
  /** Events of issues, and of notes on them, stay only for the issues this filter keeps. */
  confidential?: ConfidentialFilter | undefined;
  /** Events of merge requests, and of notes on them, stay only for those this user wrote or is assigned to. */
  mergeRequestsOf?: { userId: number } | undefined;
}

const toEvent = (row: Record<string, unknown> & { data: string | null; action: number }): ProjectEvent =>
  ({
    ...row,
    action: row.action as EventAction,
    data: row.data === null ? null : JSON.parse(row.data),
  }) as ProjectEvent;

/** The activity feed. */
export class EventStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Appends an event (in the caller's transaction, with the change it records). */
  async append(event: NewEvent): Promise<ProjectEvent> {
    const row = await this.db
      .insertInto("events")
      .values({
        ...event,
        data: event.data === null || event.data === undefined ? null : JSON.stringify(event.data),
        created_at: now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toEvent(row);
  }

  /**
   * One page of a project's events that pass the filter, newest first. The filter is part of the
   * statement, so pages are full and the total counts only what the reader sees.
   */
  async listForProject(
    projectId: number,
    page: PageRequest,
    filter: EventFilter = {},
  ): Promise<Page<ProjectEvent>> {
    let query = this.db
      .selectFrom("events")
      .selectAll()
      .where("project_id", "=", projectId)
      .orderBy("id", "desc");
    for (const condition of visibleEvents(filter)) query = query.where(condition);
    const { rows, total } = await paginate(this.db, query, page, "capped");
    return { items: rows.map(toEvent), page: page.page, perPage: page.perPage, total };
  }
}

/** An SQL test on the id of an issue or merge request. */
type Readable = (id: RawBuilder<unknown>) => RawBuilder<SqlBool>;

/**
 * The conditions on `events` of a filter. Each is a probe by primary key per event walked, so a
 * page stops after its rows.
 */
function visibleEvents(filter: EventFilter): RawBuilder<SqlBool>[] {
  const conditions: RawBuilder<SqlBool>[] = [];
  const type = sql`coalesce(events.target_type, '')`;
  if (filter.withoutPushes) {
    conditions.push(sql<SqlBool>`(${type} <> '' or events.action <> ${EventAction.PUSHED})`);
  }
  const { confidential, mergeRequestsOf } = filter;
  const readers: [string, Readable][] = [];
  if (confidential) {
    readers.push([
      "Issue",
      (id) =>
        sql<SqlBool>`exists (select 1 from issues where issues.id = ${id} and ${confidentialCondition(confidential)})`,
    ]);
  }
  if (mergeRequestsOf) {
    const user = mergeRequestsOf.userId;
    readers.push([
      "MergeRequest",
      (id) =>
        sql<SqlBool>`exists (select 1 from merge_requests mr where mr.id = ${id} and (mr.author_id = ${user} or mr.assignee_id = ${user}))`,
    ]);
  }
  if (readers.length === 0) return conditions;
  const target = sql.ref("events.target_id");
  const noteable = sql.ref("notes.noteable_id");
  for (const [kind, readable] of readers) {
    conditions.push(sql<SqlBool>`(${type} <> ${kind} or ${readable(target)})`);
  }
  const onReadable = readers.map(
    ([kind, readable]) => sql<SqlBool>`(notes.noteable_type <> ${kind} or ${readable(noteable)})`,
  );
  conditions.push(
    sql<SqlBool>`(${type} <> 'Note' or exists (select 1 from notes where notes.id = ${target} and ${sql.join(onReadable, sql` and `)}))`,
  );
  return conditions;
}
