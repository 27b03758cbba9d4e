import type { Kysely, Selectable } from "kysely";
import type { Database, MergeIntentsTable } from "../database.js";
import { flag, now, onSqlite } from "../queries.js";

/**
 * A merge written but not yet recorded: its commit may or may not be the target's head yet. Kept
 * from before the target branch moves until the transaction that records the merge, so that a
 * merge cut short by a crash can be finished (or dropped) afterwards. Its fields are the table's
 * (see {@link MergeIntentsTable}), with the flag a boolean and the issues an array.
 */
export type MergeIntent = Omit<
  Selectable<MergeIntentsTable>,
  "remove_source_branch" | "closing_issue_ids"
> & {
  /** Whether the accept asked to remove the source branch. */
  remove_source_branch: boolean;
  /** The ids of the issues the merge closes. */
  closing_issue_ids: number[];
};

/** What an intent is recorded with. */
export type NewMergeIntent = Omit<MergeIntent, "id" | "created_at">;

const toIntent = (row: Selectable<MergeIntentsTable>): MergeIntent => ({
  ...row,
  remove_source_branch: row.remove_source_branch === 1,
  closing_issue_ids: JSON.parse(row.closing_issue_ids) as number[],
});

/**
 * Merge intents: recorded (and committed) before a merge moves its target branch, removed by the
 * transaction that records the merge. Whoever finishes one claims it first, in that transaction.
 */
export class MergeIntentStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records an intent; call it outside any transaction, so that it is durable before the branch moves. */
  async record(intent: NewMergeIntent): Promise<MergeIntent> {
    const row = await this.db
      .insertInto("merge_intents")
      .values({
        ...intent,
        remove_source_branch: flag(intent.remove_source_branch),
        closing_issue_ids: JSON.stringify(intent.closing_issue_ids),
        created_at: now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toIntent(row);
  }

  /** The intents of one merge request, oldest first (more than one only while accepts race). */
  async forMergeRequest(mergeRequestId: number): Promise<MergeIntent[]> {
    const rows = await this.db
      .selectFrom("merge_intents")
      .selectAll()
      .where("merge_request_id", "=", mergeRequestId)
      .orderBy("id")
      .execute();
    return rows.map(toIntent);
  }

  /** Every intent, oldest first. */
  async all(): Promise<MergeIntent[]> {
    const rows = await this.db.selectFrom("merge_intents").selectAll().orderBy("id").execute();
    return rows.map(toIntent);
  }

  /**
   * The intent, claimed for the rest of the transaction this runs in (run it in one): on
   * PostgreSQL its row stays locked, so another claim waits and then finds it gone if this
   * transaction removed it; SQLite's write transactions exclude each other already. Undefined when
   * it is gone (finished or dropped by someone else).
   */
  async claim(id: number): Promise<MergeIntent | undefined> {
    const row = await this.db
      .selectFrom("merge_intents")
      .selectAll()
      .where("id", "=", id)
      .$if(!onSqlite(this.db), (query) => query.forUpdate())
      .executeTakeFirst();
    return row && toIntent(row);
  }

  /** Removes an intent; true when it was there. */
  async remove(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom("merge_intents").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
