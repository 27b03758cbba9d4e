import { readObjects } from "./cat-file.js";
import { parseCommitObject } from "./commit-object.js";
import { GitError } from "./errors.js";
import { listRefs } from "./ref-listing.js";
import { deleteRef, updateRef } from "./ref-update.js";
import { readRef } from "./refs.js";
import type { RawCommit } from "./types.js";
import { assertRevision, branchRef } from "./validate.js";

/** A branch and the commit at its head (protection lives in the database, not here). */
export interface RepoBranch {
  name: string;
  commit: RawCommit;
}

const HEADS = "refs/heads/";

/** Every branch with its head commit, sorted by name (byte order, as GitLab), in one git process. */
export async function listBranches(gitDir: string): Promise<RepoBranch[]> {
  const refs = await listRefs(gitDir, [HEADS]);
  const branches: RepoBranch[] = [];
  for (const { ref, object } of refs) {
    if (object.type !== "commit") continue; // a branch must point to a commit; skip a broken one
    branches.push({ name: ref.slice(HEADS.length), commit: parseCommitObject(object.id, object.raw) });
  }
  return branches;
}

/** One branch, or `null` when there is none of that name. Throws `invalid` for a name git refuses. */
export async function findBranch(gitDir: string, name: string): Promise<RepoBranch | null> {
  const ref = branchRef(name);
  const match = (await listRefs(gitDir, [ref])).find((listed) => listed.ref === ref);
  if (match?.object.type !== "commit") return null;
  return { name, commit: parseCommitObject(match.object.id, match.object.raw) };
}

/**
 * Creates branch `name` at the commit `startPoint` (a branch, tag or sha) names. Throws, in
 * GitLab's order: `invalid` subject `branch` (a name git refuses), `exists` subject `branch`
 * (the name is taken, or a branch is named like a directory of it), `invalid` subject `revision`
 * (the start point names no commit).
 */
export async function createBranch(gitDir: string, name: string, startPoint: string): Promise<RepoBranch> {
  const ref = branchRef(name);
  assertRevision(startPoint);
  const [existing, [start]] = await Promise.all([
    readRef(gitDir, ref),
    readObjects(gitDir, [`${startPoint}^{commit}`]),
  ]);
  if (existing) throw new GitError("exists", `branch ${name} already exists`, "", "branch");
  if (!start)
    throw new GitError("invalid", `invalid reference ${JSON.stringify(startPoint)}`, "", "revision");
  try {
    await updateRef(gitDir, ref, start.id, null);
  } catch (error) {
    if (GitError.is(error, "exists") || GitError.is(error, "ref_moved")) {
      throw new GitError("exists", `branch ${name} already exists`, error.stderr, "branch");
    }
    throw error;
  }
  return { name, commit: parseCommitObject(start.id, start.content) };
}

/**
 * Deletes branch `name`, only if it still points to `expected` when given. Answers the commit it
 * pointed to. Throws `not_found` (subject `branch`) when there is no such branch, `ref_moved` when
 * it moved meanwhile. Refusing the default or a protected branch is the caller's business.
 */
export async function deleteBranch(gitDir: string, name: string, expected?: string): Promise<string> {
  const ref = branchRef(name);
  const id = await readRef(gitDir, ref);
  if (!id) throw new GitError("not_found", `no branch ${name}`, "", "branch");
  if (expected !== undefined && expected !== id) {
    throw new GitError("ref_moved", `branch ${name} is at ${id}, not ${expected}`, "", "branch");
  }
  await deleteRef(gitDir, ref, id);
  return id;
}
