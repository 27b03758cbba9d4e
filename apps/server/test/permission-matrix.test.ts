/**
 * The permission matrix of the projects, members, hooks, uploads, groups, namespaces and
 * application settings routes: every route, for every role of `matrix/rules.ts` and every
 * visibility (private, internal, public) of personal projects, group projects and groups, over
 * real HTTP. Each route is one test that runs all its cells and lists every cell that answered
 * otherwise than the rules say, as `route | where | who: expected X, got Y`.
 *
 * The expectations come from the rules table in `matrix/rules.ts`, never from the server's own
 * permission code. Cells that change what they act on get a fresh project or group each, or
 * restore what they need before they run (one after another for the same fixture).
 */
import type { ProjectJson } from "@kiln/schemas";
import type { ApiRequest } from "@kiln/testkit";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  Builder,
  type Cast,
  createCast,
  Fresh,
  freshName,
  type MatrixGroup,
  SOURCES,
  type Source,
} from "./matrix/cast.js";
import { type Cell, mismatches, tally } from "./matrix/cells.js";
import {
  GROUP_RULES,
  groupStatus,
  isExternal,
  isMember,
  listStatus,
  listsGroup,
  OWNER,
  PROJECT_LISTS,
  PROJECT_RULES,
  projectStatus,
  REPORTER,
  ROLES,
  type Role,
  type Rule,
  readsProject,
  signedIn,
  VISIBILITIES,
  VISIBILITY_NAMES,
  type Visibility,
} from "./matrix/rules.js";
import { onEachDatabase } from "./support.js";

type Request = Omit<ApiRequest, "token">;

/** A route applied to a project: the fixture of each source and visibility, or a fresh one per cell. */
interface ProjectRoute {
  route: string;
  rule: Rule;
  success: number;
  /** Act on a fresh project per cell (the route changes or removes it). */
  fresh?: boolean;
  /** Run the cells of one fixture one after another (each cell's setup restores the fixture's state). */
  serial?: boolean;
  /** Exceptions to the rule's status, each explained where it is given. */
  adjust?: (expected: number, source: Source, role: Role) => number;
  setup?: (project: ProjectJson, role: Role) => Promise<unknown>;
  request?: (project: ProjectJson, role: Role) => Request;
  /** Sends the request itself and answers the status (instead of `request`). */
  send?: (project: ProjectJson, role: Role) => Promise<number>;
}

/** A route applied to a group: the fixture group of each visibility, or a fresh one per cell. */
interface GroupRoute {
  route: string;
  rule: Rule;
  success: number;
  fresh?: boolean;
  serial?: boolean;
  /** The expected status when the rule alone does not say it. */
  expect?: (role: Role, visibility: Visibility) => number;
  setup?: (group: MatrixGroup, role: Role) => Promise<unknown>;
  request: (group: MatrixGroup, role: Role) => Request;
  /** Also check which of the group's fixture projects the answer lists (`projects`, or the body itself). */
  lists?: "projects" | "body";
}

onEachDatabase("permission matrix", (ctx) => {
  let cast: Cast;
  let build: Builder;
  let fresh: Fresh;
  let counted = 0;

  beforeAll(async () => {
    counted = tally.cells;
    build = new Builder(ctx());
    cast = await createCast(ctx());
    fresh = new Fresh(ctx(), cast);
  }, 120_000);

  afterAll(() => {
    console.info(`permission matrix: ${tally.cells - counted} cells checked`);
  });

  const auth = (role: Role): { token?: string } =>
    role === "anonymous" ? {} : { token: cast.users[role].token };
  const userOf = (role: Role) => (role === "anonymous" ? cast.victim : cast.users[role]);
  const statusOf = async (role: Role, request: Request) =>
    (await ctx().api({ ...request, ...auth(role) })).status;

  /** Every page of a list, as the set of ids it holds. */
  async function listAll(role: Role, path: string, query: Record<string, string> = {}) {
    const ids = new Set<number>();
    for (let page = 1; page <= 50; page++) {
      const res = await ctx().api<{ id: number }[]>({
        path,
        query: { ...query, per_page: 100, page },
        ...auth(role),
      });
      if (res.status !== 200) return { status: res.status, ids };
      for (const item of res.body) ids.add(item.id);
      if (res.body.length < 100) break;
    }
    return { status: 200, ids };
  }

  const listed = (yes: boolean) => (yes ? "listed" : "absent");

  async function check(cells: Cell[]) {
    const found = await mismatches(cells);
    expect(found, `${found.length} of ${cells.length} cells differ`).toEqual([]);
  }

  // ----------------------------------------------------------------------------------- projects

  function projectCells(spec: ProjectRoute): Cell[] {
    const cells: Cell[] = [];
    for (const source of SOURCES) {
      for (const visibility of VISIBILITIES) {
        for (const role of ROLES) {
          let expected = projectStatus(spec.rule, role, visibility, spec.success);
          if (spec.adjust) expected = spec.adjust(expected, source, role);
          cells.push({
            route: spec.route,
            at: `${source} ${VISIBILITY_NAMES[visibility]}`,
            who: role,
            expected: String(expected),
            ...(spec.serial ? { serial: `${source} ${visibility}` } : {}),
            run: async () => {
              const project = spec.fresh
                ? await fresh.project(source, visibility)
                : cast.projects[source][visibility];
              await spec.setup?.(project, role);
              if (spec.send) return String(await spec.send(project, role));
              if (!spec.request) throw new Error(`${spec.route} has neither request nor send`);
              return String(await statusOf(role, spec.request(project, role)));
            },
          });
        }
      }
    }
    return cells;
  }

  async function upload(project: ProjectJson, role: Role): Promise<number> {
    const form = new FormData();
    form.append("file", new Blob(["matrix"]), "matrix.txt");
    const { token } = auth(role);
    const res = await fetch(`${ctx().server.url}/api/v3/projects/${project.id}/uploads`, {
      method: "POST",
      body: form,
      headers: token === undefined ? {} : { "PRIVATE-TOKEN": token },
    });
    await res.arrayBuffer();
    return res.status;
  }

  const root = (statuses: number[], request: Request) => build.asRoot(statuses, request);
  const R = PROJECT_RULES;

  const projectRoutes: ProjectRoute[] = [
    {
      route: "GET /projects/:id",
      rule: R.read,
      success: 200,
      request: (p) => ({ path: `/projects/${p.id}` }),
    },
    {
      route: "GET /projects/:id (NAMESPACE%2FPROJECT)",
      rule: R.read,
      success: 200,
      request: (p) => ({ path: `/projects/${encodeURIComponent(p.path_with_namespace)}` }),
    },
    {
      route: "GET /projects/:id/events",
      rule: R.read,
      success: 200,
      request: (p) => ({ path: `/projects/${p.id}/events` }),
    },
    {
      route: "PUT /projects/:id (description)",
      rule: R.editSettings,
      success: 200,
      request: (p, role) => ({
        method: "PUT",
        path: `/projects/${p.id}`,
        json: { description: `by ${role}` },
      }),
    },
    {
      route: "PUT /projects/:id (name)",
      rule: R.rename,
      success: 200,
      fresh: true,
      request: (p) => ({ method: "PUT", path: `/projects/${p.id}`, json: { name: `${p.name}-renamed` } }),
    },
    {
      route: "PUT /projects/:id (path)",
      rule: R.rename,
      success: 200,
      fresh: true,
      request: (p) => ({ method: "PUT", path: `/projects/${p.id}`, json: { path: `${p.path}-moved` } }),
    },
    {
      route: "PUT /projects/:id (visibility_level)",
      rule: R.changeVisibility,
      success: 200,
      fresh: true,
      request: (p) => ({
        method: "PUT",
        path: `/projects/${p.id}`,
        json: { visibility_level: p.visibility_level === 20 ? 10 : 20 },
      }),
    },
    {
      route: "DELETE /projects/:id",
      rule: R.remove,
      success: 200,
      fresh: true,
      request: (p) => ({ method: "DELETE", path: `/projects/${p.id}` }),
    },
    {
      route: "POST /projects/:id/archive",
      rule: R.archive,
      success: 201,
      fresh: true,
      request: (p) => ({ method: "POST", path: `/projects/${p.id}/archive` }),
    },
    {
      route: "POST /projects/:id/unarchive",
      rule: R.archive,
      success: 201,
      fresh: true,
      setup: (p) => root([201], { method: "POST", path: `/projects/${p.id}/archive` }),
      request: (p) => ({ method: "POST", path: `/projects/${p.id}/unarchive` }),
    },
    {
      route: "POST /projects/:id/star",
      rule: R.read,
      success: 201,
      // Not starred by this caller before (304 otherwise).
      setup: (p, role) => statusOf(role, { method: "DELETE", path: `/projects/${p.id}/star` }),
      request: (p) => ({ method: "POST", path: `/projects/${p.id}/star` }),
    },
    {
      route: "DELETE /projects/:id/star",
      rule: R.read,
      success: 200,
      // Starred by this caller before (304 otherwise).
      setup: (p, role) => statusOf(role, { method: "POST", path: `/projects/${p.id}/star` }),
      request: (p) => ({ method: "DELETE", path: `/projects/${p.id}/star` }),
    },
    {
      route: "POST /projects/fork/:id",
      rule: R.fork,
      success: 201,
      // The owner may fork their personal (or personal and shared) project, but the fork would
      // land in the same namespace under the same name: 409, as GitLab answers a fork it cannot save.
      // External users have no room for a fork in their namespace (projects_limit 0): 403.
      adjust: (expected, source, role) => {
        if (expected !== 201) return expected;
        if (isExternal(role)) return 403;
        return source !== "group" && role === "owner" ? 409 : expected;
      },
      request: (p) => ({ method: "POST", path: `/projects/fork/${p.id}` }),
    },
    {
      route: "POST /projects/:id/fork/:forked_from_id",
      rule: R.forkRelation,
      success: 201,
      serial: true,
      setup: (p) => root([200, 304], { method: "DELETE", path: `/projects/${p.id}/fork` }),
      request: (p) => ({ method: "POST", path: `/projects/${p.id}/fork/${cast.forkSource.id}` }),
    },
    {
      route: "DELETE /projects/:id/fork",
      rule: R.forkRelation,
      success: 200,
      serial: true,
      setup: (p) =>
        root([201, 409], { method: "POST", path: `/projects/${p.id}/fork/${cast.forkSource.id}` }),
      request: (p) => ({ method: "DELETE", path: `/projects/${p.id}/fork` }),
    },
    {
      route: "POST /projects/:id/share",
      rule: R.share,
      success: 201,
      serial: true,
      setup: (p) =>
        root([204, 404], { method: "DELETE", path: `/projects/${p.id}/share/${cast.shareGroup.id}` }),
      request: (p) => ({
        method: "POST",
        path: `/projects/${p.id}/share`,
        json: { group_id: cast.shareGroup.id, group_access: REPORTER },
      }),
    },
    {
      // Owners are namespace owners, never members: a share, like a membership, gives at most
      // master (GitLab: `group_access` takes Gitlab::Access.values, guest to master).
      route: "POST /projects/:id/share (group_access: owner)",
      rule: R.share,
      success: 400,
      serial: true,
      setup: (p) =>
        root([204, 404], { method: "DELETE", path: `/projects/${p.id}/share/${cast.shareGroup.id}` }),
      request: (p) => ({
        method: "POST",
        path: `/projects/${p.id}/share`,
        json: { group_id: cast.shareGroup.id, group_access: OWNER },
      }),
    },
    {
      // A group the caller may not read is `404 Group Not Found` to those who may share the
      // project; only administrators may read this one.
      route: "POST /projects/:id/share (a group the caller may not read)",
      rule: R.share,
      success: 201,
      serial: true,
      adjust: (expected, _source, role) => (expected === 201 && role !== "admin" ? 404 : expected),
      setup: (p) =>
        root([204, 404], { method: "DELETE", path: `/projects/${p.id}/share/${cast.secretGroup.id}` }),
      request: (p) => ({
        method: "POST",
        path: `/projects/${p.id}/share`,
        json: { group_id: cast.secretGroup.id, group_access: REPORTER },
      }),
    },
    {
      route: "DELETE /projects/:id/share/:group_id",
      rule: R.share,
      success: 204,
      serial: true,
      setup: (p) =>
        root([201, 409], {
          method: "POST",
          path: `/projects/${p.id}/share`,
          json: { group_id: cast.shareGroup.id, group_access: REPORTER },
        }),
      request: (p) => ({ method: "DELETE", path: `/projects/${p.id}/share/${cast.shareGroup.id}` }),
    },
    {
      route: "GET /projects/:id/members",
      rule: R.read,
      success: 200,
      request: (p) => ({ path: `/projects/${p.id}/members` }),
    },
    {
      route: "GET /projects/:id/members/:user_id",
      rule: R.read,
      success: 200,
      setup: (p) => build.addProjectMember(p.id, cast.victim, 10),
      request: (p) => ({ path: `/projects/${p.id}/members/${cast.victim.id}` }),
    },
    {
      // Idempotent: an existing membership is left as it is, and answered again.
      route: "POST /projects/:id/members",
      rule: R.manageMembers,
      success: 201,
      request: (p) => ({
        method: "POST",
        path: `/projects/${p.id}/members`,
        json: { user_id: cast.newbie.id, access_level: REPORTER },
      }),
    },
    {
      route: "PUT /projects/:id/members/:user_id",
      rule: R.manageMembers,
      success: 200,
      setup: (p) => build.addProjectMember(p.id, cast.victim, 10),
      request: (p) => ({
        method: "PUT",
        path: `/projects/${p.id}/members/${cast.victim.id}`,
        json: { access_level: REPORTER },
      }),
    },
    {
      route: "DELETE /projects/:id/members/:user_id",
      rule: R.manageMembers,
      success: 200,
      serial: true,
      setup: (p) => build.addProjectMember(p.id, cast.victim, 10),
      request: (p) => ({ method: "DELETE", path: `/projects/${p.id}/members/${cast.victim.id}` }),
    },
    {
      // Anyone may leave a project they can read; leaving one you are not a member of is a
      // success with nothing to do (spec: removing a non-member counts as success).
      route: "DELETE /projects/:id/members/:own_user_id (leave)",
      rule: R.read,
      success: 200,
      fresh: true,
      request: (p, role) => ({ method: "DELETE", path: `/projects/${p.id}/members/${userOf(role).id}` }),
    },
    {
      route: "GET /projects/:id/hooks",
      rule: R.manageHooks,
      success: 200,
      request: (p) => ({ path: `/projects/${p.id}/hooks` }),
    },
    {
      route: "GET /projects/:id/hooks/:hook_id",
      rule: R.manageHooks,
      success: 200,
      request: (p) => ({ path: `/projects/${p.id}/hooks/${cast.hooks.get(p.id)}` }),
    },
    {
      route: "POST /projects/:id/hooks",
      rule: R.manageHooks,
      success: 201,
      request: (p) => ({
        method: "POST",
        path: `/projects/${p.id}/hooks`,
        json: { url: "http://hooks.example.com/added" },
      }),
    },
    {
      route: "PUT /projects/:id/hooks/:hook_id",
      rule: R.manageHooks,
      success: 200,
      request: (p, role) => ({
        method: "PUT",
        path: `/projects/${p.id}/hooks/${cast.hooks.get(p.id)}`,
        json: { url: `http://hooks.example.com/${role}` },
      }),
    },
    {
      route: "DELETE /projects/:id/hooks/:hook_id",
      rule: R.manageHooks,
      success: 200,
      // A hook of the cell's own, made by root just before.
      send: async (p, role) => {
        const hookId = await build.hook(p.id);
        return statusOf(role, { method: "DELETE", path: `/projects/${p.id}/hooks/${hookId}` });
      },
    },
    { route: "POST /projects/:id/uploads", rule: R.upload, success: 201, send: upload },
  ];

  // Lists first, before forks and fresh projects add to what they hold.

  /** Cells of a project list: one fetch per role, one cell per fixture project. */
  function projectListCells(
    route: keyof typeof PROJECT_LISTS,
    load: (role: Role) => Promise<{ status: number; ids: Set<number> }>,
    projects: Record<Source, Record<Visibility, ProjectJson>>,
  ): Cell[] {
    const adminOnly = route === "GET /projects/all";
    const cells: Cell[] = [];
    for (const role of ROLES) {
      let fetched: Promise<{ status: number; ids: Set<number> }> | undefined;
      for (const source of SOURCES) {
        for (const visibility of VISIBILITIES) {
          const status = listStatus(adminOnly, role);
          const project = projects[source][visibility];
          cells.push({
            route,
            at: `${source} ${VISIBILITY_NAMES[visibility]}`,
            who: role,
            expected:
              status === 200 ? `200 ${listed(PROJECT_LISTS[route](role, visibility))}` : String(status),
            run: async () => {
              fetched ??= load(role);
              const { status, ids } = await fetched;
              return status === 200 ? `200 ${listed(ids.has(project.id))}` : String(status);
            },
          });
        }
      }
    }
    return cells;
  }

  for (const route of [
    "GET /projects",
    "GET /projects/visible",
    "GET /projects/owned",
    "GET /projects/all",
  ] as const) {
    it(route, async () => {
      const path = route.slice("GET ".length);
      await check(projectListCells(route, (role) => listAll(role, path, { search: "mxfix" }), cast.projects));
    });
  }

  it("GET /projects/search/:query", async () => {
    await check(
      projectListCells(
        "GET /projects/search/:query",
        (role) => listAll(role, "/projects/search/mxfix"),
        cast.projects,
      ),
    );
  });

  it("GET /projects/starred (starred while public, then made private, internal or kept public)", async () => {
    const starred = { personal: {}, group: {}, shared: {} } as Record<
      Source,
      Record<Visibility, ProjectJson>
    >;
    const starrers = ROLES.filter(signedIn);
    for (const source of SOURCES) {
      for (const visibility of VISIBILITIES) {
        const project = await fresh.project(source, 20);
        for (const role of starrers) {
          expect(await statusOf(role, { method: "POST", path: `/projects/${project.id}/star` })).toBe(201);
        }
        if (visibility !== 20) {
          await root([200], {
            method: "PUT",
            path: `/projects/${project.id}`,
            json: { visibility_level: visibility },
          });
        }
        starred[source][visibility] = project;
      }
    }
    await check(
      projectListCells("GET /projects/starred", (role) => listAll(role, "/projects/starred"), starred),
    );
  });

  // A state-changing row makes a fresh project (and repository) per cell: hundreds of requests and
  // git processes, ~5 s alone and several times that under the whole suite's parallel load.
  for (const spec of projectRoutes) {
    it(spec.route, { timeout: 120_000 }, async () => {
      await check(projectCells(spec));
    });
  }

  /** Cells of a route that names no project or group: one per role, plus named extra callers. */
  function callerCells(
    route: string,
    expected: (role: Role) => number,
    request: (role: Role) => Request,
    extra: { who: string; token: string; expected: number }[] = [],
  ): Cell[] {
    return [
      ...ROLES.map((role) => ({
        route,
        at: "-",
        who: role,
        expected: String(expected(role)),
        run: async () => String(await statusOf(role, request(role))),
      })),
      ...extra.map((caller) => ({
        route,
        at: "-",
        who: caller.who,
        expected: String(caller.expected),
        run: async () => String((await ctx().api({ ...request("nonmember"), token: caller.token })).status),
      })),
    ];
  }

  it("POST /projects", async () => {
    // Anyone signed in may create a project in their own namespace, within their projects_limit
    // (always 0 for external users).
    await check(
      callerCells(
        "POST /projects",
        (role) => (!signedIn(role) ? 401 : isExternal(role) ? 403 : 201),
        () => ({ method: "POST", path: "/projects", json: { name: freshName("c") } }),
        [{ who: "user with projects_limit 0", token: cast.newbie.token, expected: 403 }],
      ),
    );
  });

  it("POST /projects (namespace_id: a group)", async () => {
    const cells: Cell[] = [];
    for (const visibility of VISIBILITIES) {
      const group = cast.groups[visibility];
      for (const role of ROLES) {
        // Masters and owners of the group (and administrators) may create projects in it; a
        // namespace the caller may not use is GitLab's 400 {"namespace": ["is not valid"]}.
        const status = groupStatus(GROUP_RULES.createProjects, role, visibility, 201);
        cells.push({
          route: "POST /projects (namespace_id)",
          at: `group ${VISIBILITY_NAMES[visibility]}`,
          who: role,
          expected: String(status === 403 || status === 404 ? 400 : status),
          run: async () =>
            String(
              await statusOf(role, {
                method: "POST",
                path: "/projects",
                json: { name: freshName("c"), namespace_id: group.id, visibility_level: 0 },
              }),
            ),
        });
      }
    }
    await check(cells);
  });

  it("POST /projects/fork/:id (namespace: a group)", async () => {
    const cells: Cell[] = [];
    for (const visibility of VISIBILITIES) {
      const group = cast.groups[visibility];
      for (const role of ROLES) {
        // Forking into a group needs the right to create projects in it (master); any other
        // namespace is GitLab's `404 Target Namespace Not Found`, readable or not.
        const status = groupStatus(GROUP_RULES.createProjects, role, visibility, 201);
        cells.push({
          route: "POST /projects/fork/:id (namespace)",
          at: `group ${VISIBILITY_NAMES[visibility]}`,
          who: role,
          expected: String(status === 403 ? 404 : status),
          run: async () => {
            // A public project of the cell's own (the victim's), which everyone may fork.
            const source = await build.project(cast.victim, freshName("s"), 20);
            return String(
              await statusOf(role, {
                method: "POST",
                path: `/projects/fork/${source.id}`,
                json: { namespace: group.id },
              }),
            );
          },
        });
      }
    }
    await check(cells);
  });

  it("POST /projects/user/:user_id", async () => {
    await check(
      callerCells(
        "POST /projects/user/:user_id",
        (role) => projectStatus(R.adminOnly, role, 0, 201),
        () => ({ method: "POST", path: `/projects/user/${cast.victim.id}`, json: { name: freshName("u") } }),
      ),
    );
  });

  // ------------------------------------------------------------------------------------- groups

  const G = GROUP_RULES;

  /** Which of a fixture group's projects a role should see listed in it. */
  const groupListing = (role: Role, visibility: Visibility) =>
    `fixture:${listed(readsProject(role, visibility))} inner:${listed(role === "projmember" || readsProject(role, 0))}`;

  function groupCells(spec: GroupRoute): Cell[] {
    const cells: Cell[] = [];
    for (const visibility of VISIBILITIES) {
      for (const role of ROLES) {
        const status =
          spec.expect?.(role, visibility) ?? groupStatus(spec.rule, role, visibility, spec.success);
        cells.push({
          route: spec.route,
          at: `group ${VISIBILITY_NAMES[visibility]}`,
          who: role,
          expected: spec.lists && status === 200 ? `200 ${groupListing(role, visibility)}` : String(status),
          ...(spec.serial ? { serial: String(visibility) } : {}),
          run: async () => {
            const group = spec.fresh ? await fresh.group(visibility) : cast.groups[visibility];
            await spec.setup?.(group, role);
            const res = await ctx().api<unknown>({ ...spec.request(group, role), ...auth(role) });
            if (!spec.lists || res.status !== 200) return String(res.status);
            const items = (
              spec.lists === "projects" ? (res.body as { projects: unknown }).projects : res.body
            ) as {
              id: number;
            }[];
            const ids = new Set(items.map((item) => item.id));
            return `200 fixture:${listed(ids.has(cast.projects.group[visibility].id))} inner:${listed(ids.has(cast.inner[visibility].id))}`;
          },
        });
      }
    }
    return cells;
  }

  const groupRoutes: GroupRoute[] = [
    {
      route: "GET /groups/:id",
      rule: G.read,
      success: 200,
      lists: "projects",
      request: (g) => ({ path: `/groups/${g.id}` }),
    },
    {
      route: "GET /groups/:id (path)",
      rule: G.read,
      success: 200,
      request: (g) => ({ path: `/groups/${g.path}` }),
    },
    {
      route: "PUT /groups/:id (description)",
      rule: G.admin,
      success: 200,
      request: (g, role) => ({ method: "PUT", path: `/groups/${g.id}`, json: { description: `by ${role}` } }),
    },
    {
      route: "DELETE /groups/:id",
      rule: G.admin,
      success: 200,
      fresh: true,
      request: (g) => ({ method: "DELETE", path: `/groups/${g.id}` }),
    },
    {
      route: "GET /groups/:id/projects",
      rule: G.read,
      success: 200,
      lists: "body",
      request: (g) => ({ path: `/groups/${g.id}/projects`, query: { search: "mxfix", per_page: 100 } }),
    },
    {
      route: "GET /groups/:id/members",
      rule: G.read,
      success: 200,
      request: (g) => ({ path: `/groups/${g.id}/members` }),
    },
    {
      route: "GET /groups/:id/members/:user_id",
      rule: G.read,
      success: 200,
      request: (g) => ({ path: `/groups/${g.id}/members/${cast.victim.id}` }),
    },
    {
      route: "POST /groups/:id/members",
      rule: G.admin,
      success: 201,
      serial: true,
      // Not a member before (409 otherwise).
      setup: (g) => root([200, 404], { method: "DELETE", path: `/groups/${g.id}/members/${cast.newbie.id}` }),
      request: (g) => ({
        method: "POST",
        path: `/groups/${g.id}/members`,
        json: { user_id: cast.newbie.id, access_level: REPORTER },
      }),
    },
    {
      route: "PUT /groups/:id/members/:user_id",
      rule: G.admin,
      success: 200,
      request: (g) => ({
        method: "PUT",
        path: `/groups/${g.id}/members/${cast.victim.id}`,
        json: { access_level: REPORTER },
      }),
    },
    {
      route: "DELETE /groups/:id/members/:user_id",
      rule: G.admin,
      success: 200,
      serial: true,
      setup: (g) =>
        root([201, 409], {
          method: "POST",
          path: `/groups/${g.id}/members`,
          json: { user_id: cast.victim.id, access_level: 10 },
        }),
      request: (g) => ({ method: "DELETE", path: `/groups/${g.id}/members/${cast.victim.id}` }),
    },
    {
      route: "DELETE /groups/:id/members/:own_user_id (leave)",
      rule: G.read,
      success: 200,
      fresh: true,
      // Any member may leave a group they can read, except its last owner (403); someone who is
      // not a member gets GitLab's 404 for the group member they name.
      expect: (role, visibility) => {
        const status = groupStatus(G.read, role, visibility, 200);
        if (status !== 200) return status;
        if (role === "owner") return 403;
        return isMember(role) ? 200 : 404;
      },
      request: (g, role) => ({ method: "DELETE", path: `/groups/${g.id}/members/${userOf(role).id}` }),
    },
  ];

  it("GET /groups and GET /namespaces", async () => {
    const cells: Cell[] = [];
    for (const path of ["/groups", "/namespaces"]) {
      for (const role of ROLES) {
        let fetched: Promise<{ status: number; ids: Set<number> }> | undefined;
        for (const visibility of VISIBILITIES) {
          const status = listStatus(false, role);
          const group = cast.groups[visibility];
          cells.push({
            route: `GET ${path}`,
            at: `group ${VISIBILITY_NAMES[visibility]}`,
            who: role,
            expected: status === 200 ? `200 ${listed(listsGroup(role, visibility))}` : String(status),
            run: async () => {
              fetched ??= listAll(role, path, { search: "mxg-" });
              const { status, ids } = await fetched;
              return status === 200 ? `200 ${listed(ids.has(group.id))}` : String(status);
            },
          });
        }
      }
    }
    await check(cells);
  });

  for (const spec of groupRoutes) {
    it(spec.route, { timeout: 120_000 }, async () => {
      await check(groupCells(spec));
    });
  }

  it("POST /groups/:id/projects/:project_id (transfer)", async () => {
    const cells: Cell[] = [];
    for (const visibility of VISIBILITIES) {
      for (const role of ROLES) {
        cells.push({
          route: "POST /groups/:id/projects/:project_id",
          at: `group ${VISIBILITY_NAMES[visibility]}`,
          who: role,
          // Administrators only: anyone else is 403 whatever they may see (GitLab checks that first).
          expected: String(projectStatus(R.adminOnly, role, visibility, 201)),
          run: async () => {
            // A fresh personal project of the owner's, private.
            const project = await fresh.project("personal", 0);
            const group = cast.groups[visibility];
            return String(
              await statusOf(role, { method: "POST", path: `/groups/${group.id}/projects/${project.id}` }),
            );
          },
        });
      }
    }
    await check(cells);
  });

  it("POST /groups", async () => {
    // Anyone signed in who may create groups (can_create_group, never for external users) may.
    await check(
      callerCells(
        "POST /groups",
        (role) => (!signedIn(role) ? 401 : isExternal(role) ? 403 : 201),
        () => {
          const path = freshName("c");
          return { method: "POST", path: "/groups", json: { name: path, path } };
        },
        [{ who: "user with can_create_group false", token: cast.newbie.token, expected: 403 }],
      ),
    );
  });

  // --------------------------------------------------------------------------------- settings

  it("GET and PUT /application/settings", async () => {
    await check([
      ...callerCells(
        "GET /application/settings",
        (role) => projectStatus(R.adminOnly, role, 0, 200),
        () => ({ path: "/application/settings" }),
      ),
      ...callerCells(
        "PUT /application/settings",
        (role) => projectStatus(R.adminOnly, role, 0, 200),
        () => ({ method: "PUT", path: "/application/settings", json: { sign_in_text: "matrix" } }),
      ),
    ]);
  });
});
