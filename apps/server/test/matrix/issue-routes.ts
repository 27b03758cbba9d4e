import type { CollaborationRoute, Kit, Site } from "./collaboration-fixtures.js";
import { COLLABORATION_RULES as C, readsConfidential } from "./collaboration-rules.js";
import { projectStatus, type Role, type Rule, signedIn, type Visibility } from "./rules.js";

/** The status of a rule, as an `expect` of a route. */
export const by =
  (rule: Rule, success: number) =>
  (role: Role, visibility: Visibility): number =>
    projectStatus(rule, role, visibility, success);

/**
 * What a list of the fixture issues answers to a role, when `rule` says who may ask for it:
 * `200 [confidential,issue]` to those who may read the confidential one, `200 [issue]` to other
 * readers, else the rule's error.
 */
export const expectedIssuesBy =
  (rule: Rule) =>
  (role: Role, visibility: Visibility): number | string => {
    const code = by(rule, 200)(role, visibility);
    if (code !== 200) return code;
    return readsConfidential(role, visibility) ? "200 [confidential,issue]" : "200 [issue]";
  };

/** {@link expectedIssuesBy} the rule of reading issues. */
export const expectedIssues = expectedIssuesBy(C.read);

/** The outcome of a list of fixture issues, as {@link expectedIssues} puts it (other ids by number). */
export function listedIssues(site: Site, res: { status: number; body: unknown }): number | string {
  if (res.status !== 200) return res.status;
  const names = (res.body as { id: number }[]).map((issue) =>
    issue.id === site.issue.id ? "issue" : issue.id === site.confidential.id ? "confidential" : issue.id,
  );
  return `200 [${names.map(String).sort().join()}]`;
}

const ISSUE = (site: Site, id = site.issue.id) => `/projects/${site.project.id}/issues/${id}`;

/** Sets the caller's subscription (or todo) state before a cell: whatever it answers, even an error. */
const setUp = async (kit: Kit, role: Role, method: "POST" | "DELETE", path: string) => {
  await kit.as(role, { method, path });
};

/** The issue rows: lists, one issue, a confidential one, create, edit, delete, move, subscriptions, todos. */
export function issueRoutes(kit: Kit): CollaborationRoute[] {
  const status = async (role: Role, request: Parameters<Kit["as"]>[1]) =>
    (await kit.as(role, request)).status;
  return [
    {
      // Confidential issues are listed only to those who may read them.
      route: "GET /projects/:id/issues",
      expect: (role, visibility) => {
        const code = by(C.read, 200)(role, visibility);
        if (code !== 200) return code;
        return `200 confidential ${readsConfidential(role, visibility) ? "listed" : "absent"}`;
      },
      run: async (site, role) => {
        const res = await kit.as<{ id: number }[]>(role, {
          path: `/projects/${site.project.id}/issues`,
          query: { per_page: 100 },
        });
        if (res.status !== 200) return res.status;
        const listed = res.body.some((issue) => issue.id === site.confidential.id);
        return `200 confidential ${listed ? "listed" : "absent"}`;
      },
    },
    {
      route: "GET /projects/:id/issues/:issue_id",
      expect: by(C.read, 200),
      run: (site, role) => status(role, { path: ISSUE(site) }),
    },
    {
      // Hidden (404) from guests and non-members but its author (root) and assignee.
      route: "GET /projects/:id/issues/:issue_id (confidential)",
      expect: (role, visibility) => (!signedIn(role) ? 401 : readsConfidential(role, visibility) ? 200 : 404),
      run: (site, role) => status(role, { path: ISSUE(site, site.confidential.id) }),
    },
    {
      // Its author may read their confidential issue whatever their level: the cell opens one, then reads it.
      route: "GET /projects/:id/issues/:issue_id (own confidential issue)",
      expect: by(C.participate, 200),
      run: async (site, role) => {
        const made = await kit.as<{ id: number }>(role, {
          method: "POST",
          path: `/projects/${site.project.id}/issues`,
          json: { title: `Secret of ${role}`, confidential: true },
        });
        if (made.status !== 200) return made.status;
        return status(role, { path: ISSUE(site, made.body.id) });
      },
    },
    {
      // The spec answers a new issue with 200.
      route: "POST /projects/:id/issues",
      expect: by(C.participate, 200),
      run: (site, role) =>
        status(role, {
          method: "POST",
          path: `/projects/${site.project.id}/issues`,
          json: { title: `By ${role}` },
        }),
    },
    {
      // Root's issue: reporters and above (update_issue); guests may edit only their own.
      route: "PUT /projects/:id/issues/:issue_id",
      expect: by(C.adminIssues, 200),
      run: (site, role) =>
        status(role, { method: "PUT", path: ISSUE(site), json: { title: `Edited by ${role}` } }),
    },
    {
      // Everyone who may open an issue may edit their own: the cell opens one, then edits it.
      route: "PUT /projects/:id/issues/:issue_id (own issue)",
      expect: by(C.participate, 200),
      run: async (site, role) => {
        const made = await kit.as<{ id: number }>(role, {
          method: "POST",
          path: `/projects/${site.project.id}/issues`,
          json: { title: `Own issue of ${role}` },
        });
        if (made.status !== 200) return made.status;
        return status(role, { method: "PUT", path: ISSUE(site, made.body.id), json: { title: "Edited" } });
      },
    },
    {
      route: "PUT /projects/:id/issues/:issue_id (confidential)",
      // The assignee may edit it (as its participant); others who may not read it get 404.
      expect: (role, visibility) => {
        if (!signedIn(role)) return 401;
        if (!readsConfidential(role, visibility)) return 404;
        return 200;
      },
      run: (site, role) =>
        status(role, {
          method: "PUT",
          path: ISSUE(site, site.confidential.id),
          json: { description: `Edited by ${role}` },
        }),
    },
    {
      route: "DELETE /projects/:id/issues/:issue_id",
      expect: by(C.destroy, 200),
      run: async (site, role) => {
        const issue = await kit.records.issue(site.project);
        return status(role, { method: "DELETE", path: ISSUE(site, issue.id) });
      },
    },
    {
      // admin_issue on both projects; readable but not allowed is GitLab's 400 "insufficient permissions".
      route: "POST /projects/:id/issues/:issue_id/move",
      expect: (role, visibility) => {
        const code = by(C.adminIssues, 201)(role, visibility);
        return code === 403 ? 400 : code;
      },
      run: async (site, role) => {
        const issue = await kit.records.issue(site.project);
        return status(role, {
          method: "POST",
          path: `${ISSUE(site, issue.id)}/move`,
          json: { to_project_id: site.sibling.id },
        });
      },
    },
    {
      route: "POST /projects/:id/issues/:issue_id/subscription",
      expect: by(C.read, 201),
      run: async (site, role) => {
        await setUp(kit, role, "DELETE", `${ISSUE(site)}/subscription`);
        return status(role, { method: "POST", path: `${ISSUE(site)}/subscription` });
      },
    },
    {
      route: "DELETE /projects/:id/issues/:issue_id/subscription",
      expect: by(C.read, 200),
      run: async (site, role) => {
        await setUp(kit, role, "POST", `${ISSUE(site)}/subscription`);
        return status(role, { method: "DELETE", path: `${ISSUE(site)}/subscription` });
      },
    },
    {
      route: "POST /projects/:id/issues/:issue_id/subscription (confidential)",
      expect: (role, visibility) => (!signedIn(role) ? 401 : readsConfidential(role, visibility) ? 201 : 404),
      run: async (site, role) => {
        const path = `${ISSUE(site, site.confidential.id)}/subscription`;
        await setUp(kit, role, "DELETE", path);
        return status(role, { method: "POST", path });
      },
    },
    {
      // The first todo of each caller on the issue (the spec answers it with 200).
      route: "POST /projects/:id/issues/:issue_id/todo",
      expect: by(C.read, 200),
      run: (site, role) => status(role, { method: "POST", path: `${ISSUE(site)}/todo` }),
    },
  ];
}
