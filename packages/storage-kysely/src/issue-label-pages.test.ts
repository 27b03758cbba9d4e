import { ISSUE_STATE_FILTERS } from "@kiln/domain";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bulkIssues, recountLabels } from "./__tests__/bulk.js";
import { createWorkspace, NEWEST_FIRST } from "./__tests__/collaboration.js";
import type { OpenDatabase } from "./connect.js";
import { COMMON_LABEL_LINKS } from "./stores/issuables.js";
import { Stores } from "./stores.js";
import { testDialects } from "./testing.js";

// A label on many issues is read one way for a page and another for the count (see ListConditions):
// both must list exactly the issues a label on few issues would.

const COUNT = 3000;
/** Issue `i` (iid 1000 + i) is closed when i % 4 == 0 and carries `common` unless i % 4 == 1. */
const isOpen = (i: number) => i % 4 !== 0;
const isCommon = (i: number) => i % 4 !== 1;
const RARE = [7, 500, 1500, 2998, 3000];
const { opened: OPEN } = ISSUE_STATE_FILTERS;

/** The iids of issues 1..COUNT that `keep` keeps, newest first. */
const expected = (keep: (i: number) => boolean) =>
  Array.from({ length: COUNT }, (_, k) => COUNT - k)
    .filter(keep)
    .map((i) => 1000 + i);

for (const dialect of testDialects()) {
  describe.skipIf(dialect.unavailable !== null)(
    `issue lists by a common label on ${dialect.name} ${dialect.unavailable ?? ""}`,
    () => {
      let opened: OpenDatabase;
      let stores: Stores;
      let projectId: number;

      beforeEach(async () => {
        opened = await dialect.open();
        stores = new Stores(opened.db);
        const { project } = await createWorkspace(stores, "alice");
        projectId = project.id;
        await bulkIssues(opened.db, projectId, COUNT, 4);
        const label = (title: string) =>
          stores.labels.create({
            project_id: projectId,
            title,
            color: "#428bca",
            description: null,
            priority: null,
          });
        const common = await label("common");
        const rare = await label("rare");
        await sql`insert into label_links (label_id, target_type, target_id)
          select ${common.id}, 'Issue', id from issues where project_id = ${projectId} and (iid - 1000) % 4 <> 1`.execute(
          opened.db,
        );
        await sql`insert into label_links (label_id, target_type, target_id)
          select ${rare.id}, 'Issue', id from issues
          where project_id = ${projectId} and iid in (${sql.join(RARE.map((i) => 1000 + i))})`.execute(
          opened.db,
        );
        await recountLabels(opened.db);
      });
      afterEach(async () => {
        await opened.close();
      });

      // `counting` keeps every confidential issue of the project, which makes the list count its total.
      const list = (titles: string[], match: "any" | "all", page: number, counting = false) =>
        stores.issues.list(
          { kind: "project", projectId },
          {
            labels: { titles, match },
            states: OPEN,
            confidential: counting ? { userId: null, projectIds: [projectId] } : undefined,
          },
          NEWEST_FIRST,
          { page, perPage: 20 },
        );

      it("pages and counts the open issues of a common label, first and deep pages alike", async () => {
        const want = expected((i) => isOpen(i) && isCommon(i));
        expect(want.length).toBeGreaterThanOrEqual(COMMON_LABEL_LINKS / 2);
        for (const page of [1, 2, 60]) {
          // The total from the label's counters, then from a count: the same.
          for (const counting of [false, true]) {
            const result = await list(["common"], "any", page, counting);
            expect(result.items.map((issue) => issue.iid)).toEqual(want.slice((page - 1) * 20, page * 20));
            expect(result.total).toBe(want.length);
          }
        }
      });

      it("combines a common and a rare label with all and with any", async () => {
        const all = await list(["common", "rare"], "all", 1);
        expect(all.items.map((issue) => issue.iid)).toEqual(
          expected((i) => isOpen(i) && isCommon(i) && RARE.includes(i)),
        );
        const anyOf = expected((i) => isOpen(i) && (isCommon(i) || RARE.includes(i)));
        const any = await list(["common", "rare"], "any", 2);
        expect(any.items.map((issue) => issue.iid)).toEqual(anyOf.slice(20, 40));
        expect(any.total).toBe(anyOf.length);
      });
    },
  );
}
