// The SQL of the raw baselines (servers/raw-*.mjs), shared with explain.mjs for their plans and costs.

// The columns Kiln's user store selects (never the password hash or token forms).
const USER_COLUMNS = [
  "id",
  "username",
  "email",
  "name",
  "state",
  "is_admin",
  "can_create_group",
  "projects_limit",
  "external",
  "bio",
  "location",
  "organization",
  "skype",
  "linkedin",
  "twitter",
  "website_url",
  "theme_id",
  "color_scheme_id",
  "created_at",
  "updated_at",
  "confirmed_at",
  "last_sign_in_at",
  "current_sign_in_at",
].join(", ");

// The columns Kiln's project store selects (never the runners token).
const PROJECT_COLUMNS = [
  "id",
  "namespace_id",
  "name",
  "path",
  "description",
  "default_branch",
  "visibility_level",
  "creator_id",
  "import_url",
  "star_count",
  "open_issues_count",
  "created_at",
  "updated_at",
  "last_activity_at",
  "archived",
  "issues_enabled",
  "merge_requests_enabled",
  "builds_enabled",
  "wiki_enabled",
  "snippets_enabled",
  "container_registry_enabled",
  "shared_runners_enabled",
  "lfs_enabled",
  "request_access_enabled",
  "public_builds",
  "only_allow_merge_if_build_succeeds",
].join(", ");

/** GitLab's (and Kiln's) count cap: no X-Total above it. */
export const COUNT_LIMIT = 10_000;

/** Parameters: limit, offset. */
export const USERS_PAGE_SQL = `SELECT ${USER_COLUMNS} FROM users ORDER BY id LIMIT ? OFFSET ?`;
export const USERS_COUNT_SQL = "SELECT COUNT(*) FROM users";
/** Parameters: limit, offset. Newest first, as Kiln's default order (created_at desc, then id). */
export const PROJECTS_PAGE_SQL = `SELECT ${PROJECT_COLUMNS} FROM projects ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`;
/** Capped as Kiln's `/projects/all` count is: it stops after COUNT_LIMIT + 1 rows. */
export const PROJECTS_COUNT_SQL = `SELECT COUNT(*) FROM (SELECT 1 FROM projects LIMIT ${COUNT_LIMIT + 1})`;

/**
 * The v3 pagination headers of a raw page: `X-Total` and `X-Total-Pages` only when the total is
 * known (null above the cap), `X-Next-Page` when a full page may have a successor, and `Link` (prev,
 * next, first, last as known) when `pageUrl` gives the URL of a page number.
 */
export function rawPageHeaders(rows, perPage, page, total, pageUrl) {
  const totalPages = total === null ? null : Math.ceil(total / perPage);
  const hasNext = rows.length === perPage && (totalPages === null || page < totalPages);
  const headers = {
    "X-Per-Page": String(perPage),
    "X-Page": String(page),
    "X-Next-Page": hasNext ? String(page + 1) : "",
    "X-Prev-Page": page > 1 ? String(page - 1) : "",
  };
  if (total !== null) {
    headers["X-Total"] = String(total);
    headers["X-Total-Pages"] = String(totalPages);
  }
  if (pageUrl) {
    const links = [];
    if (page > 1) links.push(`<${pageUrl(page - 1)}>; rel="prev"`);
    if (hasNext) links.push(`<${pageUrl(page + 1)}>; rel="next"`);
    links.push(`<${pageUrl(1)}>; rel="first"`);
    if (totalPages !== null) links.push(`<${pageUrl(totalPages)}>; rel="last"`);
    headers.Link = links.join(", ");
  }
  return headers;
}
