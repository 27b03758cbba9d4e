import type { MergeRequestFailure, PushRefusal, RepositoryFailure } from "@kiln/domain";
import type { Wording } from "./wording.js";

/**
 * GitLab 8.x's push refusals: what a git client shows after `remote:`, and what the API answers
 * for a branch or tag it would not let a push change.
 */
export const pushRefusalText: Record<PushRefusal, string> = {
  push_code: "You are not allowed to push code to this project.",
  protected_branch: "You are not allowed to push code to protected branches on this project.",
  force_push_protected: "You are not allowed to force push code to a protected branch on this project.",
  delete_protected: "You are not allowed to delete protected branches from this project.",
  delete_default: "The default branch of a project cannot be deleted.",
  change_tags: "You are not allowed to change existing tags on this project.",
};

/** GitLab 8.x's prefix of every refusal of a written file's path. */
const REFUSED_PATH = "Your changes could not be committed, because the file name";

/**
 * Branches and tags (`CreateBranchService`, `DeleteBranchService`, `CreateTagService`,
 * `DeleteTagService`, whose messages clients match on), files and commits.
 */
export const repositoryWording: Wording<RepositoryFailure> = {
  branch_name_invalid: () => "Branch name is invalid",
  branch_exists: () => "Branch already exists",
  branch_ref_invalid: () => "Invalid reference name",
  branch_not_found: () => "No such branch",
  branch_is_default: () => "Cannot remove HEAD branch",
  branch_protected: () => "Protected branch cant be removed",
  branch_moved: () => "Branch was changed while it was being removed",
  tag_name_invalid: () => "Tag name invalid",
  tag_exists: ({ tag }) => `Tag ${tag} already exists`,
  tag_target_invalid: ({ ref }) => `Target ${ref} is invalid`,
  tag_not_found: () => "No such tag",
  tag_moved: () => "Tag was changed while it was being removed",
  push_refused: ({ refusal }) => pushRefusalText[refusal],
  commit_push_refused: () => "You are not allowed to push into this branch",
  commit_not_on_branch: () => "You can only create or edit files when you are on a branch",
  commit_branch_moved: () => "Commit was rejected because branch received new push",
  file_path_traversal: () => `${REFUSED_PATH} cannot include directory traversal.`,
  file_path_characters: () =>
    `${REFUSED_PATH} can contain only letters, digits, '_', '-', '@' and '.'. Separate directories with a '/'.`,
  file_path_invalid: () => `${REFUSED_PATH} is not a valid path.`,
  file_exists: () => "Your changes could not be committed because a file with the same name already exists",
  file_missing: ({ path, action }) => `File to be ${action}d \`${path}\` does not exist.`,
  file_parent_is_file: ({ path }) =>
    `Your changes could not be committed because a parent directory of \`${path}\` is a file`,
};

/** Creating, accepting and cancelling merge requests, as the spec gives the messages. */
export const mergeRequestWording: Wording<MergeRequestFailure> = {
  mr_target_not_fork_source: () =>
    "(Bad Request) Specified target project that is not the source project, or the source fork of the project.",
  mr_same_branch: () => "You can not use same project/branch for source and target",
  mr_source_branch_missing: ({ branch }) => `Source branch "${branch}" does not exist`,
  mr_target_branch_missing: ({ branch }) => `Target branch "${branch}" does not exist`,
  mr_exists: ({ titles }) => `Cannot Create: This merge request already exists: ${JSON.stringify(titles)}`,
  mr_cannot_merge: () => "Branch cannot be merged",
  mr_not_open: () => "Method Not Allowed",
  mr_sha_mismatch: () => "SHA does not match HEAD of source branch",
  mr_merge_when_build_succeeds_unset: () => "Merge request is not set to be merged when the build succeeds",
};
