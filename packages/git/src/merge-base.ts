import { runOnRevisions } from "./revision-read.js";
import { assertRevision } from "./validate.js";

/**
 * The best common ancestor of two revisions, or `null` when their histories are unrelated.
 * Throws `not_found` (subject `revision`) when one names no commit.
 */
export async function mergeBase(gitDir: string, a: string, b: string): Promise<string | null> {
  assertRevision(a);
  assertRevision(b);
  const { code, stdout } = await runOnRevisions(["merge-base", "--end-of-options", a, b], {
    gitDir,
    okCodes: [0, 1],
  });
  return code === 0 ? stdout.toString("utf8").trim() : null;
}

/** True when `ancestor` is reachable from `descendant` (or is it). Throws `not_found` as above. */
export async function isAncestor(gitDir: string, ancestor: string, descendant: string): Promise<boolean> {
  assertRevision(ancestor);
  assertRevision(descendant);
  const { code } = await runOnRevisions(
    ["merge-base", "--is-ancestor", "--end-of-options", ancestor, descendant],
    { gitDir, okCodes: [0, 1] },
  );
  return code === 0;
}

/**
 * The branches whose history holds commit `sha`, by name (byte order), as GitLab's
 * `branch_names_contains`. Throws `not_found` when `sha` names no commit.
 */
export async function branchesContaining(gitDir: string, sha: string): Promise<string[]> {
  assertRevision(sha);
  const { stdout } = await runOnRevisions(
    ["for-each-ref", "--format=%(refname)", `--contains=${sha}`, "refs/heads/"],
    { gitDir },
  );
  return stdout
    .toString("utf8")
    .split("\n")
    .filter((ref) => ref.startsWith("refs/heads/"))
    .map((ref) => ref.slice("refs/heads/".length));
}
