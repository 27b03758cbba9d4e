import type { ArchivedSite, CollaborationRoute, Kit } from "./collaboration-fixtures.js";
import { archivedMergeStatus, archivedWriteStatus, COLLABORATION_RULES as C } from "./collaboration-rules.js";
import { by } from "./issue-routes.js";
import type { Role } from "./rules.js";

const PROJECT = (site: ArchivedSite) => `/projects/${site.project.id}`;
const MR = (site: ArchivedSite) => `${PROJECT(site)}/merge_requests/${site.mergeRequest.id}`;

/**
 * The rows of archived projects: reads stay, creating and editing issues, notes and merge
 * requests and merging are gone for all but administrators; labels stay writable by reporters
 * (archiving does not take `admin_label` away).
 */
export function archivedRoutes(kit: Kit): CollaborationRoute<ArchivedSite>[] {
  const status = async (role: Role, request: Parameters<Kit["as"]>[1]) =>
    (await kit.as(role, request)).status;
  const archived = (route: string) => `${route} (archived project)`;
  return [
    {
      route: archived("GET /projects/:id/issues/:issue_id"),
      expect: by(C.read, 200),
      run: (site, role) => status(role, { path: `${PROJECT(site)}/issues/${site.issue.id}` }),
    },
    {
      route: archived("POST /projects/:id/issues"),
      expect: (role, visibility) => archivedWriteStatus(role, visibility, 200),
      run: (site, role) =>
        status(role, { method: "POST", path: `${PROJECT(site)}/issues`, json: { title: `By ${role}` } }),
    },
    {
      route: archived("PUT /projects/:id/issues/:issue_id"),
      expect: (role, visibility) => archivedWriteStatus(role, visibility, 200),
      run: (site, role) =>
        status(role, {
          method: "PUT",
          path: `${PROJECT(site)}/issues/${site.issue.id}`,
          json: { title: `Edited by ${role}` },
        }),
    },
    {
      route: archived("POST /projects/:id/issues/:issue_id/notes"),
      expect: (role, visibility) => archivedWriteStatus(role, visibility, 201),
      run: (site, role) =>
        status(role, {
          method: "POST",
          path: `${PROJECT(site)}/issues/${site.issue.id}/notes`,
          json: { body: `By ${role}` },
        }),
    },
    {
      route: archived("POST /projects/:id/merge_requests"),
      expect: (role, visibility) => archivedWriteStatus(role, visibility, 200),
      // Only the administrator's cell opens one (`topic` is the source of no other).
      run: (site, role) =>
        status(role, {
          method: "POST",
          path: `${PROJECT(site)}/merge_requests`,
          json: { source_branch: "topic", target_branch: "dev", title: `By ${role}` },
        }),
    },
    {
      route: archived("PUT /projects/:id/merge_requests/:merge_request_id"),
      expect: (role, visibility) => archivedWriteStatus(role, visibility, 200),
      run: (site, role) =>
        status(role, { method: "PUT", path: MR(site), json: { title: `Edited by ${role}` } }),
    },
    {
      route: archived("PUT /projects/:id/merge_requests/:merge_request_id/merge (sha mismatch)"),
      expect: (role, visibility) => archivedMergeStatus(role, visibility, 409),
      run: (site, role) =>
        status(role, { method: "PUT", path: `${MR(site)}/merge`, json: { sha: "0".repeat(40) } }),
    },
    {
      route: archived("POST /projects/:id/labels"),
      expect: by(C.adminIssues, 201),
      run: (site, role) =>
        status(role, {
          method: "POST",
          path: `${PROJECT(site)}/labels`,
          json: { name: `label-by-${role}`, color: "#00ff00" },
        }),
    },
  ];
}
