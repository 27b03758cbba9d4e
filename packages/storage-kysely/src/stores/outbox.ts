import { type Insertable, type Kysely, type Selectable, sql } from "kysely";
import type { Database, OutboxEventsTable } from "../database.js";
import { now, onSqlite } from "../queries.js";

/** A domain event as the outbox keeps it. */
export type OutboxEvent = Selectable<OutboxEventsTable>;

/** What an event is appended with; its id and time come with the write. */
export type NewOutboxEvent = Omit<Insertable<OutboxEventsTable>, "id" | "created_at">;

/** The PostgreSQL channel notified (on commit) whenever events are written. */
export const OUTBOX_CHANNEL = "kiln_outbox";

/**
 * The key of the transaction-scoped advisory lock that orders the outbox's writers on PostgreSQL
 * (any fixed number; this one spells "kiln" in ASCII).
 */
const OUTBOX_LOCK = 0x6b696c6e;

/**
 * Writes events in `db`'s transaction. On PostgreSQL a sequence hands out ids when rows are
 * inserted, not when they commit: a writer holding id 10 may commit after one holding id 11, and a
 * reader that saw 11 and moved past it would never see 10. The advisory lock, held until the
 * commit, makes writers take their ids one transaction at a time, so ids commit in increasing
 * order. SQLite has one writer at a time already. The notification is delivered at the commit
 * (never for a transaction rolled back), so it goes with the lock in one statement.
 */
async function writeEvents(db: Kysely<Database>, events: readonly NewOutboxEvent[]): Promise<void> {
  if (!onSqlite(db)) {
    await sql`select pg_advisory_xact_lock(${OUTBOX_LOCK}), pg_notify(${OUTBOX_CHANNEL}, '')`.execute(db);
  }
  const createdAt = now();
  await db
    .insertInto("outbox_events")
    .values(events.map((event) => ({ ...event, created_at: createdAt })))
    .execute();
}

/**
 * The transactional outbox: domain events written in the transaction of the change they report,
 * and, per subscriber, the id of the last event it has handled. Events are read in id order, which
 * is commit order on both databases.
 */
export class OutboxStore {
  readonly #pending: NewOutboxEvent[] = [];

  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Appends an event to the transaction these stores are bound to; it is written by {@link flush}
   * as the transaction's last statement, so that the lock ordering the writers is held only
   * through the commit, and is never taken before another lock. Outside a transaction, the event
   * is written at once, in a transaction of its own.
   */
  async append(event: NewOutboxEvent): Promise<void> {
    if (this.db.isTransaction) {
      this.#pending.push(event);
      return;
    }
    await this.db.transaction().execute((trx) => writeEvents(trx, [event]));
  }

  /** Writes the events appended in this transaction; `Stores.transaction` calls it just before committing. */
  async flush(): Promise<void> {
    const events = this.#pending.splice(0);
    if (events.length > 0) await writeEvents(this.db, events);
  }

  /** Up to `limit` events with ids above `position`, oldest first. */
  after(position: number, limit: number): Promise<OutboxEvent[]> {
    return this.db
      .selectFrom("outbox_events")
      .selectAll()
      .where("id", ">", position)
      .orderBy("id")
      .limit(limit)
      .execute();
  }

  /** The id of the newest event kept, or 0 when there is none. */
  async latestId(): Promise<number> {
    const row = await this.db
      .selectFrom("outbox_events")
      .select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirst();
    return Number(row?.id ?? 0);
  }

  /** Gives a subscriber its position row (at 0: every event still kept) unless it has one. */
  async register(subscriber: string): Promise<void> {
    await this.db
      .insertInto("outbox_positions")
      .values({ subscriber, updated_at: now() })
      .onConflict((conflict) => conflict.column("subscriber").doNothing())
      .execute();
  }

  /** The subscriber's position; undefined before {@link register}. */
  async position(subscriber: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom("outbox_positions")
      .select("position")
      .where("subscriber", "=", subscriber)
      .executeTakeFirst();
    return row?.position;
  }

  /**
   * Runs `work` with the subscriber's position claimed, and moves the position to what `work`
   * answers (the id of the last event it handled). On PostgreSQL the position's row stays locked
   * in a transaction meanwhile, and a claim by another process answers false at once rather than
   * waiting (`skip locked`): each event is handled by one process per subscriber, and a process
   * that dies mid-batch releases the row with its connection. SQLite's database has one server
   * process, and `work` runs in no transaction, which would hold its one connection. False too
   * before {@link register}.
   */
  async whileClaimed(subscriber: string, work: (position: number) => Promise<number>): Promise<boolean> {
    if (onSqlite(this.db)) {
      const position = await this.position(subscriber);
      if (position === undefined) return false;
      const handled = await work(position);
      if (handled > position) await this.advance(subscriber, handled);
      return true;
    }
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom("outbox_positions")
        .select("position")
        .where("subscriber", "=", subscriber)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!row) return false;
      const handled = await work(row.position);
      if (handled > row.position) await new OutboxStore(trx).advance(subscriber, handled);
      return true;
    });
  }

  /** Moves the subscriber's position forward to `position` (never back). */
  async advance(subscriber: string, position: number): Promise<void> {
    await this.db
      .updateTable("outbox_positions")
      .set({ position, updated_at: now() })
      .where("subscriber", "=", subscriber)
      .where("position", "<", position)
      .execute();
  }

  /**
   * Deletes the events written before `before` (an ISO time) that every subscriber has handled;
   * answers how many. Nothing goes while no subscriber is registered.
   */
  async prune(before: string): Promise<number> {
    const result = await this.db
      .deleteFrom("outbox_events")
      .where("created_at", "<", before)
      .where("id", "<=", (eb) =>
        eb.selectFrom("outbox_positions").select((inner) => inner.fn.min("position").as("handled")),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
