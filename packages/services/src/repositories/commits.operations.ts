import {
  type CommitDetail,
  commitDiff,
  getCommit,
  listCommits,
  type RawCommit,
  type RepoDiff,
} from "@kiln/git";
import { CommitRefInput, ListCommitsInput } from "@kiln/schemas";
import { commitStatusOf } from "../ci/commit-statuses.js";
import type { PipelineStatus } from "../ci/contract.js";
import { query } from "../operation.js";
import { requireRepository } from "./access.js";
import { isNothingThere, parseTimestamp, readOr404, refOrDefault } from "./reads.js";

/** A commit as lists show it (GitLab's RepoCommit before presentation). */
export type RepositoryCommit = RawCommit;
/**
 * One commit with its parents and stats, and the status of its pipelines (GitLab's
 * RepoCommitDetail before presentation; null without pipelines).
 */
export type RepositoryCommitDetail = CommitDetail & { status?: PipelineStatus | null };
/** One file's change (GitLab's RepoDiff before presentation). */
export type RepositoryDiff = RepoDiff;

/** GitLab's commit list has no upper bound on `per_page`; the spec's maximum keeps a page cheap. */
const MAX_PER_PAGE = 100;

/**
 * A project's commits, read from its repository by anyone with `download_code` (reporters and up,
 * anyone signed in on public and internal projects); others who may read the project get 403,
 * those who may not get 404 `Project Not Found`. As GitLab 8.x's commits API, a sign-in is needed.
 */
export const repositoryCommits = {
  /**
   * The history of `ref_name` (default: the default branch, else `master`), newest first, paged
   * as GitLab 8.x pages it: `page` counts from 0 and there are no pagination headers. An unknown
   * ref, or a repository with nothing pushed yet, has no history: an empty list, as in GitLab.
   */
  list: query("signed_in", ListCommitsInput, async (ctx, input): Promise<RawCommit[]> => {
    const since = input.since === undefined ? undefined : parseTimestamp("since", input.since);
    const until = input.until === undefined ? undefined : parseTimestamp("until", input.until);
    const { project, gitDir } = await requireRepository(ctx, input.id);
    const limit = Math.min(input.per_page, MAX_PER_PAGE);
    const path = input.path?.replace(/^\/+/, "");
    try {
      return await listCommits(gitDir, {
        ref: refOrDefault(project, input.ref_name),
        skip: input.page * limit,
        limit,
        ...(since ? { since } : {}),
        ...(until ? { until } : {}),
        // A path of only slashes is the whole repository.
        ...(path ? { path } : {}),
      });
    } catch (error) {
      if (isNothingThere(error, ["revision", "path"])) return [];
      throw error;
    }
  }),

  /**
   * One commit (by sha, or the branch or tag name) with its stats and the status of its
   * pipelines; `404 Commit Not Found` else.
   */
  get: query("signed_in", CommitRefInput, async (ctx, input): Promise<RepositoryCommitDetail> => {
    const { project, gitDir } = await requireRepository(ctx, input.id);
    const commit = await readOr404(() => getCommit(gitDir, input.sha), { revision: "commit" });
    return { ...commit, status: await commitStatusOf(ctx.runtime.stores, project.id, commit.id) };
  }),

  /**
   * What a commit changed against its first parent (everything, for a root commit). A file whose
   * patch is over the size limit is listed with an empty `diff`, so one huge file cannot make the
   * answer huge.
   */
  diff: query("signed_in", CommitRefInput, async (ctx, input): Promise<RepoDiff[]> => {
    const { gitDir } = await requireRepository(ctx, input.id);
    const { diffs } = await readOr404(() => commitDiff(gitDir, input.sha), { revision: "commit" });
    return diffs;
  }),
};
