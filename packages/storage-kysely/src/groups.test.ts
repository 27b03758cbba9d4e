import { AccessLevel, Visibility } from "@kiln/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ALL, createAccount, createGroup, createProject, ids, newUser } from "./__tests__/fixtures.js";
import type { OpenDatabase } from "./connect.js";
import { UniqueViolation } from "./errors.js";
import { Stores } from "./stores.js";
import { testDialects } from "./testing.js";

for (const dialect of testDialects()) {
  describe.skipIf(dialect.unavailable !== null)(
    `groups in the namespace store on ${dialect.name} ${dialect.unavailable ?? ""}`,
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

      it("creates a group and finds it by id and by path ignoring case", async () => {
        const group = await stores.namespaces.createGroup({
          name: "Platform Team",
          path: "Platform",
          description: "runs things",
          visibility_level: Visibility.INTERNAL,
        });
        expect(group).toMatchObject({
          name: "Platform Team",
          path: "Platform",
          kind: "group",
          owner_id: null,
          description: "runs things",
          visibility_level: Visibility.INTERNAL,
          share_with_group_lock: false,
        });
        expect(group.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
        expect(await stores.namespaces.findById(group.id)).toEqual(group);
        expect(await stores.namespaces.findByPath("platform")).toEqual(group);
        expect(await stores.namespaces.findByPath("PLATFORM")).toEqual(group);
        expect(await stores.namespaces.findByPath("platfor")).toBeUndefined();
      });

      it("keeps group paths unique across users and groups, ignoring case", async () => {
        await createAccount(stores, "alice");
        await createGroup(stores, "team");
        await expect(createGroup(stores, "ALICE")).rejects.toBeInstanceOf(UniqueViolation);
        await expect(createGroup(stores, "Team", { name: "other name" })).rejects.toBeInstanceOf(
          UniqueViolation,
        );
        const user = await stores.users.create(newUser("bob"));
        await expect(stores.namespaces.createForUser(user.id, "TEAM", "Bob")).rejects.toBeInstanceOf(
          UniqueViolation,
        );
        expect(await stores.namespaces.pathTaken("tEaM")).toBe(true);
      });

      it("updates a group's fields and share lock, but never a user's namespace", async () => {
        const group = await createGroup(stores, "ops", { description: "before" });
        const other = await createGroup(stores, "dev");
        const { namespace: personal } = await createAccount(stores, "carol");
        await new Promise((resolve) => setTimeout(resolve, 5));
        const updated = await stores.namespaces.updateGroup(group.id, {
          name: "Operations",
          visibility_level: Visibility.PUBLIC,
          share_with_group_lock: true,
        });
        expect(updated).toEqual({
          ...group,
          name: "Operations",
          visibility_level: Visibility.PUBLIC,
          share_with_group_lock: true,
          updated_at: updated?.updated_at,
        });
        expect(updated!.updated_at > group.updated_at).toBe(true);
        expect(await stores.namespaces.findById(group.id)).toEqual(updated);
        const unlocked = await stores.namespaces.updateGroup(group.id, { share_with_group_lock: false });
        expect(unlocked).toMatchObject({
          share_with_group_lock: false,
          name: "Operations",
          description: "before",
        });
        expect(await stores.namespaces.updateGroup(group.id, { path: "ops2" })).toMatchObject({
          path: "ops2",
        });
        expect(await stores.namespaces.findByPath("ops")).toBeUndefined();
        await expect(stores.namespaces.updateGroup(group.id, { path: "DEV" })).rejects.toBeInstanceOf(
          UniqueViolation,
        );
        await expect(stores.namespaces.updateGroup(group.id, { path: "Carol" })).rejects.toBeInstanceOf(
          UniqueViolation,
        );
        expect(await stores.namespaces.updateGroup(personal.id, { name: "hijacked" })).toBeUndefined();
        expect(await stores.namespaces.findById(personal.id)).toEqual(personal);
        expect(await stores.namespaces.updateGroup(999_999, { name: "x" })).toBeUndefined();
        expect(await stores.namespaces.findById(other.id)).toEqual(other);
      });

      it("deletes a group with its projects, members and shares, but never a user's namespace", async () => {
        const { user, namespace: personal } = await createAccount(stores, "dave");
        const group = await createGroup(stores, "doomed");
        const survivor = await createGroup(stores, "survivor");
        const inside = await createProject(stores, group.id, "inside");
        const outside = await createProject(stores, personal.id, "outside");
        const kept = await createProject(stores, survivor.id, "kept");
        await stores.groupMembers.add(group.id, user.id, AccessLevel.OWNER);
        await stores.groupMembers.add(survivor.id, user.id, AccessLevel.OWNER);
        await stores.projectMembers.add(inside.id, user.id, AccessLevel.MASTER);
        await stores.shares.add(outside.id, group.id, AccessLevel.DEVELOPER);
        await stores.shares.add(outside.id, survivor.id, AccessLevel.DEVELOPER);

        expect(await stores.namespaces.deleteGroup(personal.id)).toBe(false);
        expect(await stores.namespaces.findById(personal.id)).toEqual(personal);
        expect(await stores.namespaces.deleteGroup(group.id)).toBe(true);
        expect(await stores.namespaces.deleteGroup(group.id)).toBe(false);

        expect(await stores.namespaces.findById(group.id)).toBeUndefined();
        expect(await stores.projects.findById(inside.id)).toBeUndefined();
        expect(await stores.projectMembers.find(inside.id, user.id)).toBeUndefined();
        expect(await stores.groupMembers.find(group.id, user.id)).toBeUndefined();
        const shares = await stores.shares.forProjects([outside.id]);
        expect(shares.get(outside.id)?.map((share) => share.group_id)).toEqual([survivor.id]);
        expect(await stores.projects.findById(outside.id)).toEqual(outside);
        expect(await stores.projects.findById(kept.id)).toEqual(kept);
        expect(await stores.groupMembers.find(survivor.id, user.id)).toBeDefined();
        expect(await stores.namespaces.pathTaken("doomed")).toBe(false);
      });

      it("finds namespaces by ids, skipping unknown ones", async () => {
        const { namespace } = await createAccount(stores, "erin");
        const group = await createGroup(stores, "g");
        expect(await stores.namespaces.findByIds([])).toEqual(new Map());
        expect(await stores.namespaces.findByIds([group.id, namespace.id, group.id, 999_999])).toEqual(
          new Map<number, unknown>([
            [group.id, group],
            [namespace.id, namespace],
          ]),
        );
      });

      it("lists namespaces by id: all, a member's own, groups only, and by search", async () => {
        const frank = await createAccount(stores, "frank");
        const gina = await createAccount(stores, "gina");
        const web = await createGroup(stores, "web", { name: "Web Team" });
        const data = await createGroup(stores, "data_eng", { name: "Data" });
        const dataX = await createGroup(stores, "dataxeng", { name: "Other" });
        await stores.groupMembers.add(web.id, frank.user.id, AccessLevel.GUEST);
        await stores.groupMembers.add(dataX.id, frank.user.id, AccessLevel.OWNER);
        await stores.groupMembers.add(data.id, gina.user.id, AccessLevel.OWNER);
        const listIds = async (filter: Parameters<typeof stores.namespaces.list>[0]) =>
          ids((await stores.namespaces.list(filter, ALL)).items);

        expect(await listIds({})).toEqual(ids([frank.namespace, gina.namespace, web, data, dataX]));
        expect(await listIds({ memberId: frank.user.id })).toEqual(ids([frank.namespace, web, dataX]));
        expect(await listIds({ memberId: frank.user.id, kind: "group" })).toEqual(ids([web, dataX]));
        expect(await listIds({ kind: "group" })).toEqual(ids([web, data, dataX]));
        expect(await listIds({ search: "TEAM" })).toEqual([web.id]);
        expect(await listIds({ search: "data" })).toEqual(ids([data, dataX]));
        expect(await listIds({ search: "a_e" })).toEqual([data.id]);
        expect(await listIds({ search: "gin", kind: "group" })).toEqual([]);
        expect(await listIds({ search: "gin" })).toEqual([gina.namespace.id]);
        expect(await listIds({ search: "data", memberId: gina.user.id })).toEqual([data.id]);

        const paged = await stores.namespaces.list({ kind: "group" }, { page: 2, perPage: 2 });
        expect(paged).toMatchObject({ total: 3, items: [{ id: dataX.id }] });
      });
    },
  );
}
