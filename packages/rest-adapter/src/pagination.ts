import { nextPageOf, type Page } from "@kiln/domain";

/** Parameters never echoed into `Link` URLs: they are secrets. */
const SECRET_PARAMS = new Set(["private_token", "access_token"]);

/**
 * The v3 pagination headers of a page: `X-Total`, `X-Total-Pages`, `X-Per-Page`, `X-Page`,
 * `X-Next-Page`, `X-Prev-Page` and `Link`. Link URLs are absolute (from the public base URL) and keep
 * the request's query parameters, sorted as Rails' `to_query` sorts them, except tokens. When the
 * total is unknown (too many matches to count), the totals and `rel="last"` are left out.
 */
export function paginationHeaders(
  page: Page<unknown>,
  baseUrl: string,
  pathname: string,
  query: [string, string][],
): Record<string, string> {
  const { perPage, total } = page;
  const current = page.page;
  const totalPages = total === null ? null : Math.ceil(total / perPage);
  const hasNext = nextPageOf(page) !== null;
  const kept = query.filter(([name]) => name !== "page" && name !== "per_page" && !SECRET_PARAMS.has(name));
  const link = (target: number, rel: string) => {
    const pairs: [string, string][] = [...kept, ["page", String(target)], ["per_page", String(perPage)]];
    pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)); // stable: repeated keys keep their order
    const search = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
    return `<${baseUrl}${pathname}?${search}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (current > 1) links.push(link(current - 1, "prev"));
  if (hasNext) links.push(link(current + 1, "next"));
  links.push(link(1, "first"));
  if (totalPages !== null) links.push(link(totalPages, "last"));

  const headers: Record<string, string> = {
    "X-Per-Page": String(perPage),
    "X-Page": String(current),
    "X-Next-Page": hasNext ? String(current + 1) : "",
    "X-Prev-Page": current > 1 ? String(current - 1) : "",
    Link: links.join(", "),
  };
  if (total !== null && totalPages !== null) {
    headers["X-Total"] = String(total);
    headers["X-Total-Pages"] = String(totalPages);
  }
  return headers;
}
