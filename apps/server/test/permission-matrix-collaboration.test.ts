/**
 * The permission matrix of the collaboration routes (issue 5): issues, merge requests, notes,
 * labels, milestones and todos, for every role of `matrix/rules.ts` and every visibility of the
 * personal, group and shared fixture projects, over real HTTP. Each route is one test that runs
 * all its cells and lists every cell that answered otherwise than the rules of
 * `matrix/collaboration-rules.ts` say, as `route | where | who: expected X, got Y`.
 *
 * Read-only rows share one set of records per fixture project (`matrix/collaboration-fixtures.ts`);
 * rows that use a record up (delete, move) make a fresh one per cell; accepting a merge request
 * never merges (those who may merge get the `sha` mismatch). A few rows run on archived copies of
 * the fixtures (same memberships), where the writes are gone.
 */
import type { ApiRequest } from "@kiln/testkit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { archivedRoutes } from "./matrix/archived-routes.js";
import { type Cast, createCast, Fresh } from "./matrix/cast.js";
import { type Cell, mismatches, tally } from "./matrix/cells.js";
import {
  type ArchivedSite,
  type CollaborationRoute,
  collaborationCells,
  createArchivedSites,
  createSites,
  type Kit,
  Records,
  type Sites,
} from "./matrix/collaboration-fixtures.js";
import { issueRoutes } from "./matrix/issue-routes.js";
import { labelMilestoneRoutes } from "./matrix/label-milestone-routes.js";
import { mergeRequestRoutes } from "./matrix/merge-request-routes.js";
import { noteRoutes } from "./matrix/note-routes.js";
import { ROLES, type Role, signedIn } from "./matrix/rules.js";
import { onEachDatabase } from "./support.js";

onEachDatabase("permission matrix of issues, merge requests, notes, labels and milestones", (ctx) => {
  let cast: Cast;
  let sites: Sites;
  let archivedSites: Sites<ArchivedSite>;
  let records: Records;
  let counted = 0;

  beforeAll(async () => {
    counted = tally.cells;
    cast = await createCast(ctx());
    records = new Records(ctx());
    const fresh = new Fresh(ctx(), cast);
    [sites, archivedSites] = await Promise.all([
      createSites(ctx(), cast, fresh),
      createArchivedSites(ctx(), fresh),
    ]);
  }, 120_000);

  afterAll(() => {
    console.info(`permission matrix (collaboration): ${tally.cells - counted} cells checked`);
  });

  const kit: Kit = {
    as: (role: Role, request: Omit<ApiRequest, "token">) =>
      ctx().api({ ...request, ...(role === "anonymous" ? {} : { token: cast.users[role].token }) }),
    get records() {
      return records;
    },
  };

  async function check(cells: Cell[]) {
    const found = await mismatches(cells);
    expect(found, `${found.length} of ${cells.length} cells differ`).toEqual([]);
  }

  const routes: CollaborationRoute[] = [
    ...issueRoutes(kit),
    ...mergeRequestRoutes(kit),
    ...noteRoutes(kit),
    ...labelMilestoneRoutes(kit),
  ];

  for (const spec of routes) {
    it(spec.route, { timeout: 120_000 }, async () => {
      await check(collaborationCells(spec, sites));
    });
  }

  for (const spec of archivedRoutes(kit)) {
    it(spec.route, { timeout: 120_000 }, async () => {
      await check(collaborationCells(spec, archivedSites));
    });
  }

  it("GET /todos", async () => {
    await check(
      ROLES.map((role) => ({
        route: "GET /todos",
        at: "-",
        who: role,
        expected: String(signedIn(role) ? 200 : 401),
        run: async () => String((await kit.as(role, { path: "/todos" })).status),
      })),
    );
  });
});
