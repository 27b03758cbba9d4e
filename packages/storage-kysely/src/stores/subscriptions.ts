import type { SubscribableType, Subscription } from "@kiln/domain";
import type { Kysely, Selectable } from "kysely";
import type { Database, SubscriptionsTable } from "../database.js";
import { flag, now } from "../queries.js";

const toSubscription = (row: Selectable<SubscriptionsTable>): Subscription => {
  const { id: _, ...rest } = row;
  return {
    ...rest,
    subscribable_type: row.subscribable_type as SubscribableType,
    subscribed: row.subscribed === 1,
  };
};

/** An issue, merge request or label, as subscriptions point at it. */
export interface Subscribable {
  type: SubscribableType;
  id: number;
  /** The project it belongs to: the subscription goes with the project. */
  projectId: number;
}

/**
 * Users' explicit choices to follow or ignore issues, merge requests and labels, one per user and
 * subject. Having none is not the same as being unsubscribed: the caller decides what it means
 * (GitLab counts participants as subscribed).
 */
export class SubscriptionStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records the user's choice, replacing an earlier one. */
  async set(userId: number, subject: Subscribable, subscribed: boolean): Promise<Subscription> {
    const at = now();
    const row = await this.db
      .insertInto("subscriptions")
      .values({
        user_id: userId,
        project_id: subject.projectId,
        subscribable_type: subject.type,
        subscribable_id: subject.id,
        subscribed: flag(subscribed),
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc
          .columns(["subscribable_type", "subscribable_id", "user_id"])
          .doUpdateSet({ subscribed: flag(subscribed), updated_at: at }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSubscription(row);
  }

  /** The user's choice on a subject: true, false, or undefined when they made none. */
  async get(userId: number, subject: Pick<Subscribable, "type" | "id">): Promise<boolean | undefined> {
    const row = await this.db
      .selectFrom("subscriptions")
      .select("subscribed")
      .where("subscribable_type", "=", subject.type)
      .where("subscribable_id", "=", subject.id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row === undefined ? undefined : row.subscribed === 1;
  }

  /** The user's choices on many subjects of one type, by subject id; subjects without one are absent. */
  async getMany(
    userId: number,
    type: SubscribableType,
    ids: readonly number[],
  ): Promise<Map<number, boolean>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("subscriptions")
      .select(["subscribable_id", "subscribed"])
      .where("subscribable_type", "=", type)
      .where("subscribable_id", "in", [...new Set(ids)])
      .where("user_id", "=", userId)
      .execute();
    return new Map(rows.map((row) => [row.subscribable_id, row.subscribed === 1]));
  }

  /** Everyone's choices on a subject, by user id (for notifying subscribers and not the others). */
  async choices(subject: Pick<Subscribable, "type" | "id">): Promise<Map<number, boolean>> {
    const rows = await this.db
      .selectFrom("subscriptions")
      .select(["user_id", "subscribed"])
      .where("subscribable_type", "=", subject.type)
      .where("subscribable_id", "=", subject.id)
      .orderBy("user_id")
      .execute();
    return new Map(rows.map((row) => [row.user_id, row.subscribed === 1]));
  }
}
