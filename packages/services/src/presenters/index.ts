// The public JSON shapes of Kiln's entities, presented from the services' views: one mapper per
// shape, used by the REST API v3 and by the tRPC procedures served over HTTP alike.
export { presentBuild, presentPipeline, presentRunner } from "./ci.js";
export { commitTitle, presentCommit } from "./commits.js";
export {
  presentAuthor,
  presentGhost,
  presentIssue,
  presentMergeRequest,
  presentMilestone,
} from "./issuables.js";
export { presentDiff, presentMergeRequestChanges } from "./merge-requests.js";
export type { PresentContext } from "./present-context.js";
export { presentBasicProject, presentNamespace, presentProject } from "./projects.js";
export { presentTodo } from "./todos.js";
export {
  presentSshKey,
  presentUser,
  presentUserBasic,
  presentUserPublic,
  presentUserWithPrivateToken,
} from "./users.js";
