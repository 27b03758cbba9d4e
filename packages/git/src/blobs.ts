import { checkObjects, readObjects } from "./cat-file.js";
import { lastCommitFor } from "./commits.js";
import { GitError } from "./errors.js";
import { assertFilePath, assertObjectId, assertRevision } from "./validate.js";

/** A blob's bytes. */
export interface Blob {
  id: string;
  size: number;
  content: Buffer;
}

/**
 * The blob with id `sha` (full or an unambiguous abbreviation). Throws `invalid` (subject
 * `object`) for a non-hex id, `not_found` (subject `object`) when there is no such blob.
 */
export async function readBlob(gitDir: string, sha: string): Promise<Blob> {
  const [object] = await readObjects(gitDir, [assertObjectId(sha)]);
  if (object?.type !== "blob") throw new GitError("not_found", `no blob ${sha}`, "", "object");
  return { id: object.id, size: object.size, content: object.content };
}

/** A file at a revision, with what GitLab's file GET answers besides its name. */
export interface FileAtRevision extends Blob {
  /** The commit the revision names (GitLab's `commit_id`). */
  commitId: string;
  /** The newest commit up to it that changed the file (GitLab's `last_commit_id`). */
  lastCommitId: string;
}

/**
 * The file at `path` in the commit `rev` names (a symlink answers its target, never what it points
 * to: nothing outside the repository is read). Throws `not_found` subject `revision` for an unknown
 * revision, subject `path` for a path that is missing or not a file, `invalid` for a refused one.
 */
export async function readFile(gitDir: string, rev: string, path: string): Promise<FileAtRevision> {
  assertRevision(rev);
  assertFilePath(path);
  // The commit first, then everything from its id, so that a branch moving meanwhile cannot mix
  // two commits' answers.
  const [commit] = await checkObjects(gitDir, [`${rev}^{commit}`]);
  if (!commit) throw new GitError("not_found", `no commit ${JSON.stringify(rev)}`, "", "revision");
  const [[blob], lastCommitId] = await Promise.all([
    readObjects(gitDir, [`${commit.id}:${path}`]),
    lastCommitFor(gitDir, commit.id, path),
  ]);
  if (blob?.type !== "blob") throw new GitError("not_found", `no file ${path}`, "", "path");
  return {
    id: blob.id,
    size: blob.size,
    content: blob.content,
    commitId: commit.id,
    lastCommitId: lastCommitId ?? commit.id,
  };
}
