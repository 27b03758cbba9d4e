import { badRequest, notFound } from "@kiln/domain";
import { type FileAction, type FileAtRevision, GitError, readFile } from "@kiln/git";
import { DeleteFileInput, GetFileInput, WriteFileInput } from "@kiln/schemas";
import { mutation, query, type SignedInContext } from "../operation.js";
import { requireRepository } from "./access.js";
import { commitThroughApi } from "./api-commit.js";
import { contentBytes, relativePath, writablePath } from "./file-input.js";

/** A file as the files API reads it: the revision asked for, the path, and the blob with its commits. */
export interface RepositoryFile {
  ref: string;
  path: string;
  file: FileAtRevision;
}

/** What a write answers: the path committed (leading slashes gone), the branch, and the new commit. */
export interface FileCommit {
  file_path: string;
  branch_name: string;
  commit_id: string;
}

/** The failure of a refused file write, by what git refused and what the write meant to do. */
function fileRefusal(error: unknown, action: FileAction): unknown {
  if (!GitError.is(error) || error.subject !== "path") return error;
  const path = action.path;
  if (error.kind === "exists") {
    return badRequest({ reason: "file_exists" });
  }
  if (error.kind === "not_found") {
    return badRequest({
      reason: "file_missing",
      path,
      action: action.action === "delete" ? "delete" : "update",
    });
  }
  if (error.kind === "invalid") {
    return badRequest({ reason: "file_parent_is_file", path });
  }
  return error;
}

/** The bytes a write commits, decoded only once the caller is known to be allowed to write. */
const contentOf = (input: WriteFileInput) => contentBytes(input.content, input.encoding);

/** Commits one file change from a write's parameters; answers what the write answers. */
async function writeFile(
  ctx: SignedInContext,
  input: DeleteFileInput,
  /** Builds the change once access is checked and the path is accepted. */
  action: (path: string) => FileAction,
  creating = false,
): Promise<FileCommit> {
  const access = await requireRepository(ctx, input.id, "push_code");
  const change = action(writablePath(input.file_path, creating));
  try {
    const { commit } = await commitThroughApi(ctx, access, {
      branch: input.branch_name,
      message: input.commit_message,
      author_name: input.author_name,
      author_email: input.author_email,
      actions: [change],
    });
    return { file_path: change.path, branch_name: input.branch_name, commit_id: commit };
  } catch (error) {
    throw fileRefusal(error, change);
  }
}

/**
 * `/projects/:id/repository/files`: one file read at any revision, or written as a commit onto a
 * branch. Reading needs `download_code`; every write needs `push_code` (else 403) and is a real
 * commit under the same push rules, events and default-branch adoption as a `git push`.
 */
export const repositoryFiles = {
  /** The file at `ref`: `404 Commit Not Found` for an unknown revision, `404 File Not Found` for a missing file. */
  get: query("signed_in", GetFileInput, async (ctx, input): Promise<RepositoryFile> => {
    const { gitDir } = await requireRepository(ctx, input.id, "download_code");
    const path = relativePath(input.file_path);
    try {
      return { ref: input.ref, path, file: await readFile(gitDir, input.ref, path) };
    } catch (error) {
      if (GitError.is(error) && error.subject === "revision") throw notFound("commit");
      if (GitError.is(error) && error.subject === "path") throw notFound("file");
      throw error;
    }
  }),

  /** Adds a file; in an empty repository this is the first commit and its branch becomes the default. */
  create: mutation("signed_in", WriteFileInput, (ctx, input) =>
    writeFile(ctx, input, (path) => ({ action: "create", path, content: contentOf(input) }), true),
  ),

  /** Replaces an existing file's content (its mode is kept). */
  update: mutation("signed_in", WriteFileInput, (ctx, input) =>
    writeFile(ctx, input, (path) => ({ action: "update", path, content: contentOf(input) })),
  ),

  /** Removes an existing file. */
  remove: mutation("signed_in", DeleteFileInput, (ctx, input) =>
    writeFile(ctx, input, (path) => ({ action: "delete", path })),
  ),
};
