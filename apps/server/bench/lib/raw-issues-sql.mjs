// The SQL of the raw issues baseline (servers/raw-issues.mjs), shared with explain.mjs: the same
// WHERE, ORDER BY and LIMIT as Kiln's issue store writes for `GET /projects/:id/issues`, and the
// statements of a creation.

/** Kiln's default order: newest first, ties broken by id. */
const ORDER = "ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?";
/** `state=opened` is opened and reopened: both are stored as state 'opened'. */
const OPENED = "project_id = ? AND state = 'opened'";
/**
 * Carrying the label id (the parameter), as the store's page shape for a label on many issues: one
 * probe of label_links' primary key per issue walked in the list's order.
 */
const CARRYING =
  "EXISTS (SELECT 1 FROM label_links WHERE label_id = ? AND target_type = 'Issue' AND target_id = issues.id)";

/**
 * performance.md's raw list figure: a project's issues in every state, page 1, and their exact
 * count. Parameters: project id, limit, offset; the count: project id.
 */
export const ISSUES_PAGE_SQL = `SELECT * FROM issues WHERE project_id = ? ${ORDER}`;
export const ISSUES_COUNT_SQL = "SELECT COUNT(*) FROM issues WHERE project_id = ?";
/** Parameters: project id, limit, offset. */
export const ISSUES_OPENED_PAGE_SQL = `SELECT * FROM issues WHERE ${OPENED} ${ORDER}`;
/** The total of an unfiltered state list, from the project's counters (no count). Parameter: project id. */
export const ISSUES_COUNTERS_SQL = "SELECT open_issues_count, closed_issues_count FROM projects WHERE id = ?";
/**
 * A project's label by title (the label filter names titles), with its count of open issues (kept
 * with every change, as the counters of projects). Parameters: project id, title.
 */
export const LABEL_SQL = "SELECT id, open_issues_count FROM labels WHERE project_id = ? AND title = ?";
/** Parameters: project id, label id, limit, offset. */
export const ISSUES_OPENED_LABEL_PAGE_SQL = `SELECT * FROM issues WHERE ${OPENED} AND ${CARRYING} ${ORDER}`;

/** The project's next issue iid. Parameter: project id. */
export const NEXT_IID_SQL = `INSERT INTO internal_ids (project_id, usage, last_value) VALUES (?, 'issues', 1)
  ON CONFLICT (project_id, usage) DO UPDATE SET last_value = internal_ids.last_value + 1 RETURNING last_value`;
/** Parameters: project id, iid, title, description, author id, created_at, updated_at. */
export const INSERT_ISSUE_SQL = `INSERT INTO issues (project_id, iid, title, description, state, reopened,
  author_id, assignee_id, milestone_id, confidential, due_date, moved_to_id, created_at, updated_at)
  VALUES (?, ?, ?, ?, 'opened', 0, ?, NULL, NULL, 0, NULL, NULL, ?, ?) RETURNING *`;
/** Counts the new issue open. Parameter: project id. */
export const COUNT_OPENED_SQL = "UPDATE projects SET open_issues_count = open_issues_count + 1 WHERE id = ?";
