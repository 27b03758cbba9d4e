import { type MergeRequest, notModified, type Page } from "@kiln/domain";
import type { RawCommit } from "@kiln/git";
import {
  AcceptMergeRequestInput,
  ClosesIssuesInput,
  CreateMergeRequestInput,
  ListMergeRequestsInput,
  ListMyMergeRequestsInput,
  MergeRequestRefInput,
  UpdateMergeRequestInput,
} from "@kiln/schemas";
import { requireMergeRequest } from "../issuables/access.js";
import { markTodo } from "../issuables/todos.js";
import { type IssueView, type MergeRequestView, mergeRequestView } from "../issuables/views.js";
import { mutation, query, type SignedInContext } from "../operation.js";
import { deleteTodoTarget } from "../todos/changes.js";
import { type TodoView, todoView } from "../todos/views.js";
import { acceptMergeRequest, cancelMergeWhenBuildSucceeds } from "./accept.js";
import { createMergeRequest } from "./create.js";
import { settleMergeRequest } from "./finish.js";
import {
  closedIssues,
  listMergeRequests,
  listMyMergeRequests,
  type MergeRequestChanges,
  mergeRequestChanges,
  mergeRequestCommits,
} from "./reads.js";
import { withCheckedStatus } from "./refresh.js";
import { updateMergeRequest } from "./update.js";

/**
 * The merge request named by the input, readable by the caller, a merge of it cut short by a crash
 * finished, its status checked if it is unchecked.
 */
async function readable(ctx: SignedInContext, input: MergeRequestRefInput) {
  const access = await requireMergeRequest(ctx, input.id, input.merge_request_id);
  const settled = await settleMergeRequest(ctx.runtime, access.mergeRequest);
  const mergeRequest = await withCheckedStatus(ctx.runtime, settled);
  return { ...access, mergeRequest };
}

/** Records the caller's subscription to the merge request; 304 when it is already their effective one. */
async function subscribe(ctx: SignedInContext, input: MergeRequestRefInput, subscribed: boolean) {
  const { mergeRequest, project } = await requireMergeRequest(ctx, input.id, input.merge_request_id);
  const view = await mergeRequestView(ctx, mergeRequest);
  if (view.subscribed === subscribed) throw notModified();
  await ctx.runtime.stores.subscriptions.set(
    ctx.actor.user.id,
    { type: "MergeRequest", id: mergeRequest.id, projectId: project.id },
    subscribed,
  );
  return { ...view, subscribed };
}

/** The view the caller gets of a merge request an operation answers. */
const viewOf = (ctx: SignedInContext, mergeRequest: MergeRequest) => mergeRequestView(ctx, mergeRequest);

/**
 * Merge requests of a project (its target): lists, reads from git (commits, changes), create,
 * edit, delete, accept (merge) and the merge-when-build-succeeds flag, the issues they close,
 * subscriptions and todos. Merge requests are named by their global `id`; a sign-in is needed,
 * as in GitLab 8.x; one of a project the caller may not read is 404, one they may not read in a
 * project they read (a guest of a private project) 403.
 */
export const mergeRequests = {
  /** `GET /projects/:id/merge_requests`: filtered by `state` and `iid`, ordered, paginated. */
  list: query(
    "signed_in",
    ListMergeRequestsInput,
    (ctx, input): Promise<Page<MergeRequestView>> => listMergeRequests(ctx, input),
  ),

  /** The caller's merge requests across projects: opened by them, or assigned to them (`scope`). */
  listMine: query(
    "signed_in",
    ListMyMergeRequestsInput,
    (ctx, input): Promise<Page<MergeRequestView>> => listMyMergeRequests(ctx, input),
  ),

  /** One merge request, its `merge_status` computed first when it is still unchecked. */
  get: query("signed_in", MergeRequestRefInput, async (ctx, input): Promise<MergeRequestView> => {
    const { mergeRequest } = await readable(ctx, input);
    return viewOf(ctx, mergeRequest);
  }),

  /** The source's commits not in the target, newest first (once merged, those the merge brought in). */
  commits: query("signed_in", MergeRequestRefInput, async (ctx, input): Promise<RawCommit[]> => {
    const access = await requireMergeRequest(ctx, input.id, input.merge_request_id);
    return mergeRequestCommits(ctx, access);
  }),

  /** The merge request with the diff of each file it changes. */
  changes: query("signed_in", MergeRequestRefInput, async (ctx, input): Promise<MergeRequestChanges> => {
    const access = await readable(ctx, input);
    return mergeRequestChanges(ctx, access, access.mergeRequest);
  }),

  /** Opens a merge request (see {@link createMergeRequest}). */
  create: mutation(
    "signed_in",
    CreateMergeRequestInput,
    async (ctx, input): Promise<MergeRequestView> => viewOf(ctx, await createMergeRequest(ctx, input)),
  ),

  /** Edits, closes or reopens a merge request (see {@link updateMergeRequest}). */
  update: mutation(
    "signed_in",
    UpdateMergeRequestInput,
    async (ctx, input): Promise<MergeRequestView> => viewOf(ctx, await updateMergeRequest(ctx, input)),
  ),

  /**
   * Deletes a merge request with its notes, label links, todos and subscriptions: administrators
   * and project owners (403 for others who may read it). Answers it as it was.
   */
  remove: mutation("signed_in", MergeRequestRefInput, async (ctx, input): Promise<MergeRequestView> => {
    const { mergeRequest } = await requireMergeRequest(
      ctx,
      input.id,
      input.merge_request_id,
      "destroy_merge_request",
    );
    const view = await viewOf(ctx, mergeRequest);
    await deleteTodoTarget(ctx, { type: "MergeRequest", id: mergeRequest.id }, (tx) =>
      tx.mergeRequests.delete(mergeRequest.id),
    );
    return view;
  }),

  /** `PUT …/merge` (see {@link acceptMergeRequest}). */
  accept: mutation(
    "signed_in",
    AcceptMergeRequestInput,
    async (ctx, input): Promise<MergeRequestView> => viewOf(ctx, await acceptMergeRequest(ctx, input)),
  ),

  /** `PUT …/cancel_merge_when_build_succeeds` (see {@link cancelMergeWhenBuildSucceeds}). */
  cancelMergeWhenBuildSucceeds: mutation(
    "signed_in",
    MergeRequestRefInput,
    async (ctx, input): Promise<MergeRequestView> =>
      viewOf(ctx, await cancelMergeWhenBuildSucceeds(ctx, input)),
  ),

  /** The issues the merge request closes once merged, those the caller may read, one page. */
  closesIssues: query("signed_in", ClosesIssuesInput, async (ctx, input): Promise<Page<IssueView>> => {
    const access = await requireMergeRequest(ctx, input.id, input.merge_request_id);
    return closedIssues(ctx, access, input);
  }),

  /** Subscribes the caller; 304 when subscribed already (explicitly, or as its author or assignee). */
  subscribe: mutation(
    "signed_in",
    MergeRequestRefInput,
    (ctx, input): Promise<MergeRequestView> => subscribe(ctx, input, true),
  ),

  /** Unsubscribes the caller; 304 when not subscribed. */
  unsubscribe: mutation(
    "signed_in",
    MergeRequestRefInput,
    (ctx, input): Promise<MergeRequestView> => subscribe(ctx, input, false),
  ),

  /** Marks the merge request as a todo of the caller ("marked"); 304 when they have a pending one on it. */
  markTodo: mutation("signed_in", MergeRequestRefInput, async (ctx, input): Promise<TodoView> => {
    const access = await requireMergeRequest(ctx, input.id, input.merge_request_id);
    const subject = { access, type: "MergeRequest" as const, target: access.mergeRequest };
    const todo = await markTodo(ctx.runtime.stores, subject, ctx.actor.user);
    if (!todo) throw notModified();
    return todoView(ctx, todo);
  }),
};
