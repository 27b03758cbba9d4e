import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAccount, createProject } from "./__tests__/fixtures.js";
import type { OpenDatabase } from "./connect.js";
import { Stores } from "./stores.js";
import { testDialects } from "./testing.js";

for (const dialect of testDialects()) {
  describe.skipIf(dialect.unavailable !== null)(
    `protected branches on ${dialect.name} ${dialect.unavailable ?? ""}`,
    () => {
      let opened: OpenDatabase;
      let stores: Stores;

      beforeEach(async () => {
        opened = await dialect.open();
        stores = new Stores(opened.db);
      });
      afterEach(async () => {
        await opened.close();
      });

      it("keeps one rule per project and branch, updates it when protected again, and removes it once", async () => {
        const { namespace } = await createAccount(stores, "alice");
        const a = await createProject(stores, namespace.id, "a");
        const b = await createProject(stores, namespace.id, "b");
        const first = await stores.protectedBranches.protect(a.id, "main", {
          developers_can_push: false,
          developers_can_merge: true,
        });
        expect(first).toMatchObject({
          project_id: a.id,
          name: "main",
          developers_can_push: false,
          developers_can_merge: true,
        });
        const again = await stores.protectedBranches.protect(a.id, "main", {
          developers_can_push: true,
          developers_can_merge: false,
        });
        expect(again).toMatchObject({ id: first.id, developers_can_push: true, developers_can_merge: false });
        await stores.protectedBranches.protect(a.id, "release/1.0", {
          developers_can_push: false,
          developers_can_merge: false,
        });
        await stores.protectedBranches.protect(b.id, "main", {
          developers_can_push: false,
          developers_can_merge: false,
        });

        expect([...(await stores.protectedBranches.forProject(a.id)).keys()].sort()).toEqual([
          "main",
          "release/1.0",
        ]);
        expect(await stores.protectedBranches.find(a.id, "Main")).toBeUndefined();
        expect(await stores.protectedBranches.unprotect(a.id, "main")).toBe(true);
        expect(await stores.protectedBranches.unprotect(a.id, "main")).toBe(false);
        expect(await stores.protectedBranches.find(a.id, "main")).toBeUndefined();
        expect(await stores.protectedBranches.find(b.id, "main")).toBeDefined();
      });

      it("go with their project", async () => {
        const { namespace } = await createAccount(stores, "bob");
        const p = await createProject(stores, namespace.id, "p");
        await stores.protectedBranches.protect(p.id, "main", {
          developers_can_push: false,
          developers_can_merge: false,
        });
        await stores.projects.delete(p.id);
        expect((await stores.protectedBranches.forProject(p.id)).size).toBe(0);
      });
    },
  );
}
