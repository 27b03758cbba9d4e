// The requests measured against Kiln, shared by run.mjs (load) and explain.mjs (SQL plans and costs).

export const USERS_LIST = "/api/v3/users?per_page=20";
/** The deep page of the 100k projects list: OFFSET 39,980 for 100,000 projects. */
export const DEEP_PAGE = 2000;

/** Kiln requests by case id: the path and who asks (root, or the member of 20 projects). */
export const KILN_REQUESTS = {
  user: { path: "/api/v3/user", as: "root" },
  users: { path: USERS_LIST, as: "root" },
  users2: { path: `${USERS_LIST}&page=2`, as: "root" },
  projects_root: { path: "/api/v3/projects", as: "root" },
  projects_member: { path: "/api/v3/projects", as: "member" },
  projects_all: { path: "/api/v3/projects/all?per_page=20", as: "root" },
  projects_all2000: { path: `/api/v3/projects/all?per_page=20&page=${DEEP_PAGE}`, as: "root" },
};

/** Case ids that need the projects fixture. */
export const PROJECT_CASES = [
  "raw_projects",
  "raw_projects2000",
  "projects_root",
  "projects_member",
  "projects_all",
  "projects_all2000",
];

/**
 * A server a case measures: a Kiln or baseline process and where it listens.
 * @typedef {{ url: string; handle: { pid: number | undefined } }} BenchServer
 */

/**
 * A case as run.mjs and issue-cases.mjs declare it, then as run.mjs fills it in (`url` to `answer`)
 * and measures it. `server` is null when its server was not started: such cases are left out.
 * @typedef {object} BenchCase
 * @property {string} id
 * @property {string} label
 * @property {BenchServer | null} server
 * @property {string} path
 * @property {Record<string, string> | null | undefined} [headers]
 * @property {string | undefined} [method] POST cases send wrk's Lua `script`
 * @property {string | undefined} [script]
 * @property {number | undefined} [expectItems] items of the first page the probe must see
 * @property {string | null | undefined} [expectTotal] the X-Total the probe must see (null: none)
 * @property {string | undefined} [sameAs] the id of a case that must answer the same JSON
 * @property {unknown} [probe]
 * @property {string} [answer]
 * @property {number | null} [peakRssMiB]
 */

/**
 * A case kept for the run: its server runs, and run.mjs sets `url`, `headers` and `reps` first thing.
 * @typedef {BenchCase & { server: BenchServer; url: string; headers: Record<string, string>; reps: unknown[] }} RunCase
 */

/**
 * Keeps the cases that were asked for and whose server runs.
 * @param {(id: string) => boolean} wanted
 */
export const runnable =
  (wanted) =>
  /** @param {BenchCase} kase @returns {kase is RunCase} */
  (kase) =>
    kase.server !== null && wanted(kase.id);
