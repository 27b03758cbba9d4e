import type { Readable } from "node:stream";
import { notFound } from "@kiln/domain";
import {
  type ArchiveFormat,
  archive,
  archiveFormat,
  archivePrefix,
  type Blob,
  type Comparison,
  compare,
  listTree,
  type RepoTreeObject,
  readBlob,
  resolveCommit,
} from "@kiln/git";
import { ArchiveInput, BlobAtCommitInput, CompareInput, RawBlobInput, TreeInput } from "@kiln/schemas";
import { query } from "../operation.js";
import { requireRepository } from "./access.js";
import { isNothingThere, readOr404, refOrDefault } from "./reads.js";

/**
 * How long one archive download may keep its git process. Git waits while a slow client reads,
 * so the limit is generous; without one, a client that stops reading without disconnecting would
 * hold a process for ever.
 */
const ARCHIVE_TIMEOUT_MS = 30 * 60_000;

/** One entry of a tree listing (GitLab's RepoTreeObject before presentation). */
export type RepositoryTreeEntry = RepoTreeObject;

/** A blob's bytes, with the path it was found at when it was asked for by path. */
export type RepositoryBlob = Blob & { path?: string };

/** An archive being written, with what its download is named after. */
export interface RepositoryArchive {
  /** The project's path, the start of the file name. */
  projectPath: string;
  /** The revision as asked for (or the default branch). */
  ref: string;
  /** The commit archived. */
  commit: string;
  format: ArchiveFormat;
  /** `<project>-<ref>-<sha>`: the top directory inside the archive and the file name. */
  prefix: string;
  /** The bytes as git writes them; destroying it (a client gone) stops git. */
  stream: Readable;
  /** Settles when git is done: a rejection means the bytes are incomplete. */
  finished: Promise<void>;
}

/** GitLab's Compare before presentation. */
export type RepositoryComparison = Omit<Comparison, "fromId" | "toId">;

/** What GitLab 8.x answers when a side of a comparison names no commit: nothing to compare. */
const NOTHING_TO_COMPARE: RepositoryComparison = {
  commits: [],
  commit: null,
  diffs: [],
  overflow: false,
  same: false,
};

/**
 * Reads of a project's repository: its tree, files, blobs, archives and comparisons, for anyone
 * with `download_code` (reporters and up; anyone on public and internal projects). Others who may
 * read the project get 403; those who may not, 404 `Project Not Found`. GitLab 8.15 serves these
 * without a sign-in on public projects, so they accept anonymous callers.
 */
export const repository = {
  /**
   * The entries of `path` (default the root) at `ref_name` (default: the default branch, else
   * `master`): directories first, then files, then submodules; every level below with
   * `recursive`. An unknown ref (or a repository with nothing pushed) is `404 Tree Not Found`; a
   * path that is not a directory there is an empty list, as in GitLab.
   */
  tree: query("anyone", TreeInput, async (ctx, input): Promise<RepoTreeObject[]> => {
    const { project, gitDir } = await requireRepository(ctx, input.id);
    const ref = refOrDefault(project, input.ref_name);
    try {
      return await readOr404(
        () => listTree(gitDir, ref, { path: input.path ?? "", recursive: input.recursive ?? false }),
        { revision: "tree" },
      );
    } catch (error) {
      if (isNothingThere(error, ["path"])) return [];
      throw error;
    }
  }),

  /**
   * The file at `filepath` in the commit `sha` names (a sha, branch or tag): `404 Commit Not
   * Found` for an unknown revision, `404 File Not Found` for a path that is not a file there. A
   * leading `/` is ignored, as GitLab does. Found through its directory's listing, so that no
   * history is walked to answer it.
   */
  blobAtCommit: query("anyone", BlobAtCommitInput, async (ctx, input): Promise<RepositoryBlob> => {
    const { gitDir } = await requireRepository(ctx, input.id);
    const path = input.filepath.replace(/^\/+/, "");
    const slash = path.lastIndexOf("/");
    const entries = await readOr404(
      () => listTree(gitDir, input.sha, { path: slash < 0 ? "" : path.slice(0, slash) }),
      { revision: "commit", path: "file" },
    );
    const entry = entries.find((candidate) => candidate.path === path && candidate.type === "blob");
    if (!entry) throw notFound("file");
    const blob = await readOr404(() => readBlob(gitDir, entry.id), { object: "file" });
    return { ...blob, path };
  }),

  /** The blob with id `sha` (full or abbreviated): `404 Blob Not Found` for anything else. */
  rawBlob: query("anyone", RawBlobInput, async (ctx, input): Promise<RepositoryBlob> => {
    const { gitDir } = await requireRepository(ctx, input.id);
    return readOr404(() => readBlob(gitDir, input.sha.toLowerCase()), { object: "blob" });
  }),

  /**
   * Starts an archive of `sha` (a sha, branch or tag; default: the default branch, else
   * `master`) in `format` (default `tar.gz`), everything under `<project>-<ref>-<sha>/`, as
   * GitLab names it. An unknown revision is `404 File Not Found` (GitLab's answer), before any
   * byte is written. The caller must consume or destroy the stream.
   */
  archive: query("anyone", ArchiveInput, async (ctx, input): Promise<RepositoryArchive> => {
    const { project, gitDir } = await requireRepository(ctx, input.id);
    // The schema admits only the formats git writes itself.
    const format = archiveFormat(input.format) ?? "tar.gz";
    const ref = refOrDefault(project, input.sha);
    const commit = await readOr404(() => resolveCommit(gitDir, ref), { revision: "file" });
    const prefix = archivePrefix(project.path, ref, commit);
    const controller = new AbortController();
    const running = await readOr404(
      () =>
        archive(gitDir, commit, { format, prefix, signal: controller.signal, timeoutMs: ARCHIVE_TIMEOUT_MS }),
      { revision: "file" },
    );
    // Destroyed before its end: nobody reads any more, so git stops now rather than at its next write.
    running.stream.once("close", () => {
      if (!running.stream.readableEnded) controller.abort();
    });
    return {
      projectPath: project.path,
      ref,
      commit,
      format,
      prefix,
      stream: running.stream,
      finished: running.done,
    };
  }),

  /**
   * What `to` has that `from` has not: its commits oldest first, the newest of them, and the
   * changes since the merge base. The same commit on both sides is `compare_same_ref`; a side that
   * names no commit compares as nothing at all (GitLab 8.x answers an empty Compare, not a 404).
   */
  compare: query("anyone", CompareInput, async (ctx, input): Promise<RepositoryComparison> => {
    const { gitDir } = await requireRepository(ctx, input.id);
    try {
      const { fromId: _from, toId: _to, ...comparison } = await compare(gitDir, input.from, input.to);
      return comparison;
    } catch (error) {
      if (isNothingThere(error, ["revision"])) return NOTHING_TO_COMPARE;
      throw error;
    }
  }),
};
