import { afterEach, beforeEach, describe } from "vitest";
import type { OpenDatabase } from "../connect.js";
import { Stores } from "../stores.js";
import { testDialects } from "../testing.js";

/** What each test of a store suite gets: a freshly migrated database and its stores. */
export interface StoreSuite {
  readonly opened: OpenDatabase;
  readonly stores: Stores;
}

/**
 * Runs `suite` on every test dialect (SQLite always, PostgreSQL when configured), each test on a
 * fresh database that is closed after it.
 */
export function describeStores(subject: string, suite: (ctx: StoreSuite) => void): void {
  for (const dialect of testDialects()) {
    describe.skipIf(dialect.unavailable !== null)(
      `${subject} on ${dialect.name} ${dialect.unavailable ?? ""}`,
      () => {
        const ctx = {} as { opened: OpenDatabase; stores: Stores };
        beforeEach(async () => {
          ctx.opened = await dialect.open();
          ctx.stores = new Stores(ctx.opened.db);
        });
        afterEach(async () => {
          await ctx.opened.close();
        });
        suite(ctx);
      },
    );
  }
}
