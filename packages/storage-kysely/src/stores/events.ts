import type { EventAction, Page, PageRequest, ProjectEvent } from "@kiln/domain";
import type { Kysely } from "kysely";
import type { Database } from "../database.js";
import { now, paginate } from "../queries.js";

/** A new entry of the activity feed. */
export type NewEvent = Omit<ProjectEvent, "id" | "created_at">;

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

  /** One page of a project's events, newest first. */
  async listForProject(projectId: number, page: PageRequest): Promise<Page<ProjectEvent>> {
    const query = this.db
      .selectFrom("events")
      .selectAll()
      .where("project_id", "=", projectId)
      .orderBy("id", "desc");
    const { rows, total } = await paginate(this.db, query, page, "capped");
    return { items: rows.map(toEvent), page: page.page, perPage: page.perPage, total };
  }
}
