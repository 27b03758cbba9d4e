import type { MergeRequest, MergeStatus } from "@kiln/domain";
import { branchHead, canMerge, GitError, isAncestor, isValidBranchName, runGit } from "@kiln/git";
import { repositoryOf } from "../repositories/access.js";
import type { ServiceRuntime } from "../runtime.js";

/**
 * Where a merge request's git work happens: the target project's repository, with both heads in
 * it. A fork's source branch is fetched into the target as `refs/merge-requests/<iid>/head`, as
 * GitLab does, so merge tests, diffs and the merge itself see its commits.
 */
export interface MergeSides {
  /** The target project's repository. */
  gitDir: string;
  /** The source branch head, or null when the branch is gone. */
  source: string | null;
  /** The target branch head, or null when the branch is gone. */
  target: string | null;
}

/** The head of branch `name`, or null when there is none (a name git refuses names none). */
export function headOfBranch(gitDir: string, name: string): Promise<string | null> {
  return isValidBranchName(name) ? branchHead(gitDir, name) : Promise.resolve(null);
}

/** The ref a fork's source head is fetched to in the target repository. */
const headRef = (mergeRequest: Pick<MergeRequest, "iid">) => `refs/merge-requests/${mergeRequest.iid}/head`;

/** The head of the source branch, in the target repository (fetched there for a fork). */
async function sourceHead(
  runtime: ServiceRuntime,
  gitDir: string,
  mergeRequest: Pick<MergeRequest, "iid" | "project_id" | "source_project_id" | "source_branch">,
): Promise<string | null> {
  const sourceProjectId = mergeRequest.source_project_id ?? mergeRequest.project_id;
  if (sourceProjectId === mergeRequest.project_id) return headOfBranch(gitDir, mergeRequest.source_branch);
  const sourceDir = await repositoryOf(runtime, { id: sourceProjectId });
  const head = await headOfBranch(sourceDir, mergeRequest.source_branch);
  if (head === null) return null;
  const ref = headRef(mergeRequest);
  await runGit(
    ["fetch", "--quiet", "--no-tags", sourceDir, `+refs/heads/${mergeRequest.source_branch}:${ref}`],
    {
      gitDir,
    },
  );
  return head;
}

/** Both heads of a merge request, read now. */
export async function mergeSides(
  runtime: ServiceRuntime,
  mergeRequest: Pick<
    MergeRequest,
    "iid" | "project_id" | "source_project_id" | "source_branch" | "target_branch"
  >,
): Promise<MergeSides> {
  const gitDir = await repositoryOf(runtime, { id: mergeRequest.project_id });
  const [source, target] = await Promise.all([
    sourceHead(runtime, gitDir, mergeRequest),
    headOfBranch(gitDir, mergeRequest.target_branch),
  ]);
  return { gitDir, source, target };
}

/**
 * Whether the source merges into the target without conflicts, by a git merge test (`git
 * merge-tree`, nothing moved): `cannot_be_merged` also when a branch is gone.
 */
export async function testMerge(sides: MergeSides, targetBranch: string): Promise<MergeStatus> {
  if (sides.source === null || sides.target === null) return "cannot_be_merged";
  try {
    const check = await canMerge(sides.gitDir, targetBranch, sides.source);
    return check.mergeable ? "can_be_merged" : "cannot_be_merged";
  } catch (error) {
    if (GitError.is(error, "not_found") || GitError.is(error, "failed")) return "cannot_be_merged";
    throw error;
  }
}

/** True when the target already holds every commit of the source: nothing is left to merge. */
export async function alreadyMerged(sides: MergeSides): Promise<boolean> {
  if (sides.source === null || sides.target === null) return false;
  return isAncestor(sides.gitDir, sides.source, sides.target);
}
