import { Migrator, sql } from "kysely";
import { expect, it } from "vitest";
import { describeStores } from "./__tests__/store-suite.js";
import { migrateToLatest } from "./migrate.js";
import { migrationProvider } from "./migrations/index.js";

// The settings row has real `created_at` and `updated_at` from the first start on (migration 0010),
// which GET /application/settings shows.

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Waits until the clock has passed `stamp`, so that a later write gets a later timestamp. */
async function after(stamp: string): Promise<void> {
  while (Date.now() <= Date.parse(stamp)) await new Promise((resolve) => setImmediate(resolve));
}

describeStores("settings", (ctx) => {
  it("exist with the defaults from the start, created and changed at the same time", async () => {
    expect(await ctx.stores.settings.read()).toEqual({});
    const stamps = await ctx.stores.settings.stamps();
    expect(stamps.created_at).toMatch(ISO);
    expect(stamps.updated_at).toBe(stamps.created_at);
  });

  it("move updated_at on every write and keep created_at", async () => {
    const created = await ctx.stores.settings.stamps();
    await after(created.updated_at);
    await ctx.stores.settings.write({ signin_enabled: false });
    const written = await ctx.stores.settings.stamps();
    expect(written.created_at).toBe(created.created_at);
    expect(written.updated_at > created.updated_at).toBe(true);
    expect(await ctx.stores.settings.read()).toEqual({ signin_enabled: false });
  });

  it("are created again, with the defaults, when the row was removed by hand", async () => {
    await ctx.stores.settings.write({ signin_enabled: false });
    await sql`delete from application_settings`.execute(ctx.opened.db);
    const stamps = await ctx.stores.settings.stamps();
    expect(stamps.created_at).toMatch(ISO);
    expect(stamps.updated_at).toBe(stamps.created_at);
    expect(await ctx.stores.settings.read()).toEqual({});
  });

  it("take created_at from updated_at for a row written before the migration, and a row when there was none", async () => {
    const db = ctx.opened.db;
    const migrator = new Migrator({ db, provider: migrationProvider });
    const down = async () => {
      const { error } = await migrator.migrateTo("0007_label_counters");
      if (error) throw error;
    };
    await down();
    await sql`delete from application_settings`.execute(db);
    expect((await migrateToLatest(db)).applied).toContain("0010_settings_created_at");
    const inserted = await ctx.stores.settings.stamps();
    expect(inserted.created_at).toMatch(ISO);
    expect(inserted.updated_at).toBe(inserted.created_at);

    await down();
    const changedAt = "2016-05-04T03:02:01.000Z";
    await sql`update application_settings set data = '{"signin_enabled":false}', updated_at = ${changedAt}`.execute(
      db,
    );
    await migrateToLatest(db);
    expect(await ctx.stores.settings.stamps()).toEqual({ created_at: changedAt, updated_at: changedAt });
    expect(await ctx.stores.settings.read()).toEqual({ signin_enabled: false });
  });
});
