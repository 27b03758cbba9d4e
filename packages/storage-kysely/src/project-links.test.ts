import { AccessLevel, EventAction } from "@kiln/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAccount, createGroup, createProject, ids } from "./__tests__/fixtures.js";
import type { OpenDatabase } from "./connect.js";
import { ForeignKeyViolation, UniqueViolation } from "./errors.js";
import type { NewEvent } from "./stores/events.js";
import { Stores } from "./stores.js";
import { testDialects } from "./testing.js";

for (const dialect of testDialects()) {
  describe.skipIf(dialect.unavailable !== null)(
    `stars, forks, shares and events on ${dialect.name} ${dialect.unavailable ?? ""}`,
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

      /** A user with three projects in their namespace. */
      async function setup() {
        const { user, namespace } = await createAccount(stores, "alice");
        const a = await createProject(stores, namespace.id, "a");
        const b = await createProject(stores, namespace.id, "b");
        const c = await createProject(stores, namespace.id, "c");
        return { user, a, b, c };
      }

      it("stars a project once per user, and unstars it once", async () => {
        const { user, a, b } = await setup();
        const { user: other } = await createAccount(stores, "bob");
        expect(await stores.stars.add(user.id, a.id)).toBe(true);
        expect(await stores.stars.add(user.id, a.id)).toBe(false);
        expect(await stores.stars.add(other.id, a.id)).toBe(true);
        expect(await stores.stars.remove(user.id, b.id)).toBe(false);
        expect(await stores.stars.remove(user.id, a.id)).toBe(true);
        expect(await stores.stars.remove(user.id, a.id)).toBe(false);
        expect(await stores.stars.add(user.id, a.id)).toBe(true);
        // Other users' stars are their own.
        expect(await stores.stars.remove(other.id, a.id)).toBe(true);
        expect(await stores.stars.remove(user.id, a.id)).toBe(true);
      });

      it("links a fork to one source only, reports sources and fork counts, and unlinks", async () => {
        const { a, b, c } = await setup();
        await stores.forks.link(b.id, a.id);
        await expect(stores.forks.link(b.id, a.id)).rejects.toBeInstanceOf(UniqueViolation);
        await expect(stores.forks.link(b.id, c.id)).rejects.toBeInstanceOf(UniqueViolation);
        await stores.forks.link(c.id, a.id);

        expect(await stores.forks.sourcesOf([])).toEqual(new Map());
        expect(await stores.forks.sourcesOf([a.id, b.id, c.id, b.id])).toEqual(
          new Map([
            [b.id, a.id],
            [c.id, a.id],
          ]),
        );
        expect(await stores.forks.countForks([])).toEqual(new Map());
        expect(await stores.forks.countForks([a.id, b.id, a.id])).toEqual(new Map([[a.id, 2]]));

        expect(await stores.forks.unlink(b.id)).toBe(true);
        expect(await stores.forks.unlink(b.id)).toBe(false);
        expect(await stores.forks.unlink(a.id)).toBe(false);
        expect(await stores.forks.sourcesOf([b.id, c.id])).toEqual(new Map([[c.id, a.id]]));
        expect(await stores.forks.countForks([a.id])).toEqual(new Map([[a.id, 1]]));
        // Unlinked, it may be linked again, now to another source.
        await stores.forks.link(b.id, c.id);
        expect(await stores.forks.countForks([a.id, c.id])).toEqual(
          new Map([
            [a.id, 1],
            [c.id, 1],
          ]),
        );
      });

      it("refuses a fork of a project deleted meanwhile as a ForeignKeyViolation", async () => {
        const { a, b } = await setup();
        await stores.projects.delete(a.id);
        await expect(stores.forks.link(b.id, a.id)).rejects.toBeInstanceOf(ForeignKeyViolation);
        // Inside a transaction too (a fork's rows are written in one).
        await expect(stores.transaction((tx) => tx.forks.link(b.id, a.id))).rejects.toBeInstanceOf(
          ForeignKeyViolation,
        );
        expect(await stores.forks.sourcesOf([b.id])).toEqual(new Map());
      });

      it("shares a project with a group once, lists shares by group name, and stops sharing", async () => {
        const { a, b, c } = await setup();
        const zeta = await createGroup(stores, "zeta", { name: "zeta" });
        const alpha = await createGroup(stores, "alpha", { name: "alpha" });
        const mid = await createGroup(stores, "mid", { name: "mid" });
        const share = await stores.shares.add(a.id, zeta.id, AccessLevel.REPORTER);
        expect(share).toEqual({
          project_id: a.id,
          group_id: zeta.id,
          group_access: AccessLevel.REPORTER,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        });
        await expect(stores.shares.add(a.id, zeta.id, AccessLevel.MASTER)).rejects.toBeInstanceOf(
          UniqueViolation,
        );
        await stores.shares.add(a.id, alpha.id, AccessLevel.MASTER);
        await stores.shares.add(a.id, mid.id, AccessLevel.GUEST);
        await stores.shares.add(b.id, mid.id, AccessLevel.DEVELOPER);

        expect(await stores.shares.forProjects([])).toEqual(new Map());
        const shares = await stores.shares.forProjects([a.id, b.id, c.id]);
        expect(shares).toEqual(
          new Map([
            [
              a.id,
              [
                { group_id: alpha.id, group_name: "alpha", group_access_level: AccessLevel.MASTER },
                { group_id: mid.id, group_name: "mid", group_access_level: AccessLevel.GUEST },
                { group_id: zeta.id, group_name: "zeta", group_access_level: AccessLevel.REPORTER },
              ],
            ],
            [b.id, [{ group_id: mid.id, group_name: "mid", group_access_level: AccessLevel.DEVELOPER }]],
          ]),
        );
        expect((await stores.shares.projectsSharedWith(mid.id)).sort((x, y) => x - y)).toEqual(ids([a, b]));
        expect(await stores.shares.projectsSharedWith(zeta.id)).toEqual([a.id]);

        expect(await stores.shares.remove(a.id, mid.id)).toBe(true);
        expect(await stores.shares.remove(a.id, mid.id)).toBe(false);
        expect(await stores.shares.remove(c.id, mid.id)).toBe(false);
        expect(await stores.shares.projectsSharedWith(mid.id)).toEqual([b.id]);
        expect((await stores.shares.forProjects([a.id])).get(a.id)?.map((s) => s.group_id)).toEqual(
          ids([alpha, zeta]),
        );
      });

      describe("events", () => {
        const push = (projectId: number, authorId: number | null, data: unknown): NewEvent => ({
          project_id: projectId,
          author_id: authorId,
          action: EventAction.PUSHED,
          target_type: null,
          target_id: null,
          target_title: null,
          data,
        });

        it("appends events, with JSON data coming back as written and null staying null", async () => {
          const { user, a } = await setup();
          const data = {
            before: "0".repeat(40),
            after: "abc123",
            ref: "refs/heads/main",
            total_commits_count: 2,
            commits: [{ id: "abc123", message: "fix: naïve “quotes” ✓", added: [], removed: null }],
            flags: { forced: false, tag: true },
          };
          const pushed = await stores.events.append(push(a.id, user.id, data));
          expect(pushed).toEqual({
            id: expect.any(Number),
            project_id: a.id,
            author_id: user.id,
            action: EventAction.PUSHED,
            target_type: null,
            target_id: null,
            target_title: null,
            data,
            created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          });
          const issue = await stores.events.append({
            project_id: a.id,
            author_id: null,
            action: EventAction.CREATED,
            target_type: "Issue",
            target_id: 7,
            target_title: "Broken build",
            data: null,
          });
          expect(issue).toMatchObject({ target_type: "Issue", target_id: 7, author_id: null, data: null });
          const listed = await stores.events.listForProject(a.id, { page: 1, perPage: 10 });
          expect(listed.items).toEqual([issue, pushed]);
        });

        it("lists a project's events newest first, paged, leaving other projects' out", async () => {
          const { user, a, b, c } = await setup();
          const appended = [];
          for (let i = 0; i < 5; i++) {
            appended.push(await stores.events.append(push(a.id, user.id, { n: i })));
            await stores.events.append(push(b.id, user.id, { n: i }));
          }
          const newest = [...appended].reverse();
          const first = await stores.events.listForProject(a.id, { page: 1, perPage: 2 });
          expect(first).toMatchObject({ page: 1, perPage: 2, total: 5 });
          expect(first.items).toEqual(newest.slice(0, 2));
          const third = await stores.events.listForProject(a.id, { page: 3, perPage: 2 });
          expect(third).toMatchObject({ total: 5, items: [{ data: { n: 0 } }] });
          expect((await stores.events.listForProject(a.id, { page: 4, perPage: 2 })).items).toEqual([]);
          expect(await stores.events.listForProject(c.id, { page: 1, perPage: 2 })).toMatchObject({
            items: [],
            total: 0,
          });
        });
      });
    },
  );
}
