import { GitError } from "./errors.js";
import { runRefWrite } from "./housekeeping/locks.js";

/** The all-zeros id `update-ref` reads as "must not exist", in the length of `like`. */
export function zeroId(like: string): string {
  return "0".repeat(like.length === 64 ? 64 : 40);
}

/** Turns `update-ref`'s refusal into a kind: lost race, existing name, or a real failure. */
function refUpdateError(error: unknown, ref: string): unknown {
  if (!GitError.is(error, "failed")) return error;
  const { stderr } = error;
  if (/reference already exists|exists; cannot create/.test(stderr)) {
    return new GitError("exists", `${ref} already exists`, stderr);
  }
  if (/but expected|unable to resolve reference|\.lock': File exists/.test(stderr)) {
    return new GitError("ref_moved", `${ref} moved while it was being updated`, stderr);
  }
  return error;
}

/**
 * Sets `ref` to `newId` only if it still is `oldId` (compare-and-swap), or, with `oldId` null,
 * only if it does not exist yet. Throws `ref_moved` when the ref changed (or a running writer held
 * its lock), `exists` when a ref that had to be new exists (or a ref named like a directory of it).
 * A lock that a killed process left and nobody holds is removed, and the update tried again.
 */
export async function updateRef(
  gitDir: string,
  ref: string,
  newId: string,
  oldId: string | null,
): Promise<void> {
  try {
    await runRefWrite(gitDir, ["update-ref", "--no-deref", ref, newId, oldId ?? zeroId(newId)]);
  } catch (error) {
    throw refUpdateError(error, ref);
  }
}

/** Deletes `ref` only if it still is `oldId`; throws `ref_moved` otherwise. */
export async function deleteRef(gitDir: string, ref: string, oldId: string): Promise<void> {
  try {
    await runRefWrite(gitDir, ["update-ref", "--no-deref", "-d", ref, oldId]);
  } catch (error) {
    throw refUpdateError(error, ref);
  }
}
