/** Default and largest page sizes of v3 lists. */
export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;

/** Above this many matches a filtered list stops counting, as GitLab 11.8+ does. */
export const COUNT_LIMIT = 10_000;

/** A resolved page request: 1-based page and a page size within 1..100. */
export interface PageRequest {
  page: number;
  perPage: number;
}

/** Clamps `page` (≥ 1) and `per_page` (1..100, default 20) as GitLab does, instead of refusing them. */
export function pageRequest(params: {
  page?: number | undefined;
  per_page?: number | undefined;
}): PageRequest {
  const page = params.page !== undefined && params.page >= 1 ? params.page : 1;
  const perPage =
    params.per_page === undefined || params.per_page <= 0
      ? PER_PAGE_DEFAULT
      : Math.min(params.per_page, PER_PAGE_MAX);
  return { page, perPage };
}

/**
 * One page of a list. `total` is null when counting would be too costly (a filtered list with more
 * than {@link COUNT_LIMIT} matches); the REST layer then omits `X-Total` and `X-Total-Pages`.
 */
export interface Page<T> {
  items: T[];
  page: number;
  perPage: number;
  total: number | null;
}

/**
 * The number of the page after this one, or null on the last: from the total when it is known,
 * else a full page is taken to have a successor (the next one may then be empty).
 */
export function nextPageOf(page: Page<unknown>): number | null {
  const hasNext =
    page.total === null ? page.items.length === page.perPage : page.page * page.perPage < page.total;
  return hasNext ? page.page + 1 : null;
}

/** The same page with its items transformed. */
export function mapPage<T, U>(page: Page<T>, fn: (item: T) => U): Page<U> {
  return { ...page, items: page.items.map(fn) };
}

/** One page of a list held whole in memory (short lists: a project's triggers or variables). */
export function pageOfAll<T>(all: readonly T[], request: PageRequest): Page<T> {
  const start = (request.page - 1) * request.perPage;
  return { items: all.slice(start, start + request.perPage), ...request, total: all.length };
}
