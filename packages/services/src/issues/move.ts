import {
  badRequest,
  type Issue,
  isOpenState,
  type Note,
  notFound,
  pathWithNamespace,
  type User,
} from "@kiln/domain";
import type { MoveIssueInput } from "@kiln/schemas";
import type { Stores } from "@kiln/storage-kysely";
import type { IssueEvent } from "../domain-events.js";
import { requireIssue } from "../issuables/access.js";
import { emitAll, recordIssueActivity } from "../issuables/activity.js";
import { assignedTodo, mentionTodos } from "../issuables/todos.js";
import type { SignedInContext } from "../operation.js";
import { accessTo, findProject, type ProjectAccess } from "../projects/access.js";
import { finishTodos } from "../todos/changes.js";
import { mentionText } from "./create.js";
import { qualifyReferences } from "./references.js";

/** The target project, if the caller may read it; `404 Project Not Found` otherwise. */
async function readableTarget(ctx: SignedInContext, projectId: number): Promise<ProjectAccess> {
  const project = await findProject(ctx.runtime.stores, projectId);
  if (!project) throw notFound("project");
  const access = await accessTo(ctx, project);
  if (!access.allows("read_project")) throw notFound("project");
  return access;
}

/** Every note of an issue, oldest first, system notes included. */
async function allNotes(stores: Stores, issueId: number): Promise<Note[]> {
  const notes: Note[] = [];
  for (let page = 1; ; page++) {
    const found = await stores.notes.list({ type: "Issue", id: issueId }, { page, perPage: 100 });
    notes.push(...found.items);
    if (found.items.length < 100) return notes;
  }
}

/** What the new issue takes from the target project: the labels and milestone of the same titles. */
async function targetMetadata(stores: Stores, issue: Issue, targetId: number) {
  const labels = (await stores.labels.labelsOf("Issue", [issue.id])).get(issue.id) ?? [];
  const matching = await stores.labels.findByTitles(
    targetId,
    labels.map((label) => label.title),
  );
  const milestone =
    issue.milestone_id === null ? undefined : await stores.milestones.findById(issue.milestone_id);
  const targetMilestone = milestone
    ? await stores.milestones.findByTitle(targetId, milestone.title)
    : undefined;
  return { labelIds: matching.map((label) => label.id), milestoneId: targetMilestone?.id ?? null };
}

/** `namespace/project` of a project the caller sees. */
function projectPath(access: ProjectAccess): string {
  return pathWithNamespace(access.namespace, access.project);
}

/** `namespace/project#iid`: how a system note names an issue of another project. */
function reference(access: ProjectAccess, issue: Issue): string {
  return `${projectPath(access)}#${issue.iid}`;
}

/** Writes a system note by `user` on an issue. */
function systemNote(tx: Stores, issue: Issue, user: User, body: string): Promise<Note> {
  return tx.notes.create({
    project_id: issue.project_id,
    noteable_type: "Issue",
    noteable_id: issue.id,
    author_id: user.id,
    body,
    attachment: null,
    system: true,
  });
}

/**
 * Closes the moved issue without the usual side effects but its feed entry and finished todos, and
 * points it at its copy. The close event, when it was open.
 */
async function retire(tx: Stores, issue: Issue, copy: Issue, user: User): Promise<IssueEvent | null> {
  let event: IssueEvent | null = null;
  if (isOpenState(issue.state)) {
    const closed = await tx.issues.setState(issue.id, issue.state, "closed");
    if (closed) {
      await finishTodos(tx, { type: "Issue", id: issue.id });
      event = await recordIssueActivity(tx, closed, user.id, "close");
    }
  }
  await tx.issues.update(issue.id, { moved_to_id: copy.id });
  return event;
}

/**
 * Moves an issue to another project (GitLab 8.x's move service): the caller needs `admin_issue` on
 * both and the issue must not have moved already (else 400), and the target must differ (400). A
 * new issue opens in the target with a fresh iid, the same author, title, assignee, due date and
 * confidentiality, the description with its references to the source project spelled out, the
 * labels and milestone of the same titles that exist there, and copies of the notes (dates kept); the old one is closed, points at the new one, and each gets a system note naming the
 * other. Answers the new issue.
 */
export async function moveIssue(ctx: SignedInContext, input: MoveIssueInput): Promise<Issue> {
  const source = await requireIssue(ctx, input.id, input.issue_id);
  const target = await readableTarget(ctx, input.to_project_id);
  const { issue } = source;
  if (!source.allows("admin_issue") || !target.allows("admin_issue") || issue.moved_to_id !== null) {
    throw badRequest({ reason: "move_not_permitted" });
  }
  if (target.project.id === source.project.id) throw badRequest({ reason: "move_to_same_project" });
  const { stores } = ctx.runtime;
  const { user } = ctx.actor;
  const metadata = await targetMetadata(stores, issue, target.project.id);
  const notes = await allNotes(stores, issue.id);
  const { copy, events } = await stores.transaction(async (tx) => {
    const created = await tx.issues.create({
      project_id: target.project.id,
      title: issue.title,
      description: issue.description && qualifyReferences(issue.description, projectPath(source)),
      author_id: issue.author_id,
      assignee_id: issue.assignee_id,
      milestone_id: metadata.milestoneId,
      confidential: issue.confidential,
      due_date: issue.due_date,
    });
    await tx.labels.addLabels({ type: "Issue", id: created.id }, metadata.labelIds);
    for (const note of notes) {
      const { id: _, ...copied } = note;
      await tx.notes.create({ ...copied, project_id: created.project_id, noteable_id: created.id });
    }
    await systemNote(tx, created, user, `moved from ${reference(source, issue)}`);
    const closed = await retire(tx, issue, created, user);
    await systemNote(tx, issue, user, `moved to ${reference(target, created)}`);
    const subject = { access: target, type: "Issue" as const, target: created };
    await assignedTodo(tx, subject, user, created.assignee_id);
    await mentionTodos(tx, subject, user, mentionText(created));
    const opened = await recordIssueActivity(tx, created, user.id, "open");
    return { copy: created, events: closed ? [closed, opened] : [opened] };
  });
  emitAll(ctx.runtime, events);
  return copy;
}
