import { branchOfRef, isOpenState, type MergeRequest } from "@kiln/domain";
import { type PushEvent, recordDomainEvent } from "../domain-events.js";
import type { OutboxSubscriber } from "../outbox/dispatcher.js";
import type { ServiceRuntime } from "../runtime.js";
import { mergeSides, testMerge } from "./git.js";
import { serialized } from "./serial.js";

/**
 * Computes an open merge request's `merge_status` from git and records it with the source head it
 * was computed at (`diff_head_sha`); `updated_at` stays, as a status check is no edit. With
 * `reset`, the status first goes back to `unchecked` (a branch moved), so that readers never see
 * the old answer for the new heads. The answer comes with a `merge_status` event (for the live
 * streams of those the merge request concerns) when it changed or was reset. Answers the merge
 * request as it now is (unchanged when it is no longer open). Runs in the merge request's queue,
 * never beside a merge of it.
 */
export function checkMergeStatus(
  runtime: ServiceRuntime,
  mergeRequestId: number,
  options: { reset?: boolean } = {},
): Promise<MergeRequest | undefined> {
  return serialized(runtime, mergeRequestId, async () => {
    const { mergeRequests } = runtime.stores;
    const current = await mergeRequests.findById(mergeRequestId);
    if (!current || !isOpenState(current.state)) return current;
    if (options.reset && current.merge_status !== "unchecked") {
      await mergeRequests.update(current.id, { merge_status: "unchecked", updated_at: current.updated_at });
    }
    const sides = await mergeSides(runtime, current);
    const status = await testMerge(sides, current.target_branch);
    return runtime.stores.transaction(async (tx) => {
      const checked = await tx.mergeRequests.update(current.id, {
        merge_status: status,
        diff_head_sha: sides.source ?? current.diff_head_sha,
        updated_at: current.updated_at,
      });
      // Readers may have seen `unchecked` meanwhile: they hear the answer, changed or not.
      if (checked && (options.reset || status !== current.merge_status)) {
        await recordDomainEvent(tx, {
          kind: "merge_status",
          projectId: checked.project_id,
          mergeRequestId: checked.id,
          status,
        });
      }
      return checked;
    });
  });
}

/** The merge request with its status computed when it is open and still `unchecked` (GitLab checks lazily). */
export async function withCheckedStatus(
  runtime: ServiceRuntime,
  mergeRequest: MergeRequest,
): Promise<MergeRequest> {
  if (mergeRequest.merge_status !== "unchecked" || !isOpenState(mergeRequest.state)) return mergeRequest;
  return (await checkMergeStatus(runtime, mergeRequest.id)) ?? mergeRequest;
}

/** Rechecks the open merge requests from or into the branch a push moved. */
async function onPush(runtime: ServiceRuntime, event: PushEvent): Promise<void> {
  const branch = branchOfRef(event.ref);
  if (branch === null) return;
  const { mergeRequests } = runtime.stores;
  const [from, into] = await Promise.all([
    mergeRequests.openFromBranch(event.projectId, branch),
    mergeRequests.openIntoBranch(event.projectId, branch),
  ]);
  const seen = new Set<number>();
  const affected = [...from, ...into].filter((mr) => !seen.has(mr.id) && seen.add(mr.id));
  await Promise.all(affected.map((mr) => checkMergeStatus(runtime, mr.id, { reset: true })));
}

/**
 * Keeps `merge_status` true to the repository: whenever a push (or a file commit, a branch made
 * or removed through the API, a merge) moves a branch, the open merge requests from or into it
 * become `unchecked` and are checked again. The server's outbox dispatcher runs it.
 */
export function mergeStatusRefresh(runtime: ServiceRuntime): OutboxSubscriber {
  return {
    name: "merge_status",
    kinds: ["push"],
    handle: async (event) => {
      if (event.kind === "push") await onPush(runtime, event);
    },
  };
}
