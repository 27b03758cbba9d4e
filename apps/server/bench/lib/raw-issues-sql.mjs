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

// The v3 answer by hand (`raw_issues_list_v3`): what Kiln answers for a project's issues, with the
// fewest statements SQLite allows. Named parameters: @user (the caller), @project, @limit, @offset.

/**
 * The project, its namespace's path and the caller's standing on it, in one statement: whether
 * they own its user namespace, and their level as a project member and as a member of its group.
 */
export const V3_PROJECT_SQL = `SELECT p.path, p.visibility_level, p.issues_enabled, p.archived,
    p.open_issues_count, n.path AS namespace_path, (n.kind = 'user' AND n.owner_id = @user) AS owns,
    (SELECT access_level FROM project_members WHERE project_id = p.id AND user_id = @user) AS project_level,
    (SELECT access_level FROM group_members WHERE group_id = p.namespace_id AND user_id = @user) AS group_level
  FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE p.id = @project`;

/**
 * A page of open issues with everything the v3 Issue shows: author, assignee and milestone joined,
 * label titles (by title, ignoring case), user notes and the caller's subscription as subqueries.
 * `confidential`: the condition that leaves out confidential issues the caller may not read.
 */
export function v3PageSql(confidential) {
  const hidden = confidential
    ? "AND (i.confidential = 0 OR i.author_id = @user OR i.assignee_id = @user)"
    : "";
  return `SELECT i.id, i.iid, i.project_id, i.title, i.description, i.state, i.reopened, i.created_at,
    i.updated_at, i.due_date, i.confidential, i.author_id, i.assignee_id,
    a.name AS author_name, a.username AS author_username, a.state AS author_state,
    s.name AS assignee_name, s.username AS assignee_username, s.state AS assignee_state,
    m.id AS m_id, m.iid AS m_iid, m.project_id AS m_project_id, m.title AS m_title,
    m.description AS m_description, m.state AS m_state, m.created_at AS m_created_at,
    m.updated_at AS m_updated_at, m.due_date AS m_due_date, m.start_date AS m_start_date,
    (SELECT json_group_array(title) FROM (SELECT l.title FROM label_links ll
      JOIN labels l ON l.id = ll.label_id WHERE ll.target_type = 'Issue' AND ll.target_id = i.id
      ORDER BY lower(l.title), l.title)) AS labels,
    (SELECT count(*) FROM notes WHERE noteable_type = 'Issue' AND noteable_id = i.id AND system = 0)
      AS user_notes_count,
    (SELECT subscribed FROM subscriptions WHERE subscribable_type = 'Issue' AND subscribable_id = i.id
      AND user_id = @user) AS subscription
  FROM issues i
  LEFT JOIN users a ON a.id = i.author_id
  LEFT JOIN users s ON s.id = i.assignee_id
  LEFT JOIN milestones m ON m.id = i.milestone_id
  WHERE i.project_id = @project AND i.state = 'opened' ${hidden}
  ORDER BY i.created_at DESC, i.id DESC LIMIT @limit OFFSET @offset`;
}
