import type { HookDelivery, HookScope, Page, PageRequest } from "@kiln/domain";
import type { Insertable, Kysely, Selectable } from "kysely";
import type { Database, HookDeliveriesTable } from "../database.js";
import { now, paginate } from "../queries.js";

/** A delivery to queue: its payload for one hook, due at once. */
export type NewDelivery = Pick<
  Insertable<HookDeliveriesTable>,
  "uuid" | "event_id" | "hook_scope" | "hook_id" | "project_id" | "event_name" | "payload"
>;

/** How an attempt went, as the log keeps it; `state` pending with `next_attempt_at` for a retry. */
export type DeliveryAttempt = Pick<
  HookDelivery,
  | "state"
  | "next_attempt_at"
  | "url"
  | "request_headers"
  | "response_status"
  | "response_headers"
  | "response_body"
  | "error"
  | "duration_ms"
>;

/** A due delivery's key, as {@link DeliveryStore.due} lists them. */
export interface DueDelivery {
  id: number;
  hook_scope: HookScope;
  hook_id: number;
}

const parsed = (text: string | null): Record<string, string> | null =>
  text === null ? null : (JSON.parse(text) as Record<string, string>);

function toDelivery(row: Selectable<HookDeliveriesTable>): HookDelivery {
  const { event_id: _event, claimed_until: _claim, ...rest } = row;
  return {
    ...rest,
    request_headers: parsed(row.request_headers),
    response_headers: parsed(row.response_headers),
  };
}

/**
 * Webhook deliveries: queued by the outbox's `webhooks` subscriber (at most one per event and
 * hook, however often the event is handled) or by a test request, claimed by a delivery worker
 * while it sends one, and kept as the log of their last attempt until pruned.
 */
export class DeliveryStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Queues deliveries, due now; one that already exists for its event and hook is left as it is. */
  async queue(deliveries: readonly NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    const at = now();
    await this.db
      .insertInto("hook_deliveries")
      .values(
        deliveries.map((delivery) => ({
          ...delivery,
          state: "pending" as const,
          next_attempt_at: at,
          created_at: at,
          updated_at: at,
        })),
      )
      .onConflict((conflict) => conflict.columns(["event_id", "hook_scope", "hook_id"]).doNothing())
      .execute();
  }

  /**
   * The oldest pending delivery due at `at` that no worker holds, of each hook (up to `limit`
   * hooks, those waiting longest first): a hook with a long queue hides no other hook's.
   */
  async due(at: string, limit: number): Promise<DueDelivery[]> {
    const rows = await this.db
      .selectFrom("hook_deliveries")
      .select((eb) => [eb.fn.min("id").as("id"), "hook_scope", "hook_id"])
      .where("state", "=", "pending")
      .where("next_attempt_at", "<=", at)
      .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", at)]))
      .groupBy(["hook_scope", "hook_id"])
      .orderBy((eb) => eb.fn.min("id"))
      .limit(limit)
      .execute();
    return rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  /**
   * Takes the due deliveries `ids` for one worker until `until`, in one write, and answers those
   * it got; the others another worker took first. The update re-checks each claim under the row's
   * lock, so of two processes claiming one row at once, one gets it.
   */
  async claim(ids: readonly number[], at: string, until: string): Promise<HookDelivery[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .updateTable("hook_deliveries")
      .set({ claimed_until: until })
      .where("id", "in", ids)
      .where("state", "=", "pending")
      .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", at)]))
      .returningAll()
      .execute();
    return rows.map(toDelivery);
  }

  /** Records an attempt (one more) and releases the claim. */
  async record(id: number, attempt: DeliveryAttempt): Promise<void> {
    await this.db
      .updateTable("hook_deliveries")
      .set((eb) => ({
        ...attempt,
        request_headers: attempt.request_headers && JSON.stringify(attempt.request_headers),
        response_headers: attempt.response_headers && JSON.stringify(attempt.response_headers),
        attempts: eb("attempts", "+", 1),
        claimed_until: null,
        updated_at: now(),
      }))
      .where("id", "=", id)
      .execute();
  }

  /** Releases every claim: for the only process of a database, at start (its previous life's claims). */
  async releaseClaims(): Promise<void> {
    await this.db
      .updateTable("hook_deliveries")
      .set({ claimed_until: null })
      .where("claimed_until", "is not", null)
      .execute();
  }

  /** One page of a hook's deliveries, newest first. */
  async listForHook(scope: HookScope, hookId: number, page: PageRequest): Promise<Page<HookDelivery>> {
    const query = this.db
      .selectFrom("hook_deliveries")
      .selectAll()
      .where("hook_scope", "=", scope)
      .where("hook_id", "=", hookId)
      .orderBy("id", "desc");
    const { rows, total } = await paginate(this.db, query, page, "exact");
    return { items: rows.map(toDelivery), page: page.page, perPage: page.perPage, total };
  }

  /** One delivery, by its delivery id. */
  async findByUuid(uuid: string): Promise<HookDelivery | undefined> {
    const row = await this.db
      .selectFrom("hook_deliveries")
      .selectAll()
      .where("uuid", "=", uuid)
      .executeTakeFirst();
    return row && toDelivery(row);
  }

  /** Deletes delivered and failed deliveries last attempted before `before`; answers how many. */
  async prune(before: string): Promise<number> {
    const result = await this.db
      .deleteFrom("hook_deliveries")
      .where("state", "!=", "pending")
      .where("updated_at", "<", before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
