import type { OAuthApplication } from "@kiln/domain";
import { oauthApplications } from "@kiln/services";
import { type Route, route } from "../route.js";

/** An OAuth application as later GitLab's admin API shows it (the first redirect URI as `callback_url`). */
function presentApplication(application: OAuthApplication) {
  return {
    id: application.id,
    application_id: application.uid,
    application_name: application.name,
    callback_url: application.redirect_uri.split("\n")[0] ?? "",
  };
}

/** `/applications`: OAuth applications, for administrators (GitLab's admin API). */
export const applicationRoutes: Route[] = [
  route({
    method: "GET",
    path: "/applications",
    operation: oauthApplications.list,
    present: (applications) => applications.map(presentApplication),
  }),
  route({
    method: "POST",
    path: "/applications",
    operation: oauthApplications.create,
    present: ({ application, secret }) => ({ ...presentApplication(application), secret }),
  }),
  route({
    method: "DELETE",
    path: "/applications/:id",
    operation: oauthApplications.remove,
    status: 204,
    present: () => undefined,
  }),
];
