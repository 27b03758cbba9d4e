import { projectHooks } from "@kiln/services";
import { presentHook } from "../presenters/hooks.js";
import { listRoute, type Route, route } from "../route.js";

/** `/projects/:id/hooks`: a project's webhooks (masters and above). */
export const hookRoutes: Route[] = [
  listRoute({
    method: "GET",
    path: "/projects/:id/hooks",
    operation: projectHooks.list,
    present: presentHook,
  }),
  route({
    method: "GET",
    path: "/projects/:id/hooks/:hook_id",
    operation: projectHooks.get,
    present: presentHook,
  }),
  route({ method: "POST", path: "/projects/:id/hooks", operation: projectHooks.add, present: presentHook }),
  route({
    method: "PUT",
    path: "/projects/:id/hooks/:hook_id",
    operation: projectHooks.edit,
    present: presentHook,
  }),
  // Idempotent: 200 with the hook if it existed, else 200 with no body at all.
  route({
    method: "DELETE",
    path: "/projects/:id/hooks/:hook_id",
    operation: projectHooks.remove,
    present: (hook) => (hook ? presentHook(hook) : undefined),
  }),
];
