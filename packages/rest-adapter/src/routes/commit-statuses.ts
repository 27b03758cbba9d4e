import { commitStatuses } from "@kiln/services";
import { presentCommitStatus } from "../presenters/ci.js";
import { listRoute, type Route, route } from "../route.js";

/** 8.x's commit statuses: a commit's builds and external statuses, and statuses posted by an external CI. */
export const commitStatusRoutes: Route[] = [
  listRoute({
    method: "GET",
    path: "/projects/:id/repository/commits/:sha/statuses",
    operation: commitStatuses.list,
    present: presentCommitStatus,
  }),
  route({
    method: "POST",
    path: "/projects/:id/statuses/:sha",
    operation: commitStatuses.create,
    present: presentCommitStatus,
  }),
];
