import { labels } from "@kiln/services";
import { presentLabel } from "../presenters/labels.js";
import { type Route, route } from "../route.js";

/**
 * `/projects/:id/labels`: a project's labels. The list is not paginated, and the write routes name
 * the label by its title in the parameters, as in GitLab 8.x; subscriptions take an id or a title.
 */
export const labelRoutes: Route[] = [
  route({
    method: "GET",
    path: "/projects/:id/labels",
    operation: labels.list,
    present: (views) => views.map(presentLabel),
  }),
  route({ method: "POST", path: "/projects/:id/labels", operation: labels.create, present: presentLabel }),
  route({ method: "PUT", path: "/projects/:id/labels", operation: labels.update, present: presentLabel }),
  route({ method: "DELETE", path: "/projects/:id/labels", operation: labels.remove, present: presentLabel }),
  route({
    method: "POST",
    path: "/projects/:id/labels/:label_id/subscription",
    operation: labels.subscribe,
    present: presentLabel,
  }),
  route({
    method: "DELETE",
    path: "/projects/:id/labels/:label_id/subscription",
    operation: labels.unsubscribe,
    present: presentLabel,
  }),
];
