import { runners } from "@kiln/services";
import { presentRunner, presentRunnerDetails } from "../presenters/runners.js";
import { listRoute, type Route, route } from "../route.js";

const PROJECT_RUNNERS = "/projects/:id/runners";

/** `/runners` and `/projects/:id/runners`, as GitLab 8.x serves them. */
export const runnerRoutes: Route[] = [
  listRoute({ method: "GET", path: "/runners", operation: runners.own, present: presentRunner }),
  listRoute({ method: "GET", path: "/runners/all", operation: runners.all, present: presentRunner }),
  route({ method: "GET", path: "/runners/:id", operation: runners.get, present: presentRunnerDetails }),
  route({ method: "PUT", path: "/runners/:id", operation: runners.update, present: presentRunnerDetails }),
  route({ method: "DELETE", path: "/runners/:id", operation: runners.remove, present: presentRunner }),
  listRoute({ method: "GET", path: PROJECT_RUNNERS, operation: runners.ofProject, present: presentRunner }),
  route({ method: "POST", path: PROJECT_RUNNERS, operation: runners.enable, present: presentRunner }),
  route({
    method: "DELETE",
    path: `${PROJECT_RUNNERS}/:runner_id`,
    operation: runners.disable,
    present: presentRunner,
  }),
];
