import { AccessLevel, COUNT_LIMIT, type Project } from "@kiln/domain";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ALL, BY_ID, createAccount, createGroup, createProject, ids } from "./__tests__/fixtures.js";
import type { OpenDatabase } from "./connect.js";
import { DEFERRED_JOIN_OFFSET } from "./queries.js";
import type { ProjectFilter, ProjectOrder, ProjectScope } from "./stores/project-scopes.js";
import { Stores } from "./stores.js";
import { testDialects } from "./testing.js";

for (const dialect of testDialects()) {
  describe.skipIf(dialect.unavailable !== null)(
    `project list orders and pages on ${dialect.name} ${dialect.unavailable ?? ""}`,
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

      const listIds = async (scope: ProjectScope, filter: ProjectFilter = {}, order: ProjectOrder = BY_ID) =>
        ids((await stores.projects.list(scope, filter, order, ALL)).items);

      describe("orders", () => {
        // Four projects whose every column sorts them differently; two names and two creation times tie.
        const at = (month: number) => `2021-0${month}-01T00:00:00.000Z`;
        async function fourProjects(): Promise<Project[]> {
          const a = await createAccount(stores, "ida");
          const b = await createGroup(stores, "jet");
          const specs = [
            {
              ns: a.namespace.id,
              name: "cherry",
              path: "pb",
              created: at(3),
              updated: at(4),
              activity: at(1),
            },
            {
              ns: a.namespace.id,
              name: "apple",
              path: "pd",
              created: at(2),
              updated: at(1),
              activity: at(4),
            },
            { ns: b.id, name: "cherry", path: "pa", created: at(3), updated: at(2), activity: at(3) },
            { ns: b.id, name: "banana", path: "pc", created: at(1), updated: at(3), activity: at(2) },
          ];
          const projects: Project[] = [];
          for (const spec of specs) {
            const project = await createProject(stores, spec.ns, spec.path, {
              name: spec.name,
              builds_enabled: spec.path === "pb" || spec.path === "pc",
            });
            await opened.db
              .updateTable("projects")
              .set({ created_at: spec.created, updated_at: spec.updated, last_activity_at: spec.activity })
              .where("id", "=", project.id)
              .execute();
            projects.push(project);
          }
          return projects;
        }

        it("orders by each column both ways, breaking ties by id in the same direction", async () => {
          const projects = await fourProjects();
          const byIndexes = (...indexes: number[]) => indexes.map((i) => projects[i]!.id);
          const expected: Record<ProjectOrder["by"], number[]> = {
            id: byIndexes(0, 1, 2, 3),
            name: byIndexes(1, 3, 0, 2),
            path: byIndexes(2, 0, 3, 1),
            created_at: byIndexes(3, 1, 0, 2),
            updated_at: byIndexes(1, 2, 3, 0),
            last_activity_at: byIndexes(0, 3, 2, 1),
          };
          for (const [by, ascending] of Object.entries(expected) as [ProjectOrder["by"], number[]][]) {
            expect(await listIds({ kind: "all" }, {}, { by, direction: "asc" }), `${by} asc`).toEqual(
              ascending,
            );
            expect(await listIds({ kind: "all" }, {}, { by, direction: "desc" }), `${by} desc`).toEqual(
              [...ascending].reverse(),
            );
          }
        });

        it("puts projects with builds enabled first when asked", async () => {
          const projects = await fourProjects();
          const [pb, pd, pa, pc] = ids(projects);
          expect(await listIds({ kind: "all" }, {}, { ...BY_ID, buildsFirst: true })).toEqual([
            pb,
            pc,
            pd,
            pa,
          ]);
          expect(
            await listIds({ kind: "all" }, {}, { by: "name", direction: "desc", buildsFirst: true }),
          ).toEqual([pb, pc, pa, pd]);
          expect(await listIds({ kind: "all" }, {}, { ...BY_ID, buildsFirst: false })).toEqual([
            pb,
            pd,
            pa,
            pc,
          ]);
        });
      });

      it("pages with exact totals, also past the end", async () => {
        const { user, namespace } = await createAccount(stores, "kim");
        const made: Project[] = [];
        for (const path of ["a", "b", "c", "d", "e"])
          made.push(await createProject(stores, namespace.id, path));
        const scope: ProjectScope = { kind: "member", userId: user.id };
        const pageOf = (page: number) => stores.projects.list(scope, {}, BY_ID, { page, perPage: 2 });
        expect(await pageOf(1)).toMatchObject({ page: 1, perPage: 2, total: 5 });
        expect(ids((await pageOf(2)).items)).toEqual(ids(made.slice(2, 4)));
        expect(await pageOf(3)).toMatchObject({ total: 5, items: [{ id: made[4]!.id }] });
        expect(await pageOf(4)).toMatchObject({ total: 5, items: [] });
      });

      /** Inserts `count` projects `bulk1`… into a namespace in one statement; `extra` overrides columns. */
      async function bulkInsert(namespaceId: number, count: number, extra: Record<string, string> = {}) {
        const at = "'2020-01-01T00:00:00.000Z'";
        const values: Record<string, string> = {
          namespace_id: String(namespaceId),
          name: "'bulk' || i",
          path: "'bulk' || i",
          runners_token_digest: `'digest${namespaceId}-' || i`,
          runners_token_sealed: "'sealed'",
          created_at: at,
          updated_at: at,
          last_activity_at: at,
          ...extra,
        };
        await sql`
          with recursive n(i) as (select 1 union all select i + 1 from n where i < ${sql.lit(count)})
          insert into projects (${sql.raw(Object.keys(values).join(", "))})
          select ${sql.raw(Object.values(values).join(", "))} from n
        `.execute(opened.db);
      }

      it("reads deep pages (a deferred join from DEFERRED_JOIN_OFFSET on) as the plain query would", async () => {
        const { user, namespace } = await createAccount(stores, "deep");
        const group = await createGroup(stores, "deepgroup");
        await stores.groupMembers.add(group.id, user.id, AccessLevel.DEVELOPER);
        // Every order column repeats values (ties broken by id), visibility, archived and builds
        // vary, names sort apart from ids; a third of the projects are in a group the user is in.
        const extra = {
          created_at: `'2020-01-0' || (i % 7 + 1) || 'T00:00:00.000Z'`,
          updated_at: `'2020-02-' || (10 + i % 11) || 'T00:00:00.000Z'`,
          last_activity_at: `'2020-03-' || (10 + (i * 3) % 17) || 'T00:00:00.000Z'`,
          name: `'n' || ((i * 7919) % 2309)`,
          visibility_level: "(i % 3) * 10",
          archived: "case when i % 5 = 0 then 1 else 0 end",
          builds_enabled: "i % 2",
        };
        const count = 2 * DEFERRED_JOIN_OFFSET + 300;
        await bulkInsert(namespace.id, Math.floor((count * 2) / 3), extra);
        await bulkInsert(group.id, count - Math.floor((count * 2) / 3), extra);
        const other = await createAccount(stores, "other");
        const cases: [ProjectScope, ProjectFilter, ProjectOrder][] = [
          [{ kind: "all" }, {}, { by: "created_at", direction: "desc" }],
          [{ kind: "all" }, {}, { by: "id", direction: "asc" }],
          [{ kind: "all" }, { archived: false }, { by: "name", direction: "asc" }],
          [{ kind: "all" }, { search: "1" }, { by: "updated_at", direction: "asc", buildsFirst: true }],
          [{ kind: "member", userId: user.id }, {}, { by: "last_activity_at", direction: "desc" }],
          [
            { kind: "visible", userId: other.user.id, external: false },
            {},
            { by: "created_at", direction: "desc" },
          ],
          [{ kind: "visible", userId: user.id, external: true }, {}, { by: "path", direction: "desc" }],
        ];
        for (const [scope, filter, order] of cases) {
          const label = JSON.stringify([scope.kind, filter, order]);
          // The whole list in one page from offset 0: the plain query.
          const whole = await stores.projects.list(scope, filter, order, { page: 1, perPage: count + 10 });
          expect(whole.items.length, label).toBeGreaterThan(DEFERRED_JOIN_OFFSET + 100);
          for (const perPage of [20, 100]) {
            const firstDeep = Math.floor(DEFERRED_JOIN_OFFSET / perPage) + 1;
            const lastPage = Math.ceil(whole.items.length / perPage);
            for (const pageNo of [firstDeep - 1, firstDeep, firstDeep + 1, lastPage, lastPage + 1]) {
              const page = await stores.projects.list(scope, filter, order, { page: pageNo, perPage });
              const from = (pageNo - 1) * perPage;
              expect(ids(page.items), `${label} page ${pageNo} of ${perPage}`).toEqual(
                ids(whole.items.slice(from, from + perPage)),
              );
              expect(page.items, label).toEqual(whole.items.slice(from, from + perPage));
              expect(page.total, label).toBe(whole.total);
            }
          }
        }
      });

      it("counts all projects exactly up to COUNT_LIMIT, filtered or not, and not past it", async () => {
        const { namespace } = await createAccount(stores, "cap");
        await bulkInsert(namespace.id, COUNT_LIMIT - 1);
        const page = { page: 3, perPage: 7 };
        const totals = async () => [
          (await stores.projects.list({ kind: "all" }, {}, BY_ID, page)).total,
          (await stores.projects.list({ kind: "all" }, { archived: false }, BY_ID, page)).total,
          (await stores.projects.list({ kind: "all" }, {}, { by: "created_at", direction: "desc" }, page))
            .total,
        ];
        expect(await totals()).toEqual([COUNT_LIMIT - 1, COUNT_LIMIT - 1, COUNT_LIMIT - 1]);
        const last = await createProject(stores, namespace.id, "last");
        expect(await totals()).toEqual([COUNT_LIMIT, COUNT_LIMIT, COUNT_LIMIT]);
        await createProject(stores, namespace.id, "one-more");
        expect(await totals()).toEqual([null, null, null]);
        // Archiving one takes the filtered list back to the limit; the unfiltered one stays past it.
        await stores.projects.update(last.id, { archived: true });
        expect(await totals()).toEqual([null, COUNT_LIMIT, null]);
        // A page past the end still answers the total.
        const beyond = await stores.projects.list({ kind: "all" }, { archived: false }, BY_ID, {
          page: 2000,
          perPage: 10,
        });
        expect(beyond).toMatchObject({ items: [], total: COUNT_LIMIT });
      });

      it("stops counting past COUNT_LIMIT for all projects and searches, but not for a user's own", async () => {
        const { user, namespace } = await createAccount(stores, "lou");
        await sql`
          with recursive n(i) as (select 1 union all select i + 1 from n where i < ${sql.lit(COUNT_LIMIT + 1)})
          insert into projects
            (namespace_id, name, path, runners_token_digest, runners_token_sealed, created_at, updated_at, last_activity_at)
          select ${sql.lit(namespace.id)}, 'bulk' || i, 'bulk' || i, 'digest' || i, 'sealed',
            '2020-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z'
          from n
        `.execute(opened.db);
        const page = { page: 2, perPage: 5 };
        const all = await stores.projects.list({ kind: "all" }, {}, BY_ID, page);
        expect(all.items).toHaveLength(5);
        expect(all.total).toBeNull();
        expect(
          (await stores.projects.list({ kind: "all" }, { search: "bulk" }, BY_ID, page)).total,
        ).toBeNull();
        const member = await stores.projects.list({ kind: "member", userId: user.id }, {}, BY_ID, page);
        expect(member.total).toBe(COUNT_LIMIT + 1);
        const ns: ProjectScope = { kind: "namespace", namespaceId: namespace.id, viewer: null };
        expect((await stores.projects.list(ns, {}, BY_ID, page)).total).toBe(COUNT_LIMIT + 1);
        // Under the limit a capped count is exact.
        const few = await stores.projects.list({ kind: "all" }, { search: "bulk1000" }, BY_ID, {
          page: 2,
          perPage: 2,
        });
        expect(few.total).toBe(3);
        expect(few.items.map((project) => project.path)).toEqual(["bulk10001"]);
      });
    },
  );
}
