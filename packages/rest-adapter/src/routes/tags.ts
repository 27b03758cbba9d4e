import { repositoryTags } from "@kiln/services";
import { presentTag } from "../presenters/refs.js";
import { type Route, route } from "../route.js";

const TAGS = "/projects/:id/repository/tags";

/**
 * `/projects/:id/repository/tags`, as GitLab 8.x: a tag name may be sent with its slashes raw
 * (`tags/release/1.0`, GitLab's `requirements: { tag_name: /.+/ }`) or URL-encoded;
 * the list is sorted by name descending and not paginated; creating answers 201.
 */
export const tagRoutes: Route[] = [
  route({
    method: "GET",
    path: TAGS,
    operation: repositoryTags.list,
    present: (tags) => tags.map(presentTag),
  }),
  route({ method: "GET", path: `${TAGS}/*tag_name`, operation: repositoryTags.get, present: presentTag }),
  route({ method: "POST", path: TAGS, operation: repositoryTags.create, present: presentTag }),
  route({
    method: "DELETE",
    path: `${TAGS}/*tag_name`,
    operation: repositoryTags.remove,
    present: (removed) => removed,
  }),
];
