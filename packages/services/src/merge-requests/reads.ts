import {
  closesIssues,
  MERGE_REQUEST_STATE_FILTERS,
  type MergeRequest,
  type Page,
  PROJECT_ABILITY_LEVELS,
  pageRequest,
} from "@kiln/domain";
import { commitsBetween, diffBetween, GitError, type RawCommit, type RepoDiff } from "@kiln/git";
import type { ClosesIssuesInput, ListMergeRequestsInput, ListMyMergeRequestsInput } from "@kiln/schemas";
import { type MergeRequestAccess, mayReadIssue } from "../issuables/access.js";
import { type IssueView, issueViews, type MergeRequestView, mergeRequestViews } from "../issuables/views.js";
import type { SignedInContext } from "../operation.js";
import { requireProject } from "../projects/access.js";
import { mergeSides } from "./git.js";

/** A merge request with the diff of each file it changes. */
export interface MergeRequestChanges {
  view: MergeRequestView;
  changes: RepoDiff[];
}

/**
 * `GET /projects/:id/merge_requests`: the project's merge requests, filtered by `state` and `iid`,
 * ordered, one page; 404 when the project is hidden, 403 when the caller may not read its merge
 * requests (GitLab 8.13+'s `authorize! :read_merge_request`: guests of private projects).
 */
export async function listMergeRequests(
  ctx: SignedInContext,
  input: ListMergeRequestsInput,
): Promise<Page<MergeRequestView>> {
  const access = await requireProject(ctx, input.id, "read_merge_request");
  const page = await ctx.runtime.stores.mergeRequests.list(
    { kind: "project", projectId: access.project.id },
    { states: MERGE_REQUEST_STATE_FILTERS[input.state], iids: input.iid },
    { by: input.order_by, direction: input.sort },
    pageRequest(input),
  );
  return { ...page, items: await mergeRequestViews(ctx, page.items) };
}

/**
 * The caller's merge requests (opened by them, or assigned to them) in every project whose merge
 * requests they may read: public and internal ones (internal unless external), private ones where
 * they are a reporter or above, as {@link listMergeRequests} decides per project. Administrators:
 * every project.
 */
export async function listMyMergeRequests(
  ctx: SignedInContext,
  input: ListMyMergeRequestsInput,
): Promise<Page<MergeRequestView>> {
  const { user } = ctx.actor;
  const reader = { userId: user.id, external: user.external };
  const page = await ctx.runtime.stores.mergeRequests.list(
    user.is_admin
      ? { kind: "all" }
      : { kind: "readable", reader, minLevel: PROJECT_ABILITY_LEVELS.read_merge_request },
    {
      states: MERGE_REQUEST_STATE_FILTERS[input.state],
      ...(input.scope === "created_by_me" ? { authorId: user.id } : { assigneeId: user.id }),
    },
    { by: input.order_by, direction: input.sort },
    pageRequest(input),
  );
  return { ...page, items: await mergeRequestViews(ctx, page.items) };
}

/**
 * The two revisions whose difference the merge request is: the merge commit's parents once
 * merged, else the target and source heads now. Null when a branch is gone.
 */
async function diffRange(
  ctx: SignedInContext,
  mr: MergeRequest,
): Promise<{ gitDir: string; from: string; to: string } | null> {
  const sides = await mergeSides(ctx.runtime, mr);
  if (mr.state === "merged" && mr.merge_commit_sha) {
    return { gitDir: sides.gitDir, from: `${mr.merge_commit_sha}^1`, to: `${mr.merge_commit_sha}^2` };
  }
  if (sides.source === null || sides.target === null) return null;
  return { gitDir: sides.gitDir, from: sides.target, to: sides.source };
}

/** Runs a git read of the range, answering `empty` when the range names nothing any more. */
async function readRange<T>(
  ctx: SignedInContext,
  mr: MergeRequest,
  empty: T,
  read: (gitDir: string, from: string, to: string) => Promise<T>,
): Promise<T> {
  const range = await diffRange(ctx, mr);
  if (!range) return empty;
  try {
    return await read(range.gitDir, range.from, range.to);
  } catch (error) {
    if (GitError.is(error, "not_found")) return empty;
    throw error;
  }
}

/** `GET …/commits`: the source's commits not in the target, newest first (not paginated). */
export function mergeRequestCommits(ctx: SignedInContext, access: MergeRequestAccess): Promise<RawCommit[]> {
  return readRange(ctx, access.mergeRequest, [], (gitDir, from, to) =>
    commitsBetween(gitDir, from, to, { newestFirst: true }),
  );
}

/** `GET …/changes`: what the source changes since it left the target (`git diff target...source`). */
export async function mergeRequestChanges(
  ctx: SignedInContext,
  access: MergeRequestAccess,
  mergeRequest: MergeRequest,
): Promise<MergeRequestChanges> {
  const [views, changes] = await Promise.all([
    mergeRequestViews(ctx, [mergeRequest]),
    readRange(
      ctx,
      mergeRequest,
      [] as RepoDiff[],
      async (gitDir, from, to) => (await diffBetween(gitDir, from, to)).diffs,
    ),
  ]);
  const [view] = views;
  if (!view) throw new Error(`merge request ${access.mergeRequest.id} has no project`);
  return { view, changes };
}

/**
 * `GET …/closes_issues`: the issues of the target project its title and description close
 * ("Closes #1", "fixes #2 and #3"), those the caller may read, one page.
 */
export async function closedIssues(
  ctx: SignedInContext,
  access: MergeRequestAccess,
  input: ClosesIssuesInput,
): Promise<Page<IssueView>> {
  const mr = access.mergeRequest;
  const iids = closesIssues(`${mr.title}\n${mr.description ?? ""}`);
  const found = iids.length === 0 ? [] : await ctx.runtime.stores.issues.findByIids(access.project.id, iids);
  const byIid = new Map(found.map((issue) => [issue.iid, issue]));
  const readable = iids
    .map((iid) => byIid.get(iid))
    .filter((issue) => issue !== undefined && mayReadIssue(access, issue, ctx.actor.user));
  const { page, perPage } = pageRequest(input);
  const slice = readable
    .slice((page - 1) * perPage, page * perPage)
    .flatMap((issue) => (issue ? [issue] : []));
  return { items: await issueViews(ctx, slice), page, perPage, total: readable.length };
}
