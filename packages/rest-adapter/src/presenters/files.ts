import type { FileCommitJson, FileJson } from "@kiln/schemas";
import type { FileCommit, RepositoryFile } from "@kiln/services";

/** A file as GitLab 8.x's files API answers it: always base64, so binary files survive JSON. */
export function presentFile({ ref, path, file }: RepositoryFile): FileJson {
  return {
    file_name: path.slice(path.lastIndexOf("/") + 1),
    file_path: path,
    size: file.size,
    encoding: "base64",
    content: file.content.toString("base64"),
    ref,
    blob_id: file.id,
    commit_id: file.commitId,
    last_commit_id: file.lastCommitId,
  };
}

/** A file write's answer: the path and the branch, not the commit (GitLab 8.x shows none). */
export function presentFileCommit(written: FileCommit): FileCommitJson {
  return { file_path: written.file_path, branch_name: written.branch_name };
}
