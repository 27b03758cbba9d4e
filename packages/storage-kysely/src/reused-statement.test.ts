import { expect, it } from "vitest";
import { createAccount } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";
import { ReusedStatement } from "./queries.js";

describeStores("reused statement", (ctx) => {
  it("runs the text compiled first with each call's parameters", async () => {
    const { db } = ctx.opened;
    const byUsername = new ReusedStatement(
      (db, username: string) =>
        db.selectFrom("users").select(["id", "username"]).where("username", "=", username).compile(),
      (username) => [username],
    );
    const { user: alice } = await createAccount(ctx.stores, "alice");
    const { user: bob } = await createAccount(ctx.stores, "bob");
    const first = byUsername.compile(db, "alice");
    const second = byUsername.compile(db, "bob");
    expect(second.sql).toBe(first.sql);
    expect((await db.executeQuery(first)).rows).toEqual([{ id: alice.id, username: "alice" }]);
    expect((await db.executeQuery(second)).rows).toEqual([{ id: bob.id, username: "bob" }]);
  });

  it("refuses, on its first use, parameters that are not the statement's", () => {
    const misnamed = new ReusedStatement(
      (db, id: number, username: string) =>
        db.selectFrom("users").select("id").where("username", "=", username).where("id", "=", id).compile(),
      (id, username) => [id, username],
    );
    expect(() => misnamed.compile(ctx.opened.db, 1, "alice")).toThrow(
      /takes \["alice",1\], not \[1,"alice"\]/,
    );
  });

  it("keeps one text per shape", async () => {
    const { db } = ctx.opened;
    const byIds = new ReusedStatement(
      (db, ids: number[]) => db.selectFrom("users").select("id").where("id", "in", ids).compile(),
      (ids) => ids,
      (ids) => String(ids.length),
    );
    expect(byIds.compile(db, [1]).sql).not.toBe(byIds.compile(db, [1, 2]).sql);
    expect(byIds.compile(db, [3, 4]).sql).toBe(byIds.compile(db, [1, 2]).sql);
  });

  it("compiles a shape it is told not to keep on every call, checking its parameters each time", () => {
    const { db } = ctx.opened;
    let built = 0;
    const rare = new ReusedStatement(
      (db, ids: number[]) => {
        built++;
        return db.selectFrom("users").select("id").where("id", "in", ids).compile();
      },
      (ids) => ids,
      (ids) => (ids.length > 2 ? null : String(ids.length)),
    );
    expect(rare.compile(db, [1, 2, 3]).parameters).toEqual([1, 2, 3]);
    expect(rare.compile(db, [4, 5, 6]).parameters).toEqual([4, 5, 6]);
    rare.compile(db, [1]);
    rare.compile(db, [2]);
    expect(built).toBe(3);
  });
});
