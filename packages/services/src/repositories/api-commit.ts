import { badRequest, conflict, invalid, ZERO_SHA } from "@kiln/domain";
import { branchHead, type CommitFilesResult, commitFiles, type FileAction, GitError } from "@kiln/git";
import type { SignedInContext } from "../operation.js";
import type { RepositoryAccess } from "./access.js";
import { afterPush } from "./after-push.js";
import { refusedChanges } from "./push-rules.js";

/** A commit made through the API (the files API, later the commits API) rather than a push. */
export interface ApiCommit {
  branch: string;
  message: string;
  /** Who the commit names as author; the caller's name and e-mail by default. */
  author_name?: string | undefined;
  author_email?: string | undefined;
  actions: readonly FileAction[];
}

/** The branch's head, or null when it does not exist; a name git refuses is a 400 on `branch_name`. */
async function headOf(gitDir: string, branch: string): Promise<string | null> {
  try {
    return await branchHead(gitDir, branch);
  } catch (error) {
    if (GitError.is(error, "invalid")) throw invalid({ branch_name: ["is invalid"] });
    throw error;
  }
}

/** The parameters an identity problem is about: those given, since the caller's own are sound. */
function identityProblem(commit: ApiCommit) {
  const given = (["author_name", "author_email"] as const).filter((key) => commit[key]);
  return given.length === 0 ? null : invalid(Object.fromEntries(given.map((key) => [key, ["is invalid"]])));
}

/**
 * Commits `commit` onto its branch as the caller, under the same rules as a `git push`: the push
 * rules (protected branches) are checked first; the branch must exist unless the repository is
 * empty, where the commit is its first and the branch becomes the default one. The commit is
 * based on the head the rules were checked against (compare-and-swap), so a push landing
 * meanwhile is never overwritten: that lost race is a 409. Then {@link afterPush} records the push
 * like any other. Git's refusals of the files themselves (`exists`, `not_found`, `invalid` with
 * subject `path`) are rethrown as they are, for the caller to word.
 */
export async function commitThroughApi(
  ctx: SignedInContext,
  access: RepositoryAccess,
  commit: ApiCommit,
): Promise<CommitFilesResult> {
  const { user } = ctx.actor;
  const head = await headOf(access.gitDir, commit.branch);
  const ref = `refs/heads/${commit.branch}`;
  const change = { ref, kind: head === null ? "create" : "update", forced: false } as const;
  if ((await refusedChanges(ctx.runtime.stores, access, [change])).length > 0) {
    throw badRequest({ reason: "commit_push_refused" });
  }
  let result: CommitFilesResult;
  try {
    result = await commitFiles(access.gitDir, {
      branch: commit.branch,
      message: commit.message,
      author: { name: commit.author_name || user.name, email: commit.author_email || user.email },
      committer: { name: user.name, email: user.email },
      actions: commit.actions,
      ...(head === null ? {} : { expectedHead: head }),
    });
  } catch (error) {
    if (!GitError.is(error) || error.subject === "path") throw error;
    if (error.kind === "ref_moved") throw conflict({ reason: "commit_branch_moved" });
    if (error.kind === "not_found" && error.subject === "branch")
      throw badRequest({ reason: "commit_not_on_branch" });
    if (error.kind === "invalid" && error.subject === "identity") throw identityProblem(commit) ?? error;
    if (error.kind === "invalid" && error.subject === undefined)
      throw invalid({ commit_message: ["is invalid"] });
    throw error;
  }
  await afterPush(ctx.runtime, access, user, [{ ref, before: head ?? ZERO_SHA, after: result.commit }]);
  return result;
}
