import { type MergeRequest, type User, ZERO_SHA } from "@kiln/domain";
import { deleteBranch, GitError } from "@kiln/git";
import { repositoryOf } from "../repositories/access.js";
import { afterPush } from "../repositories/after-push.js";
import type { ServiceRuntime } from "../runtime.js";

/**
 * Removes a merged merge request's source branch, as the branch API would: never the source
 * project's default branch nor a protected one, and only while it still points at the commit that
 * was merged (new commits pushed meanwhile are not lost). The removal leaves a push event by `user`. Answers
 * whether the branch was removed; a branch that cannot be removed simply stays.
 */
export async function removeSourceBranch(
  runtime: ServiceRuntime,
  user: User,
  mr: MergeRequest,
  merged: string,
): Promise<boolean> {
  const { stores } = runtime;
  const project = await stores.projects.findById(mr.source_project_id ?? mr.project_id);
  const namespace = project && (await stores.namespaces.findById(project.namespace_id));
  if (!project || !namespace) return false;
  if (project.default_branch === mr.source_branch) return false;
  if (await stores.protectedBranches.find(project.id, mr.source_branch)) return false;
  const gitDir = await repositoryOf(runtime, project);
  try {
    await deleteBranch(gitDir, mr.source_branch, merged);
  } catch (error) {
    if (GitError.is(error, "not_found") || GitError.is(error, "ref_moved")) return false;
    throw error;
  }
  await afterPush(runtime, { project, namespace }, user, [
    { ref: `refs/heads/${mr.source_branch}`, before: merged, after: ZERO_SHA },
  ]);
  return true;
}
