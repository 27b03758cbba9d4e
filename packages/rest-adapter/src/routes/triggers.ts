import { type TriggerRequestView, triggers } from "@kiln/services";
import { presentTrigger } from "../presenters/runners.js";
import { listRoute, type Route, route } from "../route.js";

const TRIGGERS = "/projects/:id/triggers";
const presentRequest = ({ id, variables }: TriggerRequestView) => ({ id, variables });

/**
 * `/projects/:id/triggers` (masters) and the trigger request, which carries the trigger's token
 * instead of a user's (both 8.x paths: the ref as a parameter, or in the path).
 */
export const triggerRoutes: Route[] = [
  listRoute({ method: "GET", path: TRIGGERS, operation: triggers.list, present: presentTrigger }),
  route({ method: "GET", path: `${TRIGGERS}/:token`, operation: triggers.get, present: presentTrigger }),
  route({ method: "POST", path: TRIGGERS, operation: triggers.create, present: presentTrigger }),
  route({
    method: "DELETE",
    path: `${TRIGGERS}/:token`,
    operation: triggers.remove,
    present: presentTrigger,
  }),
  ...["/projects/:id/trigger/builds", "/projects/:id/ref/:ref/trigger/builds"].map((path) =>
    route({ method: "POST", path, anonymous: true, operation: triggers.trigger, present: presentRequest }),
  ),
];
