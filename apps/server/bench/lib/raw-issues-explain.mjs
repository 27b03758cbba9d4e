// The raw issues baseline's read statements with the parameters of their cases, for explain.mjs
// (the insert is not timed there: it would write to the fixture).

import { LIST_LABEL } from "./issue-cases.mjs";
import {
  ISSUES_COUNT_SQL,
  ISSUES_COUNTERS_SQL,
  ISSUES_OPENED_LABEL_PAGE_SQL,
  ISSUES_OPENED_PAGE_SQL,
  ISSUES_PAGE_SQL,
  LABEL_SQL,
  V3_PROJECT_SQL,
  v3PageSql,
} from "./raw-issues-sql.mjs";

/**
 * `[id, label, ...[sql, params]]` rows in explain.mjs's shape for the raw issues list cases.
 * @returns {[string, string, ...[string, unknown][]][]}
 */
export function rawIssueStatements(db, fixture) {
  const big = fixture.bigProjectId;
  const some = fixture.ordinaryProjectIds[0];
  const label = db.prepare(LABEL_SQL).get(big, LIST_LABEL).id;
  return [
    [
      "raw_issues_list",
      `raw issues list, project ${some} (performance.md's list)`,
      [ISSUES_PAGE_SQL, [some, 20, 0]],
      [ISSUES_COUNT_SQL, [some]],
    ],
    [
      "raw_issues_list_state",
      "raw issues, 100k project, opened p1 + counters",
      [ISSUES_OPENED_PAGE_SQL, [big, 20, 0]],
      [ISSUES_COUNTERS_SQL, [big]],
    ],
    [
      "raw_issues_list_label",
      `raw issues, 100k project, opened + ${LIST_LABEL} p1 + label counters`,
      [LABEL_SQL, [big, LIST_LABEL]],
      [ISSUES_OPENED_LABEL_PAGE_SQL, [big, label, 20, 0]],
    ],
    [
      "raw_issues_list_v3",
      "raw issues, 100k project, opened p1 as Kiln answers it, as root",
      [V3_PROJECT_SQL, { user: 1, project: big }],
      [v3PageSql(false), { user: 1, project: big, limit: 20, offset: 0 }],
    ],
  ];
}
