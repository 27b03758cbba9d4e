import { AccessLevel } from "@kiln/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ALL, createAccount, createGroup, createProject } from "./__tests__/fixtures.js";
import type { OpenDatabase } from "./connect.js";
import { UniqueViolation } from "./errors.js";
import type { MemberStore } from "./stores/members.js";
import { Stores } from "./stores.js";
import { testDialects } from "./testing.js";

/** The two membership stores, and how to make a source (project or group) for each. */
const KINDS = [
  {
    kind: "projectMembers",
    store: (stores: Stores): MemberStore => stores.projectMembers,
    source: async (stores: Stores, path: string): Promise<number> => {
      const group = await createGroup(stores, `${path}-home`);
      return (await createProject(stores, group.id, path)).id;
    },
  },
  {
    kind: "groupMembers",
    store: (stores: Stores): MemberStore => stores.groupMembers,
    source: async (stores: Stores, path: string): Promise<number> => (await createGroup(stores, path)).id,
  },
] as const;

for (const dialect of testDialects()) {
  for (const { kind, store, source } of KINDS) {
    describe.skipIf(dialect.unavailable !== null)(
      `stores.${kind} on ${dialect.name} ${dialect.unavailable ?? ""}`,
      () => {
        let opened: OpenDatabase;
        let stores: Stores;
        let members: MemberStore;

        beforeEach(async () => {
          opened = await dialect.open();
          stores = new Stores(opened.db);
          members = store(stores);
        });
        afterEach(async () => {
          await opened.close();
        });

        it("adds a membership once and finds it, in that source only", async () => {
          const { user } = await createAccount(stores, "ann");
          const here = await source(stores, "here");
          const there = await source(stores, "there");
          const added = await members.add(here, user.id, AccessLevel.DEVELOPER);
          expect(added).toEqual({
            source_id: here,
            user_id: user.id,
            access_level: AccessLevel.DEVELOPER,
            created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          });
          await expect(members.add(here, user.id, AccessLevel.MASTER)).rejects.toBeInstanceOf(
            UniqueViolation,
          );
          expect(await members.find(here, user.id)).toEqual(added);
          expect(await members.find(there, user.id)).toBeUndefined();
          // The other kind of membership is a separate table.
          const other = kind === "projectMembers" ? stores.groupMembers : stores.projectMembers;
          expect(await other.find(here, user.id)).toBeUndefined();
        });

        it("finds a member with their user", async () => {
          const { user } = await createAccount(stores, "ben");
          const { user: other } = await createAccount(stores, "cat");
          const here = await source(stores, "here");
          const added = await members.add(here, user.id, AccessLevel.REPORTER);
          await members.add(here, other.id, AccessLevel.GUEST);
          expect(await members.findMember(here, user.id)).toEqual({ user, membership: added });
          expect(await members.findMember(here, 999_999)).toBeUndefined();
        });

        it("lists members by user id with their users, matching username or name, paged", async () => {
          const accounts = [];
          for (const username of ["dan", "eve", "f_x", "fyx", "gil"]) {
            accounts.push(await createAccount(stores, username, { name: `Person ${username}` }));
          }
          const here = await source(stores, "here");
          const elsewhere = await source(stores, "elsewhere");
          // Added out of user order: the list is by user id.
          for (const { user } of [...accounts].reverse()) await members.add(here, user.id, AccessLevel.GUEST);
          await members.add(elsewhere, accounts[0]!.user.id, AccessLevel.OWNER);
          await members.setLevel(here, accounts[1]!.user.id, AccessLevel.MASTER);

          const all = await members.list(here, {}, ALL);
          expect(all.total).toBe(5);
          expect(all.items.map((m) => m.user.username)).toEqual(["dan", "eve", "f_x", "fyx", "gil"]);
          expect(all.items[1]).toEqual({
            user: accounts[1]!.user,
            membership: {
              source_id: here,
              user_id: accounts[1]!.user.id,
              access_level: AccessLevel.MASTER,
              created_at: expect.any(String),
            },
          });
          expect(all.items[0]!.membership.access_level).toBe(AccessLevel.GUEST);

          const second = await members.list(here, {}, { page: 2, perPage: 2 });
          expect(second).toMatchObject({ page: 2, perPage: 2, total: 5 });
          expect(second.items.map((m) => m.user.username)).toEqual(["f_x", "fyx"]);

          const byName = async (query: string) =>
            (await members.list(here, { query }, ALL)).items.map((m) => m.user.username);
          expect(await byName("EVE")).toEqual(["eve"]);
          expect(await byName("person g")).toEqual(["gil"]);
          expect(await byName("_")).toEqual(["f_x"]);
          expect(await byName("%")).toEqual([]);
          expect((await members.list(elsewhere, { query: "eve" }, ALL)).items).toEqual([]);
        });

        it("changes a level, and removes a membership once", async () => {
          const { user } = await createAccount(stores, "hal");
          const here = await source(stores, "here");
          const added = await members.add(here, user.id, AccessLevel.GUEST);
          expect(await members.setLevel(here, user.id, AccessLevel.OWNER)).toEqual({
            ...added,
            access_level: AccessLevel.OWNER,
          });
          expect((await members.find(here, user.id))?.access_level).toBe(AccessLevel.OWNER);
          expect(await members.setLevel(here, 999_999, AccessLevel.OWNER)).toBeUndefined();
          expect(await members.remove(here, user.id)).toBe(true);
          expect(await members.remove(here, user.id)).toBe(false);
          expect(await members.find(here, user.id)).toBeUndefined();
        });

        it("counts members at exactly one level", async () => {
          const here = await source(stores, "here");
          const elsewhere = await source(stores, "elsewhere");
          const levels = [AccessLevel.OWNER, AccessLevel.OWNER, AccessLevel.MASTER];
          for (const [i, level] of levels.entries()) {
            const { user } = await createAccount(stores, `u${i}`);
            await members.add(here, user.id, level);
            await members.add(elsewhere, user.id, AccessLevel.OWNER);
          }
          expect(await members.countAtLevel(here, AccessLevel.OWNER)).toBe(2);
          expect(await members.countAtLevel(here, AccessLevel.MASTER)).toBe(1);
          expect(await members.countAtLevel(here, AccessLevel.GUEST)).toBe(0);
          expect(await members.countAtLevel(elsewhere, AccessLevel.OWNER)).toBe(3);
        });

        it("reports a user's levels in many sources at once", async () => {
          const { user } = await createAccount(stores, "ivy");
          const { user: other } = await createAccount(stores, "jon");
          const a = await source(stores, "a");
          const b = await source(stores, "b");
          const c = await source(stores, "c");
          await members.add(a, user.id, AccessLevel.REPORTER);
          await members.add(b, user.id, AccessLevel.MASTER);
          await members.add(c, other.id, AccessLevel.OWNER);
          expect(await members.levelsOf(user.id, [])).toEqual(new Map());
          expect(await members.levelsOf(user.id, [a, b, c, a])).toEqual(
            new Map([
              [a, AccessLevel.REPORTER],
              [b, AccessLevel.MASTER],
            ]),
          );
          expect(await members.levelsOf(other.id, [a, b])).toEqual(new Map());
        });
      },
    );
  }
}
