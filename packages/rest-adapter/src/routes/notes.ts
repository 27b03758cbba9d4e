import { issueNotes, mergeRequestComments, mergeRequestNotes } from "@kiln/services";
import { presentMergeRequestComment, presentNote } from "../presenters/notes.js";
import { listRoute, type Route, route } from "../route.js";

/** The five note routes under one noteable path (`/projects/:id/issues/:issue_id`, ...). */
function noteableNoteRoutes(base: string, notes: typeof issueNotes | typeof mergeRequestNotes): Route[] {
  return [
    listRoute({ method: "GET", path: `${base}/notes`, operation: notes.list, present: presentNote }),
    route({ method: "GET", path: `${base}/notes/:note_id`, operation: notes.get, present: presentNote }),
    route({ method: "POST", path: `${base}/notes`, operation: notes.create, present: presentNote }),
    route({ method: "PUT", path: `${base}/notes/:note_id`, operation: notes.update, present: presentNote }),
    // GitLab answers the deleted note, with 200.
    route({
      method: "DELETE",
      path: `${base}/notes/:note_id`,
      operation: notes.remove,
      present: presentNote,
    }),
  ];
}

/** GitLab 8.x's deprecated `comments` of a merge request: notes shown as `{note, author}`. */
function commentRoutes(base: string): Route[] {
  return [
    listRoute({
      method: "GET",
      path: `${base}/comments`,
      operation: mergeRequestComments.list,
      present: presentMergeRequestComment,
    }),
    route({
      method: "POST",
      path: `${base}/comments`,
      operation: mergeRequestComments.create,
      present: presentMergeRequestComment,
    }),
  ];
}

/**
 * Notes on issues and merge requests; merge requests also under GitLab 8.x's deprecated singular
 * `/merge_request/` path, and with the deprecated comments routes under both.
 */
export const noteRoutes: Route[] = [
  ...noteableNoteRoutes("/projects/:id/issues/:issue_id", issueNotes),
  ...noteableNoteRoutes("/projects/:id/merge_requests/:merge_request_id", mergeRequestNotes),
  ...noteableNoteRoutes("/projects/:id/merge_request/:merge_request_id", mergeRequestNotes),
  ...commentRoutes("/projects/:id/merge_requests/:merge_request_id"),
  ...commentRoutes("/projects/:id/merge_request/:merge_request_id"),
];
