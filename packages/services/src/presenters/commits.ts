import type { RawCommit } from "@kiln/git";
import type { CommitJson } from "@kiln/schemas";

/** GitLab 8.x's stand-in title for a commit whose message is blank. */
const NO_MESSAGE = "--no commit message";

/**
 * A commit's title as GitLab 8.x shows it: the first line of its message, or, when that line is
 * over 100 characters, its first 80 and an ellipsis, so lists stay readable.
 */
export function commitTitle(message: string): string {
  if (message.trim() === "") return NO_MESSAGE;
  const first = message.split("\n", 1)[0] ?? "";
  const characters = Array.from(first);
  return characters.length > 100 ? `${characters.slice(0, 80).join("")}…` : first;
}

/**
 * GitLab's RepoCommit: `short_id` is 11 characters (GitLab's `id[0..10]`) and `created_at` the
 * commit date, both as GitLab 8.x answers them, so clients that match on them keep working.
 */
export function presentCommit(commit: RawCommit): CommitJson {
  return {
    id: commit.id,
    short_id: commit.id.slice(0, 11),
    title: commitTitle(commit.message),
    author_name: commit.author_name,
    author_email: commit.author_email,
    created_at: commit.committed_date,
    committer_name: commit.committer_name,
    committer_email: commit.committer_email,
    message: commit.message,
  };
}
