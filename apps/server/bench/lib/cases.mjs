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
