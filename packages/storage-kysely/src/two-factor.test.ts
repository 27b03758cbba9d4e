import { Migrator } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newUser } from "./__tests__/fixtures.js";
import type { OpenDatabase } from "./connect.js";
import { migrateToLatest } from "./migrate.js";
import { migrationProvider } from "./migrations/index.js";
import { Stores } from "./stores.js";
import { testDialects } from "./testing.js";

for (const dialect of testDialects()) {
  describe.skipIf(dialect.unavailable !== null)(
    `two-factor store on ${dialect.name} ${dialect.unavailable ?? ""}`,
    () => {
      let opened: OpenDatabase;
      let stores: Stores;
      let userId: number;

      beforeEach(async () => {
        opened = await dialect.open();
        stores = new Stores(opened.db);
        userId = (await stores.users.create(newUser("alice"))).id;
      });
      afterEach(async () => {
        await opened.close();
      });

      it("puts a pending secret in force only while it is still the pending one", async () => {
        await stores.twoFactor.setPendingSecret(userId, "sealed-1");
        await stores.twoFactor.setPendingSecret(userId, "sealed-2");
        expect(await stores.twoFactor.enable(userId, "sealed-1", 100)).toBe(false);
        expect(await stores.twoFactor.enable(userId, "sealed-2", 100)).toBe(true);
        expect(await stores.twoFactor.find(userId)).toMatchObject({
          secretSealed: "sealed-2",
          pendingSecretSealed: null,
          lastStep: 100,
          enabledAt: expect.any(String),
        });
        expect((await stores.users.findById(userId))?.two_factor_enabled_at).not.toBeNull();
      });

      it("accepts each step once, and never an earlier one, even when two requests race", async () => {
        await stores.twoFactor.setPendingSecret(userId, "sealed");
        await stores.twoFactor.enable(userId, "sealed", 100);
        expect(await stores.twoFactor.acceptStep(userId, 100)).toBe(false);
        const both = await Promise.all([
          stores.twoFactor.acceptStep(userId, 101),
          stores.twoFactor.acceptStep(userId, 101),
        ]);
        expect(both.filter(Boolean)).toHaveLength(1);
        expect(await stores.twoFactor.acceptStep(userId, 99)).toBe(false);
      });

      it("spends recovery codes once, and forgets everything when 2FA is turned off", async () => {
        await stores.twoFactor.setPendingSecret(userId, "sealed");
        await stores.twoFactor.enable(userId, "sealed", 1);
        await stores.twoFactor.replaceRecoveryCodes(userId, ["d1", "d2"]);
        expect(await stores.twoFactor.useRecoveryCode(userId, "d1")).toBe(true);
        expect(await stores.twoFactor.useRecoveryCode(userId, "d1")).toBe(false);
        expect(await stores.twoFactor.useRecoveryCode(userId, "nope")).toBe(false);
        expect(await stores.twoFactor.recoveryCodesLeft(userId)).toBe(1);
        await stores.twoFactor.disable(userId);
        expect(await stores.twoFactor.recoveryCodesLeft(userId)).toBe(0);
        expect(await stores.twoFactor.find(userId)).toEqual({
          secretSealed: null,
          pendingSecretSealed: null,
          lastStep: null,
          enabledAt: null,
        });
        expect(await stores.twoFactor.acceptStep(userId, 5)).toBe(false);
      });

      it("migrates down and up again", async () => {
        const migrator = new Migrator({ db: opened.db, provider: migrationProvider });
        expect((await migrator.migrateTo("0017_web_sessions")).error).toBeUndefined();
        expect((await migrateToLatest(opened.db)).applied).toContain("0018_two_factor");
      });
    },
  );
}
