import type { CollaborationRoute, Kit, Site } from "./collaboration-fixtures.js";
import { COLLABORATION_RULES as C, readsConfidential } from "./collaboration-rules.js";
import { by } from "./issue-routes.js";
import { type Role, type Rule, signedIn, type Visibility } from "./rules.js";

/**
 * Where notes hang: the fixture issue or the fixture merge request, and root's note there. `by`
 * is the status of a note route's rule there.
 */
interface Noteable {
  kind: "issues" | "merge_requests";
  name: string;
  id: (site: Site) => number;
  note: (site: Site) => number;
  by: typeof by;
}

/**
 * The status of a note route on the fixture merge request: as its rule says for those who may
 * read the merge request, 404 for those who read the project but not it (GitLab 8.13+'s note
 * routes answer `not_found!` for a noteable the caller may not read).
 */
const onMergeRequest =
  (rule: Rule, success: number) =>
  (role: Role, visibility: Visibility): number =>
    by(C.readMergeRequests, success)(role, visibility) === 403 ? 404 : by(rule, success)(role, visibility);

const NOTEABLES: Noteable[] = [
  { kind: "issues", name: "issue_id", id: (site) => site.issue.id, note: (site) => site.issueNote, by },
  {
    kind: "merge_requests",
    name: "merge_request_id",
    id: (site) => site.mergeRequest.id,
    note: (site) => site.mergeRequestNote,
    by: onMergeRequest,
  },
];

/**
 * The note rows, on issues and on merge requests: list, read, create, edit and delete root's
 * notes (their author, masters and administrators), and edit one's own; notes of a confidential
 * issue are as hidden as the issue, and those of a merge request from those who may not read it.
 */
export function noteRoutes(kit: Kit): CollaborationRoute[] {
  const status = async (role: Role, request: Parameters<Kit["as"]>[1]) =>
    (await kit.as(role, request)).status;
  const routes = NOTEABLES.flatMap((on): CollaborationRoute[] => {
    const notes = (site: Site) => `/projects/${site.project.id}/${on.kind}/${on.id(site)}/notes`;
    const route = (what: string) => what.replace("NOTES", `/projects/:id/${on.kind}/:${on.name}/notes`);
    return [
      {
        route: route("GET NOTES"),
        expect: on.by(C.read, 200),
        run: (site, role) => status(role, { path: notes(site) }),
      },
      {
        route: route("GET NOTES/:note_id"),
        expect: on.by(C.read, 200),
        run: (site, role) => status(role, { path: `${notes(site)}/${on.note(site)}` }),
      },
      {
        route: route("POST NOTES"),
        expect: on.by(C.participate, 201),
        run: (site, role) =>
          status(role, { method: "POST", path: notes(site), json: { body: `By ${role}` } }),
      },
      {
        route: route("PUT NOTES/:note_id (root's note)"),
        expect: on.by(C.administer, 200),
        run: (site, role) =>
          status(role, {
            method: "PUT",
            path: `${notes(site)}/${on.note(site)}`,
            json: { body: `Edited by ${role}` },
          }),
      },
      {
        // Everyone who may write a note may edit it: the cell writes one, then edits it.
        route: route("PUT NOTES/:note_id (own note)"),
        expect: on.by(C.participate, 200),
        run: async (site, role) => {
          const made = await kit.as<{ id: number }>(role, {
            method: "POST",
            path: notes(site),
            json: { body: `Own note of ${role}` },
          });
          if (made.status !== 201) return made.status;
          return status(role, {
            method: "PUT",
            path: `${notes(site)}/${made.body.id}`,
            json: { body: "Edited" },
          });
        },
      },
      {
        route: route("DELETE NOTES/:note_id (root's note)"),
        expect: on.by(C.administer, 200),
        run: async (site, role) => {
          const note = await kit.records.note(site.project, on.kind, on.id(site));
          return status(role, { method: "DELETE", path: `${notes(site)}/${note}` });
        },
      },
    ];
  });
  const confidentialNotes = (site: Site) =>
    `/projects/${site.project.id}/issues/${site.confidential.id}/notes`;
  const confidentialStatus = (success: number) => (role: Role, visibility: Visibility) =>
    !signedIn(role) ? 401 : readsConfidential(role, visibility) ? success : 404;
  const comments = (site: Site) =>
    `/projects/${site.project.id}/merge_requests/${site.mergeRequest.id}/comments`;
  return [
    ...routes,
    {
      // GitLab 8.x's deprecated comments: the same notes, but merge request routes (403, not 404).
      route: "GET /projects/:id/merge_requests/:merge_request_id/comments",
      expect: by(C.readMergeRequests, 200),
      run: (site, role) => status(role, { path: comments(site) }),
    },
    {
      // Commenting needs create_note, and the merge request readable (403 as its other routes).
      route: "POST /projects/:id/merge_requests/:merge_request_id/comments",
      expect: by(C.readMergeRequests, 201),
      run: (site, role) =>
        status(role, { method: "POST", path: comments(site), json: { note: `By ${role}` } }),
    },
    {
      route: "POST /projects/:id/issues/:issue_id/notes (confidential issue)",
      expect: confidentialStatus(201),
      run: (site, role) =>
        status(role, { method: "POST", path: confidentialNotes(site), json: { body: `By ${role}` } }),
    },
    {
      route: "GET /projects/:id/issues/:issue_id/notes (confidential issue)",
      expect: (role, visibility) => (!signedIn(role) ? 401 : readsConfidential(role, visibility) ? 200 : 404),
      run: (site, role) =>
        status(role, { path: `/projects/${site.project.id}/issues/${site.confidential.id}/notes` }),
    },
  ];
}
