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
  unauthenticated,
} from "@kiln/domain";
import { GitError, type MergeResult, writeMergeCommit } from "@kiln/git";
import type { AcceptMergeRequestInput } from "@kiln/schemas";
import type { Stores } from "@kiln/storage-kysely";
import { findMergeRequest, type MergeRequestAccess } from "../issuables/access.js";
import type { SignedInContext } from "../operation.js";
import { landMergeIntent, type MergeEnd, settleIntents } from "./finish.js";
import { alreadyMerged, type MergeSides, mergeSides, testMerge } from "./git.js";
import { headPipeline, isActivePipeline } from "./head-pipeline.js";
import { serialized, targetQueue } from "./serial.js";

/** 405 `Branch cannot be merged`: conflicts, a work in progress, a branch gone. */
const cannotMerge = () => new DomainError({ kind: "not_allowed", reason: "mr_cannot_merge" });
/** 406 `Method Not Allowed`: merged or closed already (or nothing left to merge). */
const notOpen = () => new DomainError({ kind: "not_acceptable", reason: "mr_not_open" });

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

/**
 * The issues of the target project that the merge request names with "Closes #1" (its merge commit
 * message lists them), and those of them that the merge closes: all when it merges into the
 * default branch, none otherwise.
 */
async function issuesToClose(
  stores: Stores,
  access: MergeRequestAccess,
  mr: MergeRequest,
): Promise<{ named: Issue[]; closed: Issue[] }> {
  const iids = closesIssues(`${mr.title}\n${mr.description ?? ""}`);
  if (iids.length === 0) return { named: [], closed: [] };
  const issues = await stores.issues.findByIids(access.project.id, iids);
  const named = issues.filter((issue) => issue.project_id === access.project.id);
  return { named, closed: mr.target_branch === access.project.default_branch ? named : [] };
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
  if (sha !== undefined && sha !== sides.source) throw conflict({ reason: "mr_sha_mismatch" });
  return sides;
}

/**
 * One try at merging on the target head just checked: writes the merge commit, then lands and
 * records it with its intent ({@link landMergeIntent}). `missed` when the target moved meanwhile.
 */
async function mergeOnce(
  ctx: SignedInContext,
  access: MergeRequestAccess,
  mr: MergeRequest,
  sides: MergeSides,
  input: AcceptMergeRequestInput,
): Promise<MergeEnd> {
  const user = ctx.actor.user;
  const issues = await issuesToClose(ctx.runtime.stores, access, mr);
  const message =
    input.merge_commit_message ??
    defaultMergeCommitMessage(
      mr,
      issues.named.map((issue) => `#${issue.iid}`),
    );
  let written: MergeResult;
  try {
    written = await writeMergeCommit(sides.gitDir, {
      target: mr.target_branch,
      source: sides.source as string,
      message,
      author: { name: user.name, email: user.email },
      ...(sides.target ? { expectedTarget: sides.target } : {}),
    });
  } catch (error) {
    if (GitError.is(error, "conflict") || GitError.is(error, "not_found")) throw cannotMerge();
    if (GitError.is(error, "ref_moved")) return { kind: "missed" };
    throw error;
  }
  return landMergeIntent(ctx.runtime, {
    merge_request_id: mr.id,
    target_branch: mr.target_branch,
    previous_sha: written.previous,
    commit_sha: written.commit,
    source_sha: sides.source as string,
    user_id: user.id,
    remove_source_branch: input.should_remove_source_branch ?? false,
    closing_issue_ids: issues.closed.map((issue) => issue.id),
  });
}

/**
 * Sets the merge request to be merged when the head pipeline (of `sha`, the source head checked)
 * succeeds, as the caller with their options, when that pipeline is still to finish (8.x's
 * `pipeline.active?`); the merge subscriber merges it then. Answers null when there is nothing to
 * wait for (no pipeline, or it has finished, perhaps just before the flag was set, unseen by the
 * subscriber): the accept merges now.
 */
async function mergeWhenBuildSucceeds(
  ctx: SignedInContext,
  mr: MergeRequest,
  sha: string,
  input: AcceptMergeRequestInput,
): Promise<MergeRequest | null> {
  const { stores } = ctx.runtime;
  const pipeline = await headPipeline(ctx.runtime, mr, sha);
  if (!pipeline || !isActivePipeline(pipeline)) return null;
  const updated = await stores.mergeRequests.update(mr.id, {
    merge_when_build_succeeds: true,
    merge_user_id: ctx.actor.user.id,
    merge_params: {
      ...(input.merge_commit_message !== undefined ? { commit_message: input.merge_commit_message } : {}),
      ...(input.should_remove_source_branch !== undefined
        ? { should_remove_source_branch: input.should_remove_source_branch }
        : {}),
    },
    ...(input.should_remove_source_branch !== undefined
      ? { should_remove_source_branch: input.should_remove_source_branch }
      : {}),
  });
  const now = await stores.ciPipelines.find(pipeline.id);
  if (now?.status === "success") return null;
  return updated ?? mr;
}

/**
 * How many times an accept merges on a new target head before it gives up with 405: the target
 * moved under each of them (pushes, or merges from other processes; merges from this one take turns).
 */
const MERGE_ATTEMPTS = 10;

/** The accept itself, once the caller's right is checked; in the queues of the merge request and of its target. */
async function acceptNow(
  ctx: SignedInContext,
  access: MergeRequestAccess,
  input: AcceptMergeRequestInput,
): Promise<MergeRequest> {
  const { stores } = ctx.runtime;
  // A merge of it cut short by a crash is finished (or dropped) first.
  await settleIntents(ctx.runtime, access.mergeRequest.id);
  for (let attempt = 1; ; attempt += 1) {
    const mr = await stores.mergeRequests.findById(access.mergeRequest.id);
    if (!mr) throw notOpen();
    const sides = await checkMergeable(ctx, mr, input.sha);
    if (input.merge_when_build_succeeds) {
      const waiting = await mergeWhenBuildSucceeds(ctx, mr, sides.source as string, input);
      if (waiting) return waiting;
    }
    const end = await mergeOnce(ctx, access, mr, sides, input);
    if (end.kind === "landed") {
      // Closed meanwhile: the commit is in, but the merge request stays as its closer left it.
      if (!end.merged) throw notOpen();
      return end.merged;
    }
    // The target moved first (or another process dropped the intent before it landed): check
    // again on the new head, which answers 405 if the merge now conflicts.
    if (attempt === MERGE_ATTEMPTS) throw cannotMerge();
  }
}

/**
 * `PUT …/merge`: merges the source into the target with a merge commit, in the spec's order of
 * checks (401 when the caller may not merge, 406 merged or closed, 405 conflicts or WIP, 409 sha).
 * Accepts of one merge request, and accepts into one target branch, run one at a time in a
 * process; across processes the target moves by compare-and-swap, and the loser merges again on
 * the new head (405 if it now conflicts): of two accepts of one merge request, one merges and the
 * other answers 406 without a second merge commit. The merge is recorded as an intent before the
 * target moves, so a crash in between is finished at the next start or read. With
 * `merge_when_build_succeeds` while the head pipeline is still to finish, the merge request stays
 * open with the flag set instead (and merges when that pipeline succeeds).
 */
export async function acceptMergeRequest(
  ctx: SignedInContext,
  input: AcceptMergeRequestInput,
): Promise<MergeRequest> {
  const access = await requireMerger(ctx, input.id, input.merge_request_id);
  const { mergeRequest } = access;
  return serialized(ctx.runtime, mergeRequest.id, () =>
    serialized(ctx.runtime, targetQueue(mergeRequest.project_id, mergeRequest.target_branch), () =>
      acceptNow(ctx, access, input),
    ),
  );
}

/**
 * `PUT …/cancel_merge_when_build_succeeds`: for those who may merge and the author (401 for
 * others); 405 when merged or closed, 406 when the flag is not set; clears the flag and the
 * options of the merge.
 */
export async function cancelMergeWhenBuildSucceeds(
  ctx: SignedInContext,
  input: { id: number | string; merge_request_id: number },
): Promise<MergeRequest> {
  const access = await findMergeRequest(ctx, input.id, input.merge_request_id);
  const mr = access.mergeRequest;
  if (mr.author_id !== ctx.actor.user.id && !(await mayMerge(ctx, access))) throw unauthenticated();
  if (!isOpenState(mr.state)) throw new DomainError({ kind: "not_allowed", reason: "mr_not_open" });
  if (!mr.merge_when_build_succeeds)
    throw new DomainError({ kind: "not_acceptable", reason: "mr_merge_when_build_succeeds_unset" });
  const updated = await ctx.runtime.stores.mergeRequests.update(mr.id, {
    merge_when_build_succeeds: false,
    merge_user_id: null,
    // 8.x's reset_merge_when_build_succeeds forgets the options of the merge with it.
    merge_params: null,
    should_remove_source_branch: false,
  });
  return updated ?? mr;
}
