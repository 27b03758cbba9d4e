import type { Project } from "@kiln/domain";
import { branchHead, isValidBranchName, setDefaultBranch } from "@kiln/git";
import type { ServiceRuntime } from "../runtime.js";
import { repositoryOf } from "./access.js";

/**
 * The default branch a project edit may record: `requested` when it names a branch the repository
 * has, else undefined (the edit leaves the default branch alone). GitLab 8.x does the same in
 * effect: it points HEAD at any name, but its default branch is the HEAD branch only when that
 * branch exists and falls back to an existing one otherwise, and answers 200 either way. Kiln keeps
 * the record and HEAD in step instead of pointing HEAD at nothing.
 */
export async function acceptedDefaultBranch(
  runtime: ServiceRuntime,
  project: Project,
  requested: string | undefined,
): Promise<string | undefined> {
  if (requested === undefined || requested === project.default_branch) return undefined;
  if (!isValidBranchName(requested)) return undefined;
  const gitDir = await repositoryOf(runtime, project);
  return (await branchHead(gitDir, requested)) ? requested : undefined;
}

/** Points the repository's HEAD (what clones check out) at the project's new default branch. */
export async function moveHead(runtime: ServiceRuntime, project: Project, branch: string): Promise<void> {
  await setDefaultBranch(await repositoryOf(runtime, project), branch);
}
