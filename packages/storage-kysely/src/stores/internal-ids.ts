import { type Kysely, sql } from "kysely";
import type { Database } from "../database.js";

/** What a per-project counter numbers. */
export type InternalIdUsage = "issues" | "merge_requests" | "milestones";

/**
 * Per-project iid counters. A number, once given out by a committed transaction, is never given out
 * again in that project, even after the row that had it is deleted.
 */
export class InternalIdStore {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The next iid of a project for `usage`, in one statement: an insert of 1 that, when the counter
   * exists, becomes an increment (`on conflict do update ... returning`). On PostgreSQL the counter's
   * row stays locked until the caller's transaction ends, so concurrent creations in one project
   * take turns and each gets its own number; a rolled-back transaction gives its number back.
   */
  async next(projectId: number, usage: InternalIdUsage): Promise<number> {
    const row = await this.db
      .insertInto("internal_ids")
      .values({ project_id: projectId, usage, last_value: 1 })
      .onConflict((oc) =>
        oc.columns(["project_id", "usage"]).doUpdateSet({ last_value: sql`internal_ids.last_value + 1` }),
      )
      .returning("last_value")
      .executeTakeFirstOrThrow();
    return Number(row.last_value);
  }

  /** The last iid given out (0 when none was). */
  async last(projectId: number, usage: InternalIdUsage): Promise<number> {
    const row = await this.db
      .selectFrom("internal_ids")
      .select("last_value")
      .where("project_id", "=", projectId)
      .where("usage", "=", usage)
      .executeTakeFirst();
    return row ? Number(row.last_value) : 0;
  }
}
