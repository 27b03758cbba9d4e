import { mergeRequests } from "@kiln/services";
import { presentCommit } from "../presenters/commits.js";
import { presentIssue, presentMergeRequest } from "../presenters/issuables.js";
import { presentMergeRequestChanges } from "../presenters/merge-requests.js";
import { presentTodo } from "../presenters/todos.js";
import { listRoute, type Route, route } from "../route.js";

const LIST = "/projects/:id/merge_requests";

/**
 * The routes of one merge request under `base` (`…/merge_requests/:merge_request_id`, or GitLab
 * 8.x's deprecated singular `…/merge_request/:merge_request_id`, which v3 clients still call).
 */
function oneMergeRequest(base: string): Route[] {
  return [
    route({ method: "GET", path: base, operation: mergeRequests.get, present: presentMergeRequest }),
    route({ method: "PUT", path: base, operation: mergeRequests.update, present: presentMergeRequest }),
    route({ method: "DELETE", path: base, operation: mergeRequests.remove, present: presentMergeRequest }),
    route({
      method: "GET",
      path: `${base}/commits`,
      operation: mergeRequests.commits,
      present: (commits) => commits.map(presentCommit),
    }),
    route({
      method: "GET",
      path: `${base}/changes`,
      operation: mergeRequests.changes,
      present: presentMergeRequestChanges,
    }),
    route({
      method: "PUT",
      path: `${base}/merge`,
      operation: mergeRequests.accept,
      present: presentMergeRequest,
    }),
    route({
      method: "PUT",
      path: `${base}/cancel_merge_when_build_succeeds`,
      operation: mergeRequests.cancelMergeWhenBuildSucceeds,
      present: presentMergeRequest,
    }),
    // GitLab 8.x declared cancel as a POST; both verbs are taken.
    route({
      method: "POST",
      path: `${base}/cancel_merge_when_build_succeeds`,
      status: 200,
      operation: mergeRequests.cancelMergeWhenBuildSucceeds,
      present: presentMergeRequest,
    }),
    listRoute({
      method: "GET",
      path: `${base}/closes_issues`,
      operation: mergeRequests.closesIssues,
      present: presentIssue,
    }),
    route({
      method: "POST",
      path: `${base}/subscription`,
      operation: mergeRequests.subscribe,
      present: presentMergeRequest,
    }),
    route({
      method: "DELETE",
      path: `${base}/subscription`,
      operation: mergeRequests.unsubscribe,
      present: presentMergeRequest,
    }),
    route({
      method: "POST",
      path: `${base}/todo`,
      status: 200,
      operation: mergeRequests.markTodo,
      present: presentTodo,
    }),
  ];
}

/**
 * `/projects/:id/merge_requests`: creating answers 200 and marking a todo 200, as the spec says
 * (GitLab answered 201). Every route of one merge request also answers under the singular path.
 */
export const mergeRequestRoutes: Route[] = [
  listRoute({ method: "GET", path: LIST, operation: mergeRequests.list, present: presentMergeRequest }),
  route({
    method: "POST",
    path: LIST,
    status: 200,
    operation: mergeRequests.create,
    present: presentMergeRequest,
  }),
  ...oneMergeRequest(`${LIST}/:merge_request_id`),
  ...oneMergeRequest("/projects/:id/merge_request/:merge_request_id"),
];
