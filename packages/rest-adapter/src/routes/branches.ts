import { repositoryBranches } from "@kiln/services";
import { presentBranch } from "../presenters/refs.js";
import { type Route, route } from "../route.js";

const BRANCHES = "/projects/:id/repository/branches";

/**
 * `/projects/:id/repository/branches`: a branch name may be sent with its slashes raw
 * (`branches/feature/x/protect`, GitLab 8.x's `requirements: { branch: /.+/ }`) or URL-encoded
 * (`feature%2Fx`). Lists are not paginated in v3. Creating answers 200, as the spec says (GitLab
 * answered 201).
 */
export const branchRoutes: Route[] = [
  route({
    method: "GET",
    path: BRANCHES,
    operation: repositoryBranches.list,
    present: (branches) => branches.map(presentBranch),
  }),
  route({
    method: "GET",
    path: `${BRANCHES}/*branch`,
    operation: repositoryBranches.get,
    present: presentBranch,
  }),
  route({
    method: "PUT",
    path: `${BRANCHES}/*branch/protect`,
    operation: repositoryBranches.protect,
    present: presentBranch,
  }),
  route({
    method: "PUT",
    path: `${BRANCHES}/*branch/unprotect`,
    operation: repositoryBranches.unprotect,
    present: presentBranch,
  }),
  route({
    method: "POST",
    path: BRANCHES,
    status: 200,
    operation: repositoryBranches.create,
    present: presentBranch,
  }),
  route({
    method: "DELETE",
    path: `${BRANCHES}/*branch`,
    operation: repositoryBranches.remove,
    present: (removed) => removed,
  }),
];
