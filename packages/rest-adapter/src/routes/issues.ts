import type { MovedIssueJson } from "@kiln/schemas";
import { type IssueView, issues } from "@kiln/services";
import { presentIssue } from "../presenters/issuables.js";
import { presentTodo } from "../presenters/todos.js";
import { listRoute, type PresentContext, type Route, route } from "../route.js";

/** What a move answers: the new issue without the caller's `subscribed` and `user_notes_count`. */
function presentMovedIssue(view: IssueView, context: PresentContext): MovedIssueJson {
  const { subscribed: _, user_notes_count: __, ...moved } = presentIssue(view, context);
  return moved;
}

const ISSUE = "/projects/:id/issues/:issue_id";

/** `/issues`, `/groups/:id/issues` and `/projects/:id/issues`: issue lists, issues and what is done to them. */
export const issueRoutes: Route[] = [
  listRoute({ method: "GET", path: "/issues", operation: issues.listMine, present: presentIssue }),
  listRoute({
    method: "GET",
    path: "/groups/:id/issues",
    operation: issues.listForGroup,
    present: presentIssue,
  }),
  listRoute({
    method: "GET",
    path: "/projects/:id/issues",
    operation: issues.listForProject,
    present: presentIssue,
  }),
  route({ method: "GET", path: ISSUE, operation: issues.get, present: presentIssue }),
  // The spec answers a new issue with 200, not Grape's usual 201.
  route({
    method: "POST",
    path: "/projects/:id/issues",
    operation: issues.create,
    status: 200,
    present: presentIssue,
  }),
  route({ method: "PUT", path: ISSUE, operation: issues.edit, present: presentIssue }),
  route({ method: "DELETE", path: ISSUE, operation: issues.remove, present: presentIssue }),
  route({ method: "POST", path: `${ISSUE}/move`, operation: issues.move, present: presentMovedIssue }),
  route({
    method: "POST",
    path: `${ISSUE}/subscription`,
    operation: issues.subscribe,
    present: presentIssue,
  }),
  route({
    method: "DELETE",
    path: `${ISSUE}/subscription`,
    operation: issues.unsubscribe,
    present: presentIssue,
  }),
  route({
    method: "POST",
    path: `${ISSUE}/todo`,
    operation: issues.markTodo,
    status: 200,
    present: presentTodo,
  }),
];
