import { repositoryFiles } from "@kiln/services";
import { presentFile, presentFileCommit } from "../presenters/files.js";
import { type Route, route } from "../route.js";

const path = "/projects/:id/repository/files";

/** `/projects/:id/repository/files`: read one file at a revision, or commit one onto a branch. */
export const fileRoutes: Route[] = [
  route({ method: "GET", path, operation: repositoryFiles.get, present: presentFile }),
  route({ method: "POST", path, operation: repositoryFiles.create, present: presentFileCommit }),
  route({ method: "PUT", path, operation: repositoryFiles.update, present: presentFileCommit }),
  route({ method: "DELETE", path, operation: repositoryFiles.remove, present: presentFileCommit }),
];
