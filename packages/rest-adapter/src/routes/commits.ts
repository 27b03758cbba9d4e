import { repositoryCommits } from "@kiln/services";
import { presentCommit, presentCommitDetail, presentCommitDiff } from "../presenters/commits.js";
import { type Route, route } from "../route.js";

const commits = "/projects/:id/repository/commits";

/**
 * `/projects/:id/repository/commits`: a project's history, one commit, and what it changed. The
 * list pages GitLab 8.x's own way (`page` from 0, no pagination headers); the diff is not paged.
 */
export const commitRoutes: Route[] = [
  route({
    method: "GET",
    path: commits,
    operation: repositoryCommits.list,
    present: (list) => list.map(presentCommit),
  }),
  route({
    method: "GET",
    path: `${commits}/:sha`,
    operation: repositoryCommits.get,
    present: presentCommitDetail,
  }),
  route({
    method: "GET",
    path: `${commits}/:sha/diff`,
    operation: repositoryCommits.diff,
    present: (diffs) => diffs.map(presentCommitDiff),
  }),
];
