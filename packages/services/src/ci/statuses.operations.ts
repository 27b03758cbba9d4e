import { notFound, type Page, type Project, pageRequest, type User } from "@kiln/domain";
import { CommitStatusesInput, CreateCommitStatusInput } from "@kiln/schemas";
import type { CiBuild } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { mutation, query } from "../operation.js";
import { requireProject } from "../projects/access.js";
import { postCommitStatus, postedStatus, refOfStatus } from "./commit-statuses.js";
import { latestBuilds } from "./status.js";
import { commitOrNull } from "./views.js";

/** A commit status as 8.x's CommitStatus entity shows it: the status (or build) and its author. */
export interface CommitStatusView {
  status: CiBuild;
  author: User | null;
}

/** The commit's full sha; `404 Commit Not Found` when the repository lacks it. */
async function requireCommit(ctx: Context, project: Project, sha: string): Promise<string> {
  const commit = await commitOrNull(ctx.runtime, project, sha);
  if (!commit) throw notFound("commit");
  return commit.id;
}

/** The views of statuses, each author read once. */
async function statusViews(ctx: Context, statuses: readonly CiBuild[]): Promise<CommitStatusView[]> {
  const users = await ctx.runtime.stores.users.findByIds(
    statuses.flatMap((status) => (status.user_id === null ? [] : [status.user_id])),
  );
  return statuses.map((status) => ({
    status,
    author: status.user_id === null ? null : (users.get(status.user_id) ?? null),
  }));
}

/**
 * Commit statuses (8.x's `lib/api/commit_statuses.rb`): the builds and external statuses of a
 * commit's pipelines, read by those who may read commit statuses (reporters and up; anyone signed
 * in on public projects), and statuses posted by an external CI (developers and up).
 */
export const commitStatuses = {
  /**
   * The statuses of a commit, oldest first, filtered by `ref`, `stage` and `name`: the latest of
   * each name per pipeline unless `all`. An empty list for a commit with none.
   */
  list: query("signed_in", CommitStatusesInput, async (ctx, input): Promise<Page<CommitStatusView>> => {
    const { project } = await requireProject(ctx, input.id, "read_commit_status");
    const sha = await requireCommit(ctx, project, input.sha);
    const every = (await ctx.runtime.stores.ciBuilds.ofSha(project.id, sha, null)).reverse();
    const statuses = (input.all ? every : latestBuilds(every)).filter(
      (status) =>
        (input.ref === undefined || status.ref === input.ref) &&
        (input.stage === undefined || status.stage === input.stage) &&
        (input.name === undefined || status.name === input.name),
    );
    const page = pageRequest(input);
    const items = statuses.slice((page.page - 1) * page.perPage, page.page * page.perPage);
    return { items: await statusViews(ctx, items), ...page, total: statuses.length };
  }),

  /**
   * Posts the state of an external CI for a commit: `pending`, `running`, `success`, `failed` or
   * `canceled`, in the pipeline of the commit and `ref` (by default the first branch holding
   * the commit). 400 with 8.x's state machine message for a move the status cannot make.
   */
  create: mutation("signed_in", CreateCommitStatusInput, async (ctx, input): Promise<CommitStatusView> => {
    const { project } = await requireProject(ctx, input.id, "create_commit_status");
    const sha = await requireCommit(ctx, project, input.sha);
    const ref = await refOfStatus(ctx.runtime, project, sha, input.ref);
    const status = await postCommitStatus(
      ctx.runtime,
      postedStatus(input, project, sha, ref, ctx.actor.user.id),
    );
    return { status, author: ctx.actor.user };
  }),
};
