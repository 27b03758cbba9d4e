import type { MergeRequestJson } from "@kiln/schemas";
import type { CollaborationRoute, Kit, Site } from "./collaboration-fixtures.js";
import { ASSIGNEE, COLLABORATION_RULES as C, mergeStatus } from "./collaboration-rules.js";
import { by, expectedIssuesBy, listedIssues } from "./issue-routes.js";
import type { Role, Visibility } from "./rules.js";

const MR = (site: Site, mr: MergeRequestJson = site.mergeRequest) =>
  `/projects/${site.project.id}/merge_requests/${mr.id}`;

/** A sha no branch has: accepting with it is 409 once every other check passed, and merges nothing. */
const WRONG_SHA = "0".repeat(40);

/**
 * The merge request rows: lists, reads, create, edit, delete, accept, cancel, closes_issues,
 * subscriptions and todos. Accepting never merges: those who may merge get the `sha` mismatch.
 */
export function mergeRequestRoutes(kit: Kit): CollaborationRoute[] {
  const status = async (role: Role, request: Parameters<Kit["as"]>[1]) =>
    (await kit.as(role, request)).status;
  return [
    {
      route: "GET /projects/:id/merge_requests",
      expect: by(C.readMergeRequests, 200),
      run: (site, role) => status(role, { path: `/projects/${site.project.id}/merge_requests` }),
    },
    {
      route: "GET /projects/:id/merge_requests/:merge_request_id",
      expect: by(C.readMergeRequests, 200),
      run: (site, role) => status(role, { path: MR(site) }),
    },
    {
      route: "GET /projects/:id/merge_request/:merge_request_id (singular)",
      expect: by(C.readMergeRequests, 200),
      run: (site, role) =>
        status(role, { path: `/projects/${site.project.id}/merge_request/${site.mergeRequest.id}` }),
    },
    {
      // Its assignee reads it whatever their level (GitLab's issuable_policy.rb).
      route: "GET /projects/:id/merge_requests/:merge_request_id (assigned to a guest)",
      expect: (role, visibility) => {
        const code = by(C.readMergeRequests, 200)(role, visibility);
        return code === 403 && role === ASSIGNEE ? 200 : code;
      },
      run: (site, role) => status(role, { path: MR(site, site.assignedMergeRequest) }),
    },
    {
      route: "GET /projects/:id/merge_requests/:merge_request_id/commits",
      expect: by(C.readMergeRequests, 200),
      run: (site, role) => status(role, { path: `${MR(site)}/commits` }),
    },
    {
      route: "GET /projects/:id/merge_requests/:merge_request_id/changes",
      expect: by(C.readMergeRequests, 200),
      run: (site, role) => status(role, { path: `${MR(site)}/changes` }),
    },
    {
      // It closes both fixture issues; the confidential one is listed only to those who may read it.
      route: "GET /projects/:id/merge_requests/:merge_request_id/closes_issues",
      expect: expectedIssuesBy(C.readMergeRequests),
      run: async (site, role) =>
        listedIssues(site, await kit.as(role, { path: `${MR(site)}/closes_issues` })),
    },
    {
      // The spec answers a new merge request with 200; a fresh source branch per cell.
      route: "POST /projects/:id/merge_requests",
      expect: by(C.developMergeRequests, 200),
      run: (site, role) => {
        const branch = kit.records.branch(site);
        return status(role, {
          method: "POST",
          path: `/projects/${site.project.id}/merge_requests`,
          json: { source_branch: branch, target_branch: "dev", title: `By ${role}` },
        });
      },
    },
    {
      // Root's merge request: developers and above (update_merge_request), or its author.
      route: "PUT /projects/:id/merge_requests/:merge_request_id",
      expect: by(C.developMergeRequests, 200),
      run: (site, role) =>
        status(role, { method: "PUT", path: MR(site), json: { title: `Edited by ${role}` } }),
    },
    {
      // Its assignee may edit it too, whatever their level (GitLab's issuable_policy.rb).
      route: "PUT /projects/:id/merge_requests/:merge_request_id (assigned to a guest)",
      expect: (role, visibility) => {
        const code = by(C.developMergeRequests, 200)(role, visibility);
        return code === 403 && role === ASSIGNEE ? 200 : code;
      },
      run: (site, role) =>
        status(role, {
          method: "PUT",
          path: MR(site, site.assignedMergeRequest),
          json: { title: `Edited by ${role}` },
        }),
    },
    {
      route: "DELETE /projects/:id/merge_requests/:merge_request_id",
      expect: by(C.destroy, 200),
      // A fresh one for each who may delete it; the others all try the site's decoy.
      run: async (site, role) => {
        const mays = by(C.destroy, 200)(role, site.project.visibility_level as Visibility) === 200;
        const mr = mays ? await kit.records.mergeRequest(site) : site.decoyMergeRequest;
        return status(role, { method: "DELETE", path: MR(site, mr) });
      },
    },
    {
      // Into the unprotected `dev`: developers may merge.
      route: "PUT /projects/:id/merge_requests/:merge_request_id/merge (sha mismatch)",
      expect: (role, visibility) => mergeStatus(role, visibility, false, 409),
      run: (site, role) =>
        status(role, { method: "PUT", path: `${MR(site)}/merge`, json: { sha: WRONG_SHA } }),
    },
    {
      // Into the protected `master`: masters and above only.
      route: "PUT /projects/:id/merge_requests/:merge_request_id/merge (protected target, sha mismatch)",
      expect: (role, visibility) => mergeStatus(role, visibility, true, 409),
      run: (site, role) =>
        status(role, {
          method: "PUT",
          path: `${MR(site, site.protectedMergeRequest)}/merge`,
          json: { sha: WRONG_SHA },
        }),
    },
    {
      // Not set to merge when the build succeeds: 406 to those who may cancel (mergers and the author).
      route: "PUT /projects/:id/merge_requests/:merge_request_id/cancel_merge_when_build_succeeds",
      expect: (role, visibility) => mergeStatus(role, visibility, false, 406),
      run: (site, role) =>
        status(role, { method: "PUT", path: `${MR(site)}/cancel_merge_when_build_succeeds` }),
    },
    {
      route:
        "POST /projects/:id/merge_requests/:merge_request_id/cancel_merge_when_build_succeeds (protected target)",
      expect: (role, visibility) => mergeStatus(role, visibility, true, 406),
      run: (site, role) =>
        status(role, {
          method: "POST",
          path: `${MR(site, site.protectedMergeRequest)}/cancel_merge_when_build_succeeds`,
        }),
    },
    {
      route: "POST /projects/:id/merge_requests/:merge_request_id/subscription",
      expect: by(C.readMergeRequests, 201),
      run: async (site, role) => {
        await kit.as(role, { method: "DELETE", path: `${MR(site)}/subscription` });
        return status(role, { method: "POST", path: `${MR(site)}/subscription` });
      },
    },
    {
      route: "DELETE /projects/:id/merge_requests/:merge_request_id/subscription",
      expect: by(C.readMergeRequests, 200),
      run: async (site, role) => {
        await kit.as(role, { method: "POST", path: `${MR(site)}/subscription` });
        return status(role, { method: "DELETE", path: `${MR(site)}/subscription` });
      },
    },
    {
      route: "POST /projects/:id/merge_requests/:merge_request_id/todo",
      expect: by(C.readMergeRequests, 200),
      run: (site, role) => status(role, { method: "POST", path: `${MR(site)}/todo` }),
    },
  ];
}
