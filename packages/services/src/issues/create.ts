import type { Issue } from "@kiln/domain";
import type { CreateIssueInput } from "@kiln/schemas";
import { emitAll, recordIssueActivity } from "../issuables/activity.js";
import { newIssuableFields, setsIssueMetadata } from "../issuables/fields.js";
import { maySetTimestamps, timestampOf } from "../issuables/timestamps.js";
import { assignedTodo, mentionTodos } from "../issuables/todos.js";
import type { SignedInContext } from "../operation.js";
import { requireProject } from "../projects/access.js";

/** The text whose `@mentions` raise todos: an issue's title and description. */
export function mentionText(issue: Pick<Issue, "title" | "description">): string {
  return `${issue.title}\n${issue.description ?? ""}`;
}

/**
 * Opens an issue in the project `input.id` as the caller (`create_issue`). Assignee, milestone,
 * labels and due date count for reporters and above only; labels the project lacks are created;
 * `created_at` counts for administrators and owners only. The issue, its labels, its "opened"
 * feed entry and its todos (assigned, mentioned) are written in one transaction; the domain event
 * follows the commit.
 */
export async function createIssue(ctx: SignedInContext, input: CreateIssueInput): Promise<Issue> {
  const access = await requireProject(ctx, input.id, "create_issue");
  const { stores } = ctx.runtime;
  const { user } = ctx.actor;
  const projectId = access.project.id;
  const metadata = setsIssueMetadata(access);
  const { labelIds, assigneeId, milestoneId } = await newIssuableFields(stores, projectId, metadata, input);
  const createdAt = maySetTimestamps(access) && input.created_at ? timestampOf(input.created_at) : undefined;
  const { issue, events } = await stores.transaction(async (tx) => {
    const created = await tx.issues.create({
      project_id: projectId,
      title: input.title,
      description: input.description ?? null,
      author_id: user.id,
      assignee_id: assigneeId,
      milestone_id: milestoneId,
      confidential: input.confidential ?? false,
      due_date: metadata ? (input.due_date ?? null) : null,
      created_at: createdAt,
    });
    await tx.labels.addLabels({ type: "Issue", id: created.id }, labelIds);
    const subject = { access, type: "Issue" as const, target: created };
    await assignedTodo(tx, subject, user, created.assignee_id);
    await mentionTodos(tx, subject, user, mentionText(created));
    return { issue: created, events: [await recordIssueActivity(tx, created, user.id, "open")] };
  });
  emitAll(ctx.runtime, events);
  return issue;
}
