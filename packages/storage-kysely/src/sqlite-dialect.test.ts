import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type OpenDatabase, openDatabase } from "./connect.js";
import { migrateToLatest } from "./migrate.js";

describe("the SQLite dialect", () => {
  let opened: OpenDatabase;
  beforeEach(async () => {
    opened = await openDatabase({ kind: "sqlite", filename: ":memory:" });
    await sql`create table t (n integer)`.execute(opened.db);
  });
  afterEach(() => opened.close());

  it("serves queued queries first come, first served while a transaction holds the connection", async () => {
    const order: string[] = [];
    let finish!: () => void;
    const holding = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const transaction = opened.db.transaction().execute(async (trx) => {
      await sql`insert into t values (1)`.execute(trx);
      await holding;
      order.push("transaction");
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const queued = ["a", "b", "c"].map((name) =>
      sql`select count(*) as n from t`.execute(opened.db).then((result) => {
        order.push(name);
        return result.rows[0];
      }),
    );
    finish();
    await transaction;
    // a query arriving after the release must not jump the queue
    const late = sql`select 1`.execute(opened.db).then(() => order.push("late"));
    const counts = await Promise.all(queued);
    await late;
    expect(order).toEqual(["transaction", "a", "b", "c", "late"]);
    // and none of them ran inside the transaction before it committed
    expect(counts).toEqual([{ n: 1 }, { n: 1 }, { n: 1 }]);
  });

  it("rolls a failed transaction back and keeps serving", async () => {
    await expect(
      opened.db.transaction().execute(async (trx) => {
        await sql`insert into t values (2)`.execute(trx);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(opened.db);
    expect(rows[0]?.n).toBe(0);
  });

  it("reports affected rows and insert ids", async () => {
    const inserted = await opened.db
      .insertInto("t" as never)
      .values({ n: 5 } as never)
      .executeTakeFirst();
    expect(inserted.insertId).toBe(1n);
    const updated = await sql`update t set n = 6`.execute(opened.db);
    expect(updated.numAffectedRows).toBe(1n);
  });

  it("waits for another process's migrations only while migrating: the usual busy timeout comes back", async () => {
    const busyTimeout = async () =>
      (await sql<{ timeout: number }>`pragma busy_timeout`.execute(opened.db)).rows[0]?.timeout;
    const usual = await busyTimeout();
    await migrateToLatest(opened.db);
    expect(await busyTimeout()).toBe(usual);
  });
});
