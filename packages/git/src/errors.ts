/** Why a git operation failed, as a value callers can switch on. */
export type GitErrorKind =
  /** A ref, commit, tree, blob or path that does not exist. */
  | "not_found"
  /** A ref name, path or revision that git refuses, or that could leave the repository. */
  | "invalid"
  /** Something already exists under that name (a branch, a tag, a repository). */
  | "exists"
  /** A ref moved between reading and updating it (the compare-and-swap lost). */
  | "ref_moved"
  /** A merge that cannot be made without conflicts. */
  | "conflict"
  /** The git process ran past its time limit or was cancelled. */
  | "aborted"
  /** Anything else git reported: a bug or a broken repository. */
  | "failed";

/**
 * What a failure is about, when the same kind can concern different things (an unknown commit
 * versus an unknown file, an invalid branch name versus an invalid start point), so that a caller
 * can answer GitLab's distinct messages without reading ours.
 */
export type GitErrorSubject =
  /** A revision (branch, tag or sha) to read or start from. */
  | "revision"
  /** A branch name (to create, delete, merge into, commit onto). */
  | "branch"
  /** A tag name. */
  | "tag"
  /** A file or directory path inside a tree. */
  | "path"
  /** An object id (a blob sha). */
  | "object"
  /** An author, committer or tagger identity. */
  | "identity"
  /** The repository itself (on disk). */
  | "repository";

/** A failure of a git operation; `kind` says which, `stderr` keeps git's own words for logs. */
export class GitError extends Error {
  override readonly name = "GitError";

  constructor(
    readonly kind: GitErrorKind,
    message: string,
    readonly stderr = "",
    /** What the failure is about, when known. */
    readonly subject?: GitErrorSubject,
  ) {
    super(message);
  }

  /** True when `error` is a {@link GitError}, optionally of the given kind. */
  static is(error: unknown, kind?: GitErrorKind): error is GitError {
    return error instanceof GitError && (kind === undefined || error.kind === kind);
  }
}
