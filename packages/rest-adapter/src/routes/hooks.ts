import { projectHooks, systemHooks } from "@kiln/services";
import { presentDelivery, presentHook, presentSystemHook } from "../presenters/hooks.js";
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
  listRoute({
    method: "GET",
    path: "/projects/:id/hooks/:hook_id/deliveries",
    operation: projectHooks.deliveries,
    present: presentDelivery,
  }),
  route({
    method: "POST",
    path: "/projects/:id/hooks/:hook_id/test",
    operation: projectHooks.test,
    present: presentDelivery,
  }),
];

/** `/hooks`: system hooks (administrators). `GET /hooks/:id` sends a test event, as in GitLab 8.x. */
export const systemHookRoutes: Route[] = [
  route({
    method: "GET",
    path: "/hooks",
    operation: systemHooks.list,
    present: (hooks) => hooks.map(presentSystemHook),
  }),
  route({ method: "POST", path: "/hooks", operation: systemHooks.add, present: presentSystemHook }),
  route({ method: "GET", path: "/hooks/:id", operation: systemHooks.test, present: (sample) => sample }),
  route({ method: "DELETE", path: "/hooks/:id", operation: systemHooks.remove, present: presentSystemHook }),
];
