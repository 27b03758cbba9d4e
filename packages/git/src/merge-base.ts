import { GitError } from "./errors.js";
import { runGit } from "./exec.js";
import { assertRevision } from "./validate.js";

const UNKNOWN = /not a valid (?:object name|commit)|unknown revision|bad revision/i;

function unknownRevision(error: unknown): unknown {
  if (GitError.is(error, "failed") && UNKNOWN.test(error.stderr)) {
    return new GitError("not_found", "no such commit", error.stderr, "revision");
  }
  return error;
}

/**
 * The best common ancestor of two revisions, or `null` when their histories are unrelated.
 * Throws `not_found` (subject `revision`) when one names no commit.
 */
export async function mergeBase(gitDir: string, a: string, b: string): Promise<string | null> {
  assertRevision(a);
  assertRevision(b);
  try {
    const { code, stdout } = await runGit(["merge-base", "--end-of-options", a, b], {
      gitDir,
      okCodes: [0, 1],
    });
    return code === 0 ? stdout.toString("utf8").trim() : null;
  } catch (error) {
    throw unknownRevision(error);
  }
}

/** True when `ancestor` is reachable from `descendant` (or is it). Throws `not_found` as above. */
export async function isAncestor(gitDir: string, ancestor: string, descendant: string): Promise<boolean> {
  assertRevision(ancestor);
  assertRevision(descendant);
  try {
    const { code } = await runGit(["merge-base", "--is-ancestor", "--end-of-options", ancestor, descendant], {
      gitDir,
      okCodes: [0, 1],
    });
    return code === 0;
  } catch (error) {
    throw unknownRevision(error);
  }
}
