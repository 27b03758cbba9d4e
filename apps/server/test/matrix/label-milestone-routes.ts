import { freshName } from "./cast.js";
import type { CollaborationRoute, Kit, Site } from "./collaboration-fixtures.js";
import { COLLABORATION_RULES as C, readsConfidential } from "./collaboration-rules.js";
import { by, expectedIssues, listedIssues } from "./issue-routes.js";
import type { Role } from "./rules.js";

const LABELS = (site: Site) => `/projects/${site.project.id}/labels`;
const MILESTONES = (site: Site) => `/projects/${site.project.id}/milestones`;

/**
 * The label rows (read by every reader of the project, written by reporters and above) and the
 * milestone rows (read likewise, written by masters and above).
 */
export function labelMilestoneRoutes(kit: Kit): CollaborationRoute[] {
  const status = async (role: Role, request: Parameters<Kit["as"]>[1]) =>
    (await kit.as(role, request)).status;
  return [
    {
      // The fixture label is on both fixture issues: the confidential one counts for those who may read it.
      route: "GET /projects/:id/labels",
      expect: (role, visibility) => {
        const code = by(C.read, 200)(role, visibility);
        if (code !== 200) return code;
        return `200 open_issues_count ${readsConfidential(role, visibility) ? 2 : 1}`;
      },
      run: async (site, role) => {
        const res = await kit.as<{ name: string; open_issues_count: number }[]>(role, { path: LABELS(site) });
        if (res.status !== 200) return res.status;
        const label = res.body.find((item) => item.name === site.label);
        return `200 open_issues_count ${label?.open_issues_count}`;
      },
    },
    {
      route: "POST /projects/:id/labels",
      expect: by(C.adminIssues, 201),
      run: (site, role) =>
        status(role, {
          method: "POST",
          path: LABELS(site),
          json: { name: freshName("label"), color: "#ff0000" },
        }),
    },
    {
      route: "PUT /projects/:id/labels",
      expect: by(C.adminIssues, 200),
      run: (site, role) =>
        status(role, {
          method: "PUT",
          path: LABELS(site),
          json: { name: site.label, description: `By ${role}` },
        }),
    },
    {
      route: "DELETE /projects/:id/labels",
      expect: by(C.adminIssues, 200),
      run: async (site, role) => {
        const name = await kit.records.label(site.project);
        return status(role, { method: "DELETE", path: LABELS(site), query: { name } });
      },
    },
    {
      route: "GET /projects/:id/milestones",
      expect: by(C.read, 200),
      run: (site, role) => status(role, { path: MILESTONES(site) }),
    },
    {
      route: "GET /projects/:id/milestones/:milestone_id",
      expect: by(C.read, 200),
      run: (site, role) => status(role, { path: `${MILESTONES(site)}/${site.milestone}` }),
    },
    {
      // Both fixture issues are in the milestone; the confidential one only for those who may read it.
      route: "GET /projects/:id/milestones/:milestone_id/issues",
      expect: expectedIssues,
      run: async (site, role) =>
        listedIssues(site, await kit.as(role, { path: `${MILESTONES(site)}/${site.milestone}/issues` })),
    },
    {
      route: "POST /projects/:id/milestones",
      expect: by(C.administer, 201),
      run: (site, role) =>
        status(role, { method: "POST", path: MILESTONES(site), json: { title: freshName("milestone") } }),
    },
    {
      route: "PUT /projects/:id/milestones/:milestone_id",
      expect: by(C.administer, 200),
      run: (site, role) =>
        status(role, {
          method: "PUT",
          path: `${MILESTONES(site)}/${site.milestone}`,
          json: { description: `By ${role}` },
        }),
    },
  ];
}
