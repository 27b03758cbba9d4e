import { checkObjects } from "./cat-file.js";
import { GitError } from "./errors.js";
import { runGit } from "./exec.js";
import { identityEnv } from "./identity.js";
import { updateRef } from "./ref-update.js";
import { readRef } from "./refs.js";
import type { GitIdentity } from "./types.js";
import { assertRevision, branchRef } from "./validate.js";

/** What a merge of two commits would give, computed without a work tree. */
export interface MergeCheck {
  /** True when the merge has no conflicts. */
  mergeable: boolean;
  /** The merged tree (with conflict markers when not mergeable). */
  tree: string;
  /** The paths in conflict, sorted. */
  conflicts: string[];
}

/** `git merge-tree --write-tree` of two commit ids. */
async function mergeTree(gitDir: string, ours: string, theirs: string): Promise<MergeCheck> {
  const { code, stdout } = await runGit(
    ["merge-tree", "--write-tree", "-z", "--name-only", "--no-messages", "--end-of-options", ours, theirs],
    { gitDir, okCodes: [0, 1] },
  );
  const [tree = "", ...paths] = stdout.toString("utf8").split("\0");
  // Exit code 1 also means "not something we can merge"; a conflict always prints the tree first.
  if (!/^[0-9a-f]{40,64}$/.test(tree)) throw new GitError("failed", `merge-tree failed (exit ${code})`);
  const conflicts = [...new Set(paths.filter((path) => path !== ""))].sort();
  return { mergeable: code === 0, tree, conflicts };
}

/** Resolves a target branch and a source revision; throws `not_found` for either. */
async function mergeSides(gitDir: string, target: string, source: string): Promise<[string, string]> {
  const ref = branchRef(target);
  assertRevision(source);
  const [targetId, [sourceInfo]] = await Promise.all([
    readRef(gitDir, ref),
    checkObjects(gitDir, [`${source}^{commit}`]),
  ]);
  if (!targetId) throw new GitError("not_found", `no branch ${target}`, "", "branch");
  if (!sourceInfo) throw new GitError("not_found", `no commit ${JSON.stringify(source)}`, "", "revision");
  return [targetId, sourceInfo.id];
}

/**
 * Whether `source` (a revision) merges into branch `target` without conflicts, computed with
 * `git merge-tree --write-tree` (no work tree, nothing moved). Throws `not_found` for either side.
 */
export async function canMerge(gitDir: string, target: string, source: string): Promise<MergeCheck> {
  const [targetId, sourceId] = await mergeSides(gitDir, target, source);
  return mergeTree(gitDir, targetId, sourceId);
}

/** What {@link merge} merges. */
export interface MergeOptions {
  /** The branch merged into. */
  target: string;
  /** The commit merged (the source branch head the caller checked, as a sha). */
  source: string;
  /** The merge commit's message, stored as given. */
  message: string;
  author: GitIdentity;
  /** Default: the author. */
  committer?: GitIdentity;
  /** The target head the caller saw; the merge fails with `ref_moved` when the branch is elsewhere. */
  expectedTarget?: string;
}

/** A merge that happened. */
export interface MergeResult {
  /** The merge commit, now the head of the target branch. */
  commit: string;
  /** The target head it replaced (the merge commit's first parent). */
  previous: string;
}

/**
 * Writes the merge commit of `source` into branch `target` (always two parents, as GitLab 8.x),
 * built from `git merge-tree`'s tree without a work tree, and moves nothing: the commit is the
 * branch's head only once {@link landMerge} moves it there. A caller that must survive a crash
 * records the commit between the two. Throws `ref_moved` when the branch is not at
 * `expectedTarget`, `conflict` (with the paths in the message) when the merge has conflicts,
 * `not_found` for an unknown branch or commit, `invalid` for a refused name.
 */
export async function writeMergeCommit(gitDir: string, options: MergeOptions): Promise<MergeResult> {
  const env = identityEnv(options.author, options.committer);
  const [targetId, sourceId] = await mergeSides(gitDir, options.target, options.source);
  if (options.expectedTarget !== undefined && options.expectedTarget !== targetId) {
    throw new GitError("ref_moved", `${options.target} is at ${targetId}, not ${options.expectedTarget}`);
  }
  const check = await mergeTree(gitDir, targetId, sourceId);
  if (!check.mergeable) throw new GitError("conflict", `merge conflicts in: ${check.conflicts.join(", ")}`);
  const { stdout } = await runGit(["commit-tree", check.tree, "-p", targetId, "-p", sourceId, "-F", "-"], {
    gitDir,
    env,
    input: options.message,
  });
  return { commit: stdout.toString("utf8").trim(), previous: targetId };
}

/**
 * Moves branch `target` from the merge's `previous` head to its `commit` (compare-and-swap): of two
 * merges written on the same head, exactly one lands and the other throws `ref_moved`.
 */
export async function landMerge(gitDir: string, target: string, merge: MergeResult): Promise<void> {
  await updateRef(gitDir, branchRef(target), merge.commit, merge.previous);
}

/**
 * Merges `source` into branch `target` with a merge commit ({@link writeMergeCommit}) and moves the
 * branch to it ({@link landMerge}): of two concurrent merges, exactly one wins and the other throws
 * `ref_moved`. Throws as {@link writeMergeCommit} otherwise.
 */
export async function merge(gitDir: string, options: MergeOptions): Promise<MergeResult> {
  const result = await writeMergeCommit(gitDir, options);
  await landMerge(gitDir, options.target, result);
  return result;
}
