import {
  badRequest,
  conflict,
  DomainError,
  forbidden,
  MERGE_REQUEST_STATE_MACHINE,
  type MergeRequest,
  type MergeRequestState,
  transition,
} from "@kiln/domain";
import type { UpdateMergeRequestInput } from "@kiln/schemas";
import { type MergeRequestPatch, type Stores, UniqueViolation } from "@kiln/storage-kysely";
import type { MergeRequestEvent } from "../domain-events.js";
import { type MergeRequestAccess, requireMergeRequest } from "../issuables/access.js";
import { emitAll, recordMergeRequestActivity } from "../issuables/activity.js";
import { ensureLabels, resolveAssignee, resolveMilestone } from "../issuables/fields.js";
import { assignedTodo, mentionTodos } from "../issuables/todos.js";
import type { SignedInContext } from "../operation.js";
import { repositoryOf } from "../repositories/access.js";
import { finishTodos } from "../todos/changes.js";
import { settleMergeRequest } from "./finish.js";
import { headOfBranch } from "./git.js";
import { checkMergeStatus } from "./refresh.js";

/**
 * The merge request named by the input, which the caller may edit: developers, its author and its
 * assignee (GitLab 8.x's `issuable_policy.rb` gives both `update_merge_request` on their own).
 */
export async function requireEditable(
  ctx: SignedInContext,
  ref: number | string,
  mergeRequestId: number,
): Promise<MergeRequestAccess> {
  const access = await requireMergeRequest(ctx, ref, mergeRequestId);
  const { author_id, assignee_id } = access.mergeRequest;
  const involved = author_id === ctx.actor.user.id || assignee_id === ctx.actor.user.id;
  if (!involved && !access.allows("update_merge_request")) throw forbidden();
  return access;
}

/** The state `state_event` leads to; `merge` is GitLab's accepted-but-ignored value, an impossible move a no-op. */
function nextState(
  mergeRequest: MergeRequest,
  event: UpdateMergeRequestInput["state_event"],
): MergeRequestState | null {
  if (event === undefined || event === "merge") return null;
  return transition(MERGE_REQUEST_STATE_MACHINE, mergeRequest.state, event);
}

/** The edit of the columns, checking a new target branch (it must exist, and differ from the source in the same project). */
async function columnPatch(
  ctx: SignedInContext,
  access: MergeRequestAccess,
  input: UpdateMergeRequestInput,
): Promise<MergeRequestPatch> {
  const { mergeRequest: mr } = access;
  const { stores } = ctx.runtime;
  const patch: MergeRequestPatch = { title: input.title, description: input.description };
  if (input.remove_source_branch !== undefined) patch.force_remove_source_branch = input.remove_source_branch;
  if (input.target_branch !== undefined && input.target_branch !== mr.target_branch) {
    const sameProject = (mr.source_project_id ?? mr.project_id) === mr.project_id;
    if (sameProject && input.target_branch === mr.source_branch) {
      throw new DomainError({ kind: "unprocessable", reason: "mr_same_branch" });
    }
    const gitDir = await repositoryOf(ctx.runtime, access.project);
    if ((await headOfBranch(gitDir, input.target_branch)) === null) {
      throw badRequest({ reason: "mr_target_branch_missing", branch: input.target_branch });
    }
    patch.target_branch = input.target_branch;
    patch.merge_status = "unchecked";
  }
  // Assignee and milestone are for those who may administer merge requests of the project.
  if (access.allows("update_merge_request")) {
    if (input.assignee_id !== undefined) patch.assignee_id = await resolveAssignee(stores, input.assignee_id);
    if (input.milestone_id !== undefined) {
      patch.milestone_id = await resolveMilestone(stores, access.project.id, input.milestone_id);
    }
  }
  return patch;
}

/** Applies the state change of an edit in `tx`: the feed entry, todos done on close, `unchecked` on reopen. */
async function changeState(
  tx: Stores,
  mergeRequest: MergeRequest,
  to: MergeRequestState,
  userId: number,
): Promise<{ mergeRequest: MergeRequest; event: MergeRequestEvent } | null> {
  const patch: MergeRequestPatch = to === "reopened" ? { merge_status: "unchecked" } : {};
  const moved = await tx.mergeRequests.setState(mergeRequest.id, mergeRequest.state, to, patch);
  if (!moved) return null;
  if (to === "closed") await finishTodos(tx, { type: "MergeRequest", id: moved.id });
  const event = await recordMergeRequestActivity(tx, moved, userId, to === "closed" ? "close" : "reopen");
  return { mergeRequest: moved, event };
}

/**
 * `PUT /projects/:id/merge_requests/:merge_request_id`: edits the title, description, target
 * branch, assignee, milestone and labels (the last three only for developers and up, silently
 * dropped for others, as GitLab 8.x), and closes or reopens with `state_event` (`merge` is accepted
 * and ignored; an impossible move changes nothing). One transaction with the events and todos;
 * a reopen or a new target branch makes `merge_status` unchecked, then checked again.
 */
export async function updateMergeRequest(
  ctx: SignedInContext,
  input: UpdateMergeRequestInput,
): Promise<MergeRequest> {
  const { stores } = ctx.runtime;
  const user = ctx.actor.user;
  const access = await requireEditable(ctx, input.id, input.merge_request_id);
  // A merge of it cut short by a crash is finished first: a merged merge request is no longer edited as open.
  const before = await settleMergeRequest(ctx.runtime, access.mergeRequest);
  const patch = await columnPatch(ctx, access, input);
  const labels =
    input.labels !== undefined && access.allows("update_merge_request")
      ? await ensureLabels(stores, access.project.id, input.labels)
      : undefined;
  const to = nextState(before, input.state_event);
  const { mergeRequest, events } = await stores
    .transaction(async (tx) => {
      let current = (await tx.mergeRequests.update(before.id, patch)) ?? before;
      const events: MergeRequestEvent[] = [];
      if (labels)
        await tx.labels.setLabels(
          { type: "MergeRequest", id: current.id },
          labels.map((l) => l.id),
        );
      if (to !== null) {
        const changed = await changeState(tx, current, to, user.id);
        if (changed) {
          current = changed.mergeRequest;
          events.push(changed.event);
        }
      }
      // Hooks hear of edits as "update"; a bare close or reopen is only that.
      const edited = labels !== undefined || Object.values(patch).some((value) => value !== undefined);
      if (edited) events.push(await recordMergeRequestActivity(tx, current, user.id, "update"));
      const subject = { access, type: "MergeRequest" as const, target: current };
      // An edit is the editor's look at the merge request: their pending todos on it are done.
      await finishTodos(tx, { type: "MergeRequest", id: current.id }, { userIds: [user.id] });
      if (current.assignee_id !== before.assignee_id)
        await assignedTodo(tx, subject, user, current.assignee_id);
      await mentionTodos(tx, subject, user, `${current.title}\n\n${current.description ?? ""}`, {
        previousText: `${before.title}\n\n${before.description ?? ""}`,
      });
      return { mergeRequest: current, events };
    })
    .catch((error: unknown) => {
      if (error instanceof UniqueViolation) throw conflict({ reason: "mr_exists", titles: [before.title] });
      throw error;
    });
  emitAll(ctx.runtime, events);
  if (mergeRequest.merge_status === "unchecked") {
    return (await checkMergeStatus(ctx.runtime, mergeRequest.id)) ?? mergeRequest;
  }
  return mergeRequest;
}
