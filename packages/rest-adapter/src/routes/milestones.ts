import { milestones } from "@kiln/services";
import { presentIssue, presentMilestone } from "../presenters/issuables.js";
import { listRoute, type Route, route } from "../route.js";

/** `/projects/:id/milestones`: a project's milestones, by global id, and the issues of each. */
export const milestoneRoutes: Route[] = [
  listRoute({
    method: "GET",
    path: "/projects/:id/milestones",
    operation: milestones.list,
    present: presentMilestone,
  }),
  route({
    method: "GET",
    path: "/projects/:id/milestones/:milestone_id",
    operation: milestones.get,
    present: presentMilestone,
  }),
  route({
    method: "POST",
    path: "/projects/:id/milestones",
    operation: milestones.create,
    present: presentMilestone,
  }),
  route({
    method: "PUT",
    path: "/projects/:id/milestones/:milestone_id",
    operation: milestones.update,
    present: presentMilestone,
  }),
  listRoute({
    method: "GET",
    path: "/projects/:id/milestones/:milestone_id/issues",
    operation: milestones.issues,
    present: presentIssue,
  }),
];
