import { checkObjects } from "./cat-file.js";
import { GitError } from "./errors.js";
import { gitText, runGit } from "./exec.js";
import { runRefWrite } from "./housekeeping/locks.js";
import { assertRevision, branchRef } from "./validate.js";

/**
 * Resolves each revision (branch, tag, sha, `HEAD~2`…) to the id of the commit it names, in one
 * git process: `null` for one that names no commit. Throws `invalid` for a revision git may not be
 * asked about (see {@link assertRevision}).
 */
export async function resolveCommits(gitDir: string, revs: readonly string[]): Promise<(string | null)[]> {
  for (const rev of revs) assertRevision(rev);
  const infos = await checkObjects(
    gitDir,
    revs.map((rev) => `${rev}^{commit}`),
  );
  return infos.map((info) => info?.id ?? null);
}

/** The commit id `rev` names; throws `not_found` (subject `revision`) when it names none. */
export async function resolveCommit(gitDir: string, rev: string): Promise<string> {
  const [id] = await resolveCommits(gitDir, [rev]);
  if (!id) throw new GitError("not_found", `no commit ${JSON.stringify(rev)}`, "", "revision");
  return id;
}

/**
 * The object the full ref name `ref` points to, exactly (`show-ref --verify`: never another ref
 * found by git's short-name rules, as object-name lookups of a missing `refs/heads/x` would find
 * `refs/heads/refs/heads/x`), or `null` when there is no such ref.
 */
export async function readRef(gitDir: string, ref: string): Promise<string | null> {
  const { code, stdout, stderr } = await runGit(["show-ref", "--verify", "--", ref], {
    gitDir,
    okCodes: [0, 128],
  });
  if (code === 0) return stdout.toString("utf8").split(" ")[0] ?? null;
  if (stderr.includes("not a valid ref")) return null;
  throw new GitError("failed", `git show-ref failed: ${stderr.trim()}`, stderr);
}

/** The commit a branch points to, or `null` when there is no such branch. */
export async function branchHead(gitDir: string, branch: string): Promise<string | null> {
  return readRef(gitDir, branchRef(branch));
}

/** The branch HEAD points to (GitLab's default branch), even an unborn one; `null` when detached. */
export async function getDefaultBranch(gitDir: string): Promise<string | null> {
  const { code, stdout } = await runGit(["symbolic-ref", "-q", "HEAD"], { gitDir, okCodes: [0, 1] });
  const ref = stdout.toString("utf8").trim();
  return code === 0 && ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : null;
}

/** Points HEAD at `branch` (which need not exist yet): what clones check out and `HEAD` means. */
export async function setDefaultBranch(gitDir: string, branch: string): Promise<void> {
  await runRefWrite(gitDir, ["symbolic-ref", "HEAD", branchRef(branch)]);
}

/** True when the repository has no refs at all (nothing pushed yet). */
export async function isEmptyRepository(gitDir: string): Promise<boolean> {
  return (await gitText(["for-each-ref", "--count=1", "--format=%(refname)"], { gitDir })) === "";
}
