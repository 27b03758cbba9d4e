import { commitsBetween } from "./commits.js";
import { diffCommits } from "./diff.js";
import { GitError } from "./errors.js";
import { resolveCommits } from "./refs.js";
import type { DiffLimits, RawCommit, RepoDiff } from "./types.js";

/** GitLab's Compare, before presentation. */
export interface Comparison {
  /** The commits in `to` and not in `from`, oldest first. */
  commits: RawCommit[];
  /** The last of `commits` (the newest), or `null` when there are none. */
  commit: RawCommit | null;
  /** What `to` changes since the merge base (or since `from` itself with `straight`). */
  diffs: RepoDiff[];
  /** True when a diff limit cut `diffs` (GitLab's `compare_timeout`). */
  overflow: boolean;
  /** True when both sides name the same commit (GitLab's `compare_same_ref`). */
  same: boolean;
  fromId: string;
  toId: string;
}

/**
 * Compares two revisions as GitLab 8.x's `repository/compare`. Throws `not_found` (subject
 * `revision`) when either names no commit (GitLab answered an empty Compare then; the caller
 * decides), `invalid` for a refused revision.
 */
export async function compare(
  gitDir: string,
  from: string,
  to: string,
  options: DiffLimits & { straight?: boolean } = {},
): Promise<Comparison> {
  const [fromId, toId] = await resolveCommits(gitDir, [from, to]);
  if (!fromId || !toId) throw new GitError("not_found", `no commit ${fromId ? to : from}`, "", "revision");
  if (fromId === toId) {
    return { commits: [], commit: null, diffs: [], overflow: false, same: true, fromId, toId };
  }
  const [commits, { diffs, overflow }] = await Promise.all([
    commitsBetween(gitDir, fromId, toId),
    diffCommits(gitDir, fromId, toId, options),
  ]);
  return { commits, commit: commits.at(-1) ?? null, diffs, overflow, same: false, fromId, toId };
}
