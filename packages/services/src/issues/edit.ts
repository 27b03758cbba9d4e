import { forbidden, ISSUE_STATE_MACHINE, type Issue, transition, type User } from "@kiln/domain";
import type { UpdateIssueInput } from "@kiln/schemas";
import type { IssuePatch, Stores } from "@kiln/storage-kysely";
import type { IssueEvent } from "../domain-events.js";
import { type IssueAccess, requireIssue } from "../issuables/access.js";
import { emitAll, recordIssueActivity } from "../issuables/activity.js";
import { ensureLabels, resolveAssignee, resolveMilestone, setsIssueMetadata } from "../issuables/fields.js";
import { maySetTimestamps, timestampOf } from "../issuables/timestamps.js";
import { assignedTodo, mentionTodos, type TodoSubject } from "../issuables/todos.js";
import type { SignedInContext } from "../operation.js";
import { finishTodos } from "../todos/changes.js";
import { mentionText } from "./create.js";

/**
 * True when the caller may edit the issue: reporters and above (`update_issue`), and its author
 * and assignee while the project takes writes (GitLab 8.x's issuable policy).
 */
function mayEdit(access: IssueAccess, user: User): boolean {
  if (access.allows("update_issue")) return true;
  const involved = access.issue.author_id === user.id || access.issue.assignee_id === user.id;
  return involved && access.allows("create_issue");
}

/** The columns an edit changes, with the fields the caller may not set left out. */
async function requestedPatch(
  stores: Stores,
  access: IssueAccess,
  input: UpdateIssueInput,
): Promise<IssuePatch> {
  const patch: IssuePatch = {
    title: input.title,
    description: input.description,
    confidential: input.confidential,
  };
  if (setsIssueMetadata(access)) {
    if (input.assignee_id !== undefined) patch.assignee_id = await resolveAssignee(stores, input.assignee_id);
    if (input.milestone_id !== undefined) {
      patch.milestone_id = await resolveMilestone(stores, access.project.id, input.milestone_id);
    }
    patch.due_date = input.due_date;
  }
  if (maySetTimestamps(access) && input.updated_at) patch.updated_at = timestampOf(input.updated_at);
  return patch;
}

/** True when the edit carries at least one attribute besides its state event (GitLab then sends an `update`). */
function carriesAttributes(patch: IssuePatch, labels: readonly number[] | undefined): boolean {
  return labels !== undefined || Object.values(patch).some((value) => value !== undefined);
}

/**
 * Closes or reopens the issue when `event` applies to its state (otherwise a silent no-op, as in
 * GitLab 8.x); closing finishes every pending todo on it. The issue as it now is, and the event.
 */
async function changeState(
  tx: Stores,
  issue: Issue,
  event: UpdateIssueInput["state_event"],
  user: User,
  at: string | undefined,
): Promise<{ issue: Issue; event: IssueEvent | null }> {
  if (event === undefined) return { issue, event: null };
  const to = transition(ISSUE_STATE_MACHINE, issue.state, event);
  if (to === null) return { issue, event: null };
  const changed = await tx.issues.setState(issue.id, issue.state, to, at);
  if (!changed) return { issue, event: null };
  if (event === "close") await finishTodos(tx, { type: "Issue", id: issue.id });
  return { issue: changed, event: await recordIssueActivity(tx, changed, user.id, event) };
}

/**
 * Edits an issue: its fields (assignee, milestone, labels and due date for reporters and above
 * only; `labels` replaces the set, empty clears it), its state (`state_event`), and `updated_at`
 * for administrators and owners. A new assignee gets an "assigned" todo, newly mentioned users a
 * "mentioned" one, and the editor's own pending todos on it are done. Domain events follow the
 * commit: the state change first, then `update` when attributes were sent.
 */
export async function editIssue(ctx: SignedInContext, input: UpdateIssueInput): Promise<Issue> {
  const access = await requireIssue(ctx, input.id, input.issue_id);
  const { user } = ctx.actor;
  if (!mayEdit(access, user)) throw forbidden();
  const { stores } = ctx.runtime;
  const before = access.issue;
  const patch = await requestedPatch(stores, access, input);
  const labels =
    setsIssueMetadata(access) && input.labels !== undefined
      ? (await ensureLabels(stores, access.project.id, input.labels)).map((label) => label.id)
      : undefined;
  const updates = carriesAttributes(patch, labels);
  const { issue, events } = await stores.transaction(async (tx) => {
    let current = before;
    if (updates) current = (await tx.issues.update(before.id, patch)) ?? current;
    if (labels !== undefined) await tx.labels.setLabels({ type: "Issue", id: before.id }, labels);
    const stated = await changeState(tx, current, input.state_event, user, patch.updated_at);
    current = stated.issue;
    const raised = stated.event ? [stated.event] : [];
    if (updates) {
      const subject: TodoSubject = { access, type: "Issue", target: current };
      await finishTodos(tx, { type: "Issue", id: before.id }, { userIds: [user.id] });
      if (current.assignee_id !== before.assignee_id) {
        await assignedTodo(tx, subject, user, current.assignee_id);
      }
      await mentionTodos(tx, subject, user, mentionText(current), {
        previousText: mentionText(before),
      });
      raised.push(await recordIssueActivity(tx, current, user.id, "update"));
    }
    return { issue: current, events: raised };
  });
  emitAll(ctx.runtime, events);
  return issue;
}
