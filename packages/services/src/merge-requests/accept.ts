import {
  AccessLevel,
  closesIssues,
  conflict,
  DomainError,
  defaultMergeCommitMessage,
  type Issue,
  isOpenState,
  isWorkInProgress,
  type MergeRequest,
  mayMergeInto,
  type User,
  unauthenticated,
} from "@kiln/domain";
import { GitError, merge } from "@kiln/git";
import type { AcceptMergeRequestInput } from "@kiln/schemas";
import type { Stores } from "@kiln/storage-kysely";
import type { IssueEvent, MergeRequestEvent } from "../domain-events.js";
import { findMergeRequest, type MergeRequestAccess } from "../issuables/access.js";
import { emitAll, recordIssueActivity, recordMergeRequestActivity } from "../issuables/activity.js";
import { finishTodos } from "../issuables/todos.js";
import type { SignedInContext } from "../operation.js";
import { afterPush } from "../repositories/after-push.js";
import { alreadyMerged, type MergeSides, mergeSides, testMerge } from "./git.js";
import { serialized } from "./serial.js";
import { removeSourceBranch } from "./source-branch.js";

/** The messages of accept and cancel, as the spec gives them. */
export const AcceptMessage = {
  CANNOT_MERGE: "Branch cannot be merged",
  NOT_ALLOWED: "Method Not Allowed",
  SHA_MISMATCH: "SHA does not match HEAD of source branch",
  NOT_SET: "Merge request is not set to be merged when the build succeeds",
} as const;

/** 405 `Branch cannot be merged`: conflicts, a work in progress, a branch gone. */
const cannotMerge = () => new DomainError("not_allowed", AcceptMessage.CANNOT_MERGE);
/** 406 `Method Not Allowed`: merged or closed already (or nothing left to merge). */
const notOpen = () => new DomainError("not_acceptable", AcceptMessage.NOT_ALLOWED);

/**
 * True when the caller may merge into the target branch (GitLab's `can_be_merged_by?`): masters
 * always, developers unless the branch is protected without letting developers merge or push.
 * A merge is a push: where the caller may not push at all (an archived project, for anyone but
 * administrators) they may not merge either.
 */
export async function mayMerge(ctx: SignedInContext, access: MergeRequestAccess): Promise<boolean> {
  if (!access.allows("push_code")) return false;
  const level = access.subject.isAdmin ? AccessLevel.OWNER : access.subject.accessLevel;
  const protection = await ctx.runtime.stores.protectedBranches.find(
    access.project.id,
    access.mergeRequest.target_branch,
  );
  return mayMergeInto(level, protection ?? undefined);
}

/**
 * The merge request, with the caller allowed to merge it: 401 (as GitLab 8.x) otherwise, also to
 * those who may not read it (whoever may merge may read).
 */
async function requireMerger(
  ctx: SignedInContext,
  ref: number | string,
  id: number,
): Promise<MergeRequestAccess> {
  const access = await findMergeRequest(ctx, ref, id);
  if (!(await mayMerge(ctx, access))) throw unauthenticated();
  return access;
}

/** The open issues of the target project that the merge request closes ("Closes #1"), once merged into the default branch. */
async function issuesToClose(stores: Stores, access: MergeRequestAccess, mr: MergeRequest): Promise<Issue[]> {
  const iids = closesIssues(`${mr.title}\n${mr.description ?? ""}`);
  if (iids.length === 0) return [];
  const issues = await stores.issues.findByIids(access.project.id, iids);
  return issues.filter((issue) => issue.project_id === access.project.id);
}

/**
 * The checks before a merge, in the spec's order after the caller's right (401): merged or
 * closed (406), work in progress, a branch gone or conflicts (405), `sha` not the source head
 * (409). Answers both heads, as checked.
 */
async function checkMergeable(
  ctx: SignedInContext,
  mr: MergeRequest,
  sha: string | undefined,
): Promise<MergeSides> {
  if (!isOpenState(mr.state)) throw notOpen();
  if (isWorkInProgress(mr.title)) throw cannotMerge();
  const sides = await mergeSides(ctx.runtime, mr);
  const status = await testMerge(sides, mr.target_branch);
  if (status !== mr.merge_status || sides.source !== mr.diff_head_sha) {
    await ctx.runtime.stores.mergeRequests.update(mr.id, {
      merge_status: status,
      diff_head_sha: sides.source ?? mr.diff_head_sha,
      updated_at: mr.updated_at,
    });
  }
  if (status !== "can_be_merged" || sides.source === null) throw cannotMerge();
  // The target holds the source already: another merge of it won (perhaps in another process).
  if (await alreadyMerged(sides)) throw notOpen();
  if (sha !== undefined && sha !== sides.source) throw conflict(AcceptMessage.SHA_MISMATCH);
  return sides;
}

/** Writes the merge commit and moves the target branch (compare-and-swap); retries once if the target moved. */
async function writeMerge(
  ctx: SignedInContext,
  mr: MergeRequest,
  sides: MergeSides,
  message: string,
  sha: string | undefined,
  retried = false,
): Promise<{ commit: string; previous: string }> {
  const user = ctx.actor.user;
  try {
    return await merge(sides.gitDir, {
      target: mr.target_branch,
      source: sides.source as string,
      message,
      author: { name: user.name, email: user.email },
      ...(sides.target ? { expectedTarget: sides.target } : {}),
    });
  } catch (error) {
    if (GitError.is(error, "conflict") || GitError.is(error, "not_found")) throw cannotMerge();
    if (!GitError.is(error, "ref_moved") || retried) throw error;
    // Someone pushed to the target meanwhile: check again against the new head, once.
    const again = await checkMergeable(ctx, mr, sha);
    return writeMerge(ctx, mr, again, message, sha, true);
  }
}

/** Marks the merge request merged with its commit, closes its issues and finishes todos, in one transaction. */
async function recordMerge(
  ctx: SignedInContext,
  access: MergeRequestAccess,
  mr: MergeRequest,
  commit: string,
  closing: readonly Issue[],
  user: User,
  removeSource: boolean,
): Promise<{ merged: MergeRequest; events: (MergeRequestEvent | IssueEvent)[] } | null> {
  return ctx.runtime.stores.transaction(async (tx) => {
    const merged = await tx.mergeRequests.setState(mr.id, mr.state, "merged", {
      merge_commit_sha: commit,
      merge_when_build_succeeds: false,
      should_remove_source_branch: removeSource || mr.should_remove_source_branch,
    });
    if (!merged) return null;
    const events: (MergeRequestEvent | IssueEvent)[] = [];
    events.push(await recordMergeRequestActivity(tx, merged, user.id, "merge"));
    await finishTodos(tx, "MergeRequest", merged.id);
    if (mr.target_branch === access.project.default_branch) {
      for (const issue of closing) {
        if (!isOpenState(issue.state)) continue;
        const closed = await tx.issues.setState(issue.id, issue.state, "closed");
        if (!closed) continue;
        await finishTodos(tx, "Issue", closed.id);
        events.push(await recordIssueActivity(tx, closed, user.id, "close"));
      }
    }
    return { merged, events };
  });
}

/** Sets the merge request to be merged when its build succeeds (the CI merges it then). */
async function mergeWhenBuildSucceeds(
  ctx: SignedInContext,
  mr: MergeRequest,
  input: AcceptMergeRequestInput,
): Promise<MergeRequest> {
  const updated = await ctx.runtime.stores.mergeRequests.update(mr.id, {
    merge_when_build_succeeds: true,
    merge_user_id: ctx.actor.user.id,
    ...(input.should_remove_source_branch !== undefined
      ? { should_remove_source_branch: input.should_remove_source_branch }
      : {}),
  });
  return updated ?? mr;
}

/** The accept itself, once the caller's right is checked; serialized per merge request. */
async function acceptNow(
  ctx: SignedInContext,
  access: MergeRequestAccess,
  input: AcceptMergeRequestInput,
): Promise<MergeRequest> {
  const { stores } = ctx.runtime;
  const mr = await stores.mergeRequests.findById(access.mergeRequest.id);
  if (!mr) throw notOpen();
  const sides = await checkMergeable(ctx, mr, input.sha);
  if (input.merge_when_build_succeeds) return mergeWhenBuildSucceeds(ctx, mr, input);
  const closing = await issuesToClose(stores, access, mr);
  const message =
    input.merge_commit_message ??
    defaultMergeCommitMessage(
      mr,
      closing.map((issue) => `#${issue.iid}`),
    );
  const { commit, previous } = await writeMerge(ctx, mr, sides, message, input.sha);
  const removeSource = input.should_remove_source_branch ?? false;
  const recorded = await recordMerge(ctx, access, mr, commit, closing, ctx.actor.user, removeSource);
  // The branch moved either way: it leaves a push event like any push.
  await afterPush(ctx.runtime, access, ctx.actor.user, [
    { ref: `refs/heads/${mr.target_branch}`, before: previous, after: commit },
  ]);
  // Closed meanwhile: the commit is in, but the merge request stays as its closer left it.
  if (!recorded) throw notOpen();
  emitAll(ctx.runtime, recorded.events);
  if (removeSource || mr.force_remove_source_branch) {
    await removeSourceBranch(ctx, recorded.merged, sides.source as string);
  }
  return recorded.merged;
}

/**
 * `PUT …/merge`: merges the source into the target with a merge commit, in the spec's order of
 * checks (401 when the caller may not merge, 406 merged or closed, 405 conflicts or WIP, 409 sha).
 * Accepts of one merge request run one at a time in a process, and the target moves by
 * compare-and-swap across processes, so of two concurrent accepts one merges and the other
 * answers 406 without writing a second merge commit. With `merge_when_build_succeeds` the merge
 * request stays open with the flag set instead.
 */
export async function acceptMergeRequest(
  ctx: SignedInContext,
  input: AcceptMergeRequestInput,
): Promise<MergeRequest> {
  const access = await requireMerger(ctx, input.id, input.merge_request_id);
  return serialized(ctx.runtime, access.mergeRequest.id, () => acceptNow(ctx, access, input));
}

/**
 * `PUT …/cancel_merge_when_build_succeeds`: for those who may merge and the author (401 for
 * others); 405 when merged or closed, 406 when the flag is not set; clears the flag.
 */
export async function cancelMergeWhenBuildSucceeds(
  ctx: SignedInContext,
  input: { id: number | string; merge_request_id: number },
): Promise<MergeRequest> {
  const access = await findMergeRequest(ctx, input.id, input.merge_request_id);
  const mr = access.mergeRequest;
  if (mr.author_id !== ctx.actor.user.id && !(await mayMerge(ctx, access))) throw unauthenticated();
  if (!isOpenState(mr.state)) throw new DomainError("not_allowed", AcceptMessage.NOT_ALLOWED);
  if (!mr.merge_when_build_succeeds) throw new DomainError("not_acceptable", AcceptMessage.NOT_SET);
  const updated = await ctx.runtime.stores.mergeRequests.update(mr.id, {
    merge_when_build_succeeds: false,
    merge_user_id: null,
  });
  return updated ?? mr;
}
