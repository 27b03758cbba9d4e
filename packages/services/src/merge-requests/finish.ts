import { isOpenState, type MergeRequest, type User } from "@kiln/domain";
import { GitError, isAncestor, landMerge } from "@kiln/git";
import type { MergeIntent, NewMergeIntent, Stores } from "@kiln/storage-kysely";
import type { IssueEvent, MergeRequestEvent } from "../domain-events.js";
import { emitAll, recordIssueActivity, recordMergeRequestActivity } from "../issuables/activity.js";
import { repositoryStore } from "../repositories/access.js";
import { type DescribedPush, describePush, raisePush } from "../repositories/after-push.js";
import type { ServiceRuntime } from "../runtime.js";
import { finishTodos } from "../todos/changes.js";
import { headOfBranch } from "./git.js";
import { serialized } from "./serial.js";
import { removeSourceBranch } from "./source-branch.js";

/**
 * How a merge intent ended: `landed` (the target holds its commit; `merged` is the merge request,
 * or null when it was closed meanwhile and stays so), `missed` (the target never took the commit:
 * it moved first; the intent is dropped) or `gone` (someone else finished or dropped it first).
 */
export type MergeEnd =
  | { kind: "landed"; merged: MergeRequest | null }
  | { kind: "missed" }
  | { kind: "gone" };

/**
 * What makes the intent's commit the target's head, or finds out whether it is: `land` moves the
 * target by compare-and-swap (the accept that wrote the intent), `check` looks whether the target
 * holds the commit (a merge cut short by a crash).
 */
type Landing = "land" | "check";

/** Whether the branch moved to the intent's commit: moves it (`land`) or looks (`check`). */
async function reached(gitDir: string, intent: MergeIntent, landing: Landing): Promise<boolean> {
  try {
    if (landing === "land") {
      await landMerge(gitDir, intent.target_branch, {
        commit: intent.commit_sha,
        previous: intent.previous_sha,
      });
      return true;
    }
    const head = await headOfBranch(gitDir, intent.target_branch);
    return head !== null && (await isAncestor(gitDir, intent.commit_sha, head));
  } catch (error) {
    // The target moved first, or (checking) the commit was never written whole.
    if (GitError.is(error, "ref_moved") || GitError.is(error, "not_found")) return false;
    throw error;
  }
}

/**
 * Records a landed merge in `tx`: the merge request merged with its commit (when it is still open:
 * `setState` guards the move), its todos done, the issues it closes closed with theirs, and the
 * feed entries of each. A merger whose account is gone leaves no feed entries or events.
 */
async function recordMerge(
  tx: Stores,
  intent: MergeIntent,
  merger: User | null,
): Promise<{ merged: MergeRequest; events: (MergeRequestEvent | IssueEvent)[] } | null> {
  const current = await tx.mergeRequests.findById(intent.merge_request_id);
  if (!current || !isOpenState(current.state)) return null;
  const merged = await tx.mergeRequests.setState(current.id, current.state, "merged", {
    merge_commit_sha: intent.commit_sha,
    merge_when_build_succeeds: false,
    should_remove_source_branch: intent.remove_source_branch || current.should_remove_source_branch,
  });
  if (!merged) return null;
  const events: (MergeRequestEvent | IssueEvent)[] = [];
  if (merger) events.push(await recordMergeRequestActivity(tx, merged, merger.id, "merge"));
  await finishTodos(tx, { type: "MergeRequest", id: merged.id });
  const issues = await tx.issues.findByIds(intent.closing_issue_ids);
  for (const issue of issues.values()) {
    if (!isOpenState(issue.state)) continue;
    const closed = await tx.issues.setState(issue.id, issue.state, "closed");
    if (!closed) continue;
    await finishTodos(tx, { type: "Issue", id: closed.id });
    if (merger) events.push(await recordIssueActivity(tx, closed, merger.id, "close"));
  }
  return { merged, events };
}

/** Where a merge lands and who merges: what finishing it needs besides the intent. */
interface MergePlace {
  gitDir: string;
  merger: User | null;
  /** The target's push by the merger (null when their account is gone), listed from git. */
  describe(): Promise<DescribedPush | null>;
}

/** The place of a merge intent; null when its merge request (and so the intent) is gone. */
async function placeOf(runtime: ServiceRuntime, intent: NewMergeIntent): Promise<MergePlace | null> {
  const { stores } = runtime;
  const mergeRequest = await stores.mergeRequests.findById(intent.merge_request_id);
  const project = mergeRequest && (await stores.projects.findById(mergeRequest.project_id));
  const namespace = project && (await stores.namespaces.findById(project.namespace_id));
  if (!project || !namespace) return null;
  const merger = intent.user_id === null ? null : ((await stores.users.findById(intent.user_id)) ?? null);
  const move = {
    ref: `refs/heads/${intent.target_branch}`,
    before: intent.previous_sha,
    after: intent.commit_sha,
  };
  return {
    gitDir: repositoryStore(runtime).path(project.id),
    merger,
    describe: async () => merger && describePush(runtime, { project, namespace }, merger, [move]),
  };
}

/**
 * Finishes a merge intent, exactly once however many try at once: one transaction claims it (a
 * second claimer waits, then finds it gone), moves or checks the target (`landing`), removes it,
 * and, when the target holds the commit, records the merge ({@link recordMerge}) and the target's
 * push (`described`, or listed now). Its domain events are raised once that transaction has
 * committed; then the source branch is removed if the accept asked for it. A crash anywhere before
 * the commit leaves the intent to be checked again.
 */
async function finish(
  runtime: ServiceRuntime,
  place: MergePlace,
  intent: MergeIntent,
  landing: Landing,
  described: DescribedPush | null,
): Promise<MergeEnd> {
  const { merger } = place;
  // Nothing in it waits for another connection: git, and the transaction's own stores only.
  const outcome = await runtime.stores.transaction(async (tx) => {
    if (!(await tx.mergeIntents.claim(intent.id))) return { kind: "gone" as const };
    const landed = await reached(place.gitDir, intent, landing);
    await tx.mergeIntents.remove(intent.id);
    if (!landed) return { kind: "missed" as const };
    const push = described ?? (await place.describe());
    await push?.record(tx);
    return { kind: "landed" as const, push, recorded: await recordMerge(tx, intent, merger) };
  });
  if (outcome.kind !== "landed") return outcome;
  if (outcome.push) raisePush(runtime, outcome.push);
  const merged = outcome.recorded?.merged ?? null;
  if (!outcome.recorded || !merged) return { kind: "landed", merged: null };
  emitAll(runtime, outcome.recorded.events);
  if (merger && (intent.remove_source_branch || merged.force_remove_source_branch)) {
    await removeSourceBranch(runtime, merger, merged, intent.source_sha);
  }
  return { kind: "landed", merged };
}

/**
 * Lands a merge whose commit is written: records its intent (committed before the target moves, so
 * that a crash leaves it to finish), moves the target by compare-and-swap and records the merge
 * ({@link finish}). Everything it can do beforehand (its lookups, listing its push) is done before
 * the intent is recorded, so that another process checking the intent meanwhile rarely finds it
 * not landed yet and drops it (the accept then merges again).
 */
export async function landMergeIntent(runtime: ServiceRuntime, fields: NewMergeIntent): Promise<MergeEnd> {
  const place = await placeOf(runtime, fields);
  if (!place) return { kind: "gone" };
  const described = await place.describe();
  const intent = await runtime.stores.mergeIntents.record(fields);
  return finish(runtime, place, intent, "land", described);
}

/** Finishes a merge intent left by an accept cut short: recorded if its target holds the commit, else dropped. */
async function checkMergeIntent(runtime: ServiceRuntime, intent: MergeIntent): Promise<MergeEnd> {
  const place = await placeOf(runtime, intent);
  // Deleting the merge request (or its project) deleted the intent with it.
  if (!place) return { kind: "gone" };
  return finish(runtime, place, intent, "check", null);
}

/**
 * Finishes (or drops) what accepts of the merge request cut short left behind. Run it in the merge
 * request's queue, so that it never sees the intent of an accept still under way in this process.
 */
export async function settleIntents(runtime: ServiceRuntime, mergeRequestId: number): Promise<void> {
  for (const intent of await runtime.stores.mergeIntents.forMergeRequest(mergeRequestId)) {
    await checkMergeIntent(runtime, intent);
  }
}

/**
 * The merge request as it is once any merge of it cut short by a crash is finished (merged, if its
 * target holds the commit) or dropped (still open, to be accepted again): reads call this, so that
 * a merge that reached its target never shows as open.
 */
export async function settleMergeRequest(
  runtime: ServiceRuntime,
  mergeRequest: MergeRequest,
): Promise<MergeRequest> {
  if (!isOpenState(mergeRequest.state)) return mergeRequest;
  if ((await runtime.stores.mergeIntents.forMergeRequest(mergeRequest.id)).length === 0) return mergeRequest;
  return serialized(runtime, mergeRequest.id, async () => {
    await settleIntents(runtime, mergeRequest.id);
    return (await runtime.stores.mergeRequests.findById(mergeRequest.id)) ?? mergeRequest;
  });
}

/** What {@link finishInterruptedMerges} did. */
export interface InterruptedMerges {
  /** Merges whose target held the commit, now recorded. */
  finished: number;
  /** Merges whose target never moved, dropped: their merge requests stay open. */
  dropped: number;
  /** Intents that could not be checked now (a repository gone, say), left for the next read. */
  failed: { mergeRequestId: number; reason: string }[];
}

/**
 * Finishes every merge that a crash (or a kill) cut short between moving its target branch and
 * recording it, and drops those whose target never moved. The server runs it at start; with
 * several processes on one database, one of them finishes each merge and the others find it gone.
 */
export async function finishInterruptedMerges(runtime: ServiceRuntime): Promise<InterruptedMerges> {
  const report: InterruptedMerges = { finished: 0, dropped: 0, failed: [] };
  for (const intent of await runtime.stores.mergeIntents.all()) {
    try {
      const end = await serialized(runtime, intent.merge_request_id, () => checkMergeIntent(runtime, intent));
      if (end.kind === "landed") report.finished += 1;
      if (end.kind === "missed") report.dropped += 1;
    } catch (error) {
      report.failed.push({ mergeRequestId: intent.merge_request_id, reason: String(error) });
    }
  }
  return report;
}
