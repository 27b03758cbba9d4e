/** The all-zero sha git uses for "no commit": the old value of a created ref, the new one of a deleted ref. */
export const ZERO_SHA = "0000000000000000000000000000000000000000";

/** True for an all-zero sha (of any length), git's "no commit". */
export function isZeroSha(sha: string): boolean {
  return /^0+$/.test(sha);
}

/** GitLab keeps at most this many commits in a push's data; `total_commits_count` has them all. */
export const PUSH_DATA_COMMIT_LIMIT = 20;

/** A commit as push data describes it. */
export interface PushCommit {
  id: string;
  message: string;
  timestamp: string;
  url: string;
  author: { name: string; email: string };
}

/** The `data` of a push event, as the spec's Project event has it. */
export interface PushData {
  before: string;
  after: string;
  ref: string;
  user_id: number;
  user_name: string;
  repository: { name: string; url: string; description: string | null; homepage: string };
  /** The latest {@link PUSH_DATA_COMMIT_LIMIT} at most, oldest first (as GitLab 8.x). */
  commits: PushCommit[];
  total_commits_count: number;
}

/** One accepted ref update of a push, with the commits it brought (oldest first; the latest ones when capped). */
export interface PushedRef {
  ref: string;
  before: string;
  after: string;
  commits: PushCommit[];
  totalCommits: number;
}

/**
 * The push data of one ref update: who pushed, to which repository, and up to
 * {@link PUSH_DATA_COMMIT_LIMIT} of its commits.
 */
export function pushData(
  pushed: PushedRef,
  pusher: { id: number; name: string },
  repository: PushData["repository"],
): PushData {
  return {
    before: pushed.before,
    after: pushed.after,
    ref: pushed.ref,
    user_id: pusher.id,
    user_name: pusher.name,
    repository,
    commits: pushed.commits.slice(-PUSH_DATA_COMMIT_LIMIT),
    total_commits_count: pushed.totalCommits,
  };
}
