import { z } from "zod";
import { ProjectRef } from "./projects.js";

// ---------------------------------------------------------------------------------------- input

/** A ref, branch or path as a user sends it: non-empty, validated further by git's own rules. */
const GitName = z.string().min(1, { error: "can't be blank" });

/** `GET /projects/:id/repository/branches`. */
export const ListBranchesInput = z.object({ id: ProjectRef });
export type ListBranchesInput = z.infer<typeof ListBranchesInput>;

/** Routes that name one branch of a project (`:branch`, its slashes sent raw or URL-encoded). */
export const BranchRefInput = z.object({ id: ProjectRef, branch: GitName });
export type BranchRefInput = z.infer<typeof BranchRefInput>;

/** `PUT /projects/:id/repository/branches/:branch/protect`. */
export const ProtectBranchInput = BranchRefInput.extend({
  developers_can_push: z.boolean().optional(),
  developers_can_merge: z.boolean().optional(),
});
export type ProtectBranchInput = z.infer<typeof ProtectBranchInput>;

/** `POST /projects/:id/repository/branches`. */
export const CreateBranchInput = z.object({ id: ProjectRef, branch_name: GitName, ref: GitName });
export type CreateBranchInput = z.infer<typeof CreateBranchInput>;

/** `GET /projects/:id/repository/commits`: GitLab's own paging, `page` counting from 0. */
export const ListCommitsInput = z.object({
  id: ProjectRef,
  ref_name: GitName.optional(),
  since: z.string().optional(),
  until: z.string().optional(),
  path: GitName.optional(),
  page: z.number().int().min(0).default(0),
  // GitLab answers any size; the operation caps it at 100.
  per_page: z.number().int().min(1).default(20),
});
export type ListCommitsInput = z.infer<typeof ListCommitsInput>;

/** Routes that name one commit (a sha, or a branch or tag name). */
export const CommitRefInput = z.object({ id: ProjectRef, sha: GitName });
export type CommitRefInput = z.infer<typeof CommitRefInput>;

/** `GET /projects/:id/repository/tree`. */
export const TreeInput = z.object({
  id: ProjectRef,
  ref_name: GitName.optional(),
  path: z.string().optional(),
  recursive: z.boolean().optional(),
});
export type TreeInput = z.infer<typeof TreeInput>;

/** `GET /projects/:id/repository/blobs/:sha` and `…/commits/:sha/blob`: a file at a commit. */
export const BlobAtCommitInput = CommitRefInput.extend({ filepath: GitName });
export type BlobAtCommitInput = z.infer<typeof BlobAtCommitInput>;

/** `GET /projects/:id/repository/raw_blobs/:sha`. */
export const RawBlobInput = z.object({ id: ProjectRef, sha: GitName });
export type RawBlobInput = z.infer<typeof RawBlobInput>;

/** The archive formats GitLab 8.x accepts, by the name in the URL or the `format` parameter. */
export const ArchiveFormat = z.enum(["tar.gz", "tgz", "gz", "tar", "zip"]);
export type ArchiveFormat = z.infer<typeof ArchiveFormat>;

/** `GET /projects/:id/repository/archive[.format]`. */
export const ArchiveInput = z.object({
  id: ProjectRef,
  sha: GitName.optional(),
  format: ArchiveFormat.optional(),
});
export type ArchiveInput = z.infer<typeof ArchiveInput>;

/** `GET /projects/:id/repository/compare`. */
export const CompareInput = z.object({ id: ProjectRef, from: GitName, to: GitName });
export type CompareInput = z.infer<typeof CompareInput>;

/** `GET /projects/:id/repository/files`. */
export const GetFileInput = z.object({ id: ProjectRef, file_path: GitName, ref: GitName });
export type GetFileInput = z.infer<typeof GetFileInput>;

const FileCommit = {
  id: ProjectRef,
  file_path: GitName,
  branch_name: GitName,
  commit_message: GitName,
  author_email: z.string().optional(),
  author_name: z.string().optional(),
};

/** `POST` and `PUT /projects/:id/repository/files`: `content` as text, or base64 with `encoding=base64`. */
export const WriteFileInput = z.object({
  ...FileCommit,
  content: z.string(),
  encoding: z.enum(["text", "base64"]).optional(),
});
export type WriteFileInput = z.infer<typeof WriteFileInput>;

/** `DELETE /projects/:id/repository/files`. */
export const DeleteFileInput = z.object(FileCommit);
export type DeleteFileInput = z.infer<typeof DeleteFileInput>;

/** `GET /projects/:id/repository/tags`. */
export const ListTagsInput = z.object({ id: ProjectRef });
export type ListTagsInput = z.infer<typeof ListTagsInput>;

/** Routes that name one tag. */
export const TagRefInput = z.object({ id: ProjectRef, tag_name: GitName });
export type TagRefInput = z.infer<typeof TagRefInput>;

/** `POST /projects/:id/repository/tags`: an annotated tag when `message` is given. */
export const CreateTagInput = TagRefInput.extend({
  ref: GitName,
  message: z.string().optional(),
  release_description: z.string().optional(),
});
export type CreateTagInput = z.infer<typeof CreateTagInput>;

// ---------------------------------------------------------------------------------------- output

/** A commit as branches and tags show it (GitLab's raw commit hash). */
export const RawCommitJson = z.object({
  id: z.string(),
  message: z.string(),
  parent_ids: z.array(z.string()),
  authored_date: z.string(),
  author_name: z.string(),
  author_email: z.string(),
  committed_date: z.string(),
  committer_name: z.string(),
  committer_email: z.string(),
});
export type RawCommitJson = z.infer<typeof RawCommitJson>;

/** The spec's Branch, current form. */
export const BranchJson = z.object({
  name: z.string(),
  protected: z.boolean(),
  developers_can_push: z.boolean(),
  developers_can_merge: z.boolean(),
  commit: RawCommitJson,
});
export type BranchJson = z.infer<typeof BranchJson>;

/** GitLab's RepoTag. */
export const TagJson = z.object({
  name: z.string(),
  message: z.string().nullable(),
  /** Null for a tag of a tree or a blob. */
  commit: RawCommitJson.nullable(),
  release: z.object({ tag_name: z.string(), description: z.string() }).nullable(),
});
export type TagJson = z.infer<typeof TagJson>;

/** GitLab's RepoCommit: a commit in lists. */
export const CommitJson = z.object({
  id: z.string(),
  short_id: z.string(),
  title: z.string(),
  author_name: z.string(),
  author_email: z.string(),
  created_at: z.string(),
  committer_name: z.string(),
  committer_email: z.string(),
  message: z.string(),
});
export type CommitJson = z.infer<typeof CommitJson>;

/** GitLab's RepoCommitDetail: one commit with its parents and stats. */
export const CommitDetailJson = CommitJson.extend({
  parent_ids: z.array(z.string()),
  committed_date: z.string(),
  authored_date: z.string(),
  stats: z.object({ additions: z.number(), deletions: z.number(), total: z.number() }),
  status: z.string().nullable(),
});
export type CommitDetailJson = z.infer<typeof CommitDetailJson>;

/** GitLab's RepoDiff: one file's change. */
export const DiffJson = z.object({
  old_path: z.string(),
  new_path: z.string(),
  a_mode: z.string(),
  b_mode: z.string(),
  diff: z.string(),
  new_file: z.boolean(),
  renamed_file: z.boolean(),
  deleted_file: z.boolean(),
});
export type DiffJson = z.infer<typeof DiffJson>;

/**
 * A file's bytes at a revision, for clients that show it (the editor's diff): base64, as v3's
 * files API sends content, so that binary files survive JSON.
 */
export const BlobContentJson = z.object({
  /** The blob's id. */
  id: z.string(),
  size: z.number().int().min(0),
  encoding: z.literal("base64"),
  content: z.string(),
});
export type BlobContentJson = z.infer<typeof BlobContentJson>;

/** GitLab's Compare. */
export const CompareJson = z.object({
  commit: CommitJson.nullable(),
  commits: z.array(CommitJson),
  diffs: z.array(DiffJson),
  compare_timeout: z.boolean(),
  compare_same_ref: z.boolean(),
});
export type CompareJson = z.infer<typeof CompareJson>;

/** GitLab's RepoTreeObject. */
export const TreeObjectJson = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(["tree", "blob", "commit"]),
  path: z.string(),
  mode: z.string(),
});
export type TreeObjectJson = z.infer<typeof TreeObjectJson>;

/** `GET /projects/:id/repository/files`. */
export const FileJson = z.object({
  file_name: z.string(),
  file_path: z.string(),
  size: z.number(),
  encoding: z.literal("base64"),
  content: z.string(),
  ref: z.string(),
  blob_id: z.string(),
  commit_id: z.string(),
  last_commit_id: z.string(),
});
export type FileJson = z.infer<typeof FileJson>;

/** What `POST`, `PUT` and `DELETE /projects/:id/repository/files` answer. */
export const FileCommitJson = z.object({ file_path: z.string(), branch_name: z.string() });
export type FileCommitJson = z.infer<typeof FileCommitJson>;
