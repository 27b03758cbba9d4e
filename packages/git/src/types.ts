/**
 * The shapes this package answers. Field names follow GitLab 8.x's API entities (snake_case) so a
 * presenter can pass them through; dates are ISO 8601 with the offset git recorded
 * (`2016-01-02T03:04:05+01:00`, git's `%aI`).
 */

/** A commit as GitLab's branches and tags show it (its "raw commit hash"). */
export interface RawCommit {
  id: string;
  /** The message exactly as stored (usually ending with a newline). */
  message: string;
  parent_ids: string[];
  authored_date: string;
  author_name: string;
  author_email: string;
  committed_date: string;
  committer_name: string;
  committer_email: string;
}

/** Lines added and removed by a commit against its first parent (no rename detection). */
export interface CommitStats {
  additions: number;
  deletions: number;
  total: number;
}

/** One commit with its stats (GitLab's RepoCommitDetail without the presentation fields). */
export interface CommitDetail extends RawCommit {
  stats: CommitStats;
}

/** One file's change, as GitLab's RepoDiff. */
export interface RepoDiff {
  old_path: string;
  new_path: string;
  /** Octal mode before (`"100644"`), `"0"` for a new file. */
  a_mode: string;
  /** Octal mode after, `"0"` for a deleted file. */
  b_mode: string;
  /**
   * Unified diff from the `---` line on (no `diff --git` or `index` header), `Binary files … differ`
   * for binary files, `""` for a pure rename or mode change and for a diff over the size limit.
   */
  diff: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
}

/** Limits of a diff, so that a huge change cannot exhaust the server. */
export interface DiffLimits {
  /** A file whose diff text is longer is answered with `diff: ""` (default 102,400, as GitLab). */
  maxPatchBytes?: number;
  /** At most this many files are answered (default: all). */
  maxFiles?: number;
}

/** A list of file changes and whether a limit cut it (GitLab's `compare_timeout`). */
export interface DiffResult {
  diffs: RepoDiff[];
  /** True when a file's diff was emptied for its size or files were left out. */
  overflow: boolean;
}

/** Who made a commit or tag: name, e-mail and (default: now) when. */
export interface GitIdentity {
  name: string;
  email: string;
  date?: Date;
}
