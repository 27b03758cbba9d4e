import { badRequest, conflict, DomainError, type MergeRequest, notFound } from "@kiln/domain";
import type { CreateMergeRequestInput } from "@kiln/schemas";
import { UniqueViolation } from "@kiln/storage-kysely";
import { recordMergeRequestActivity } from "../issuables/activity.js";
import { newIssuableFields } from "../issuables/fields.js";
import { assignedTodo, mentionTodos } from "../issuables/todos.js";
import type { SignedInContext } from "../operation.js";
import { type ProjectAccess, requireProject } from "../projects/access.js";
import { repositoryOf } from "../repositories/access.js";
import { headOfBranch } from "./git.js";
import { checkMergeStatus } from "./refresh.js";

/**
 * The project a new merge request targets: the source project itself, or, with
 * `target_project_id`, the project the source was forked from (400 for any other; 404 when the
 * caller may not read it).
 */
async function targetOf(ctx: SignedInContext, source: ProjectAccess, targetId: number | undefined) {
  if (targetId === undefined || targetId === source.project.id) return source;
  const upstream = (await ctx.runtime.stores.forks.sourcesOf([source.project.id])).get(source.project.id);
  if (upstream !== targetId) throw badRequest({ reason: "mr_target_not_fork_source" });
  return requireProject(ctx, targetId);
}

/** 400 unless both branches exist, each in its own project's repository. */
async function checkBranches(
  ctx: SignedInContext,
  input: CreateMergeRequestInput,
  source: ProjectAccess,
  target: ProjectAccess,
) {
  const [sourceHead, targetHead] = await Promise.all([
    repositoryOf(ctx.runtime, source.project).then((dir) => headOfBranch(dir, input.source_branch)),
    repositoryOf(ctx.runtime, target.project).then((dir) => headOfBranch(dir, input.target_branch)),
  ]);
  if (sourceHead === null)
    throw badRequest({ reason: "mr_source_branch_missing", branch: input.source_branch });
  if (targetHead === null)
    throw badRequest({ reason: "mr_target_branch_missing", branch: input.target_branch });
  return sourceHead;
}

/**
 * `POST /projects/:id/merge_requests`: from `source_branch` of the project in the path (the caller
 * needs `create_merge_request` there) into `target_branch` of the same project or of the project it
 * was forked from. Checked in this order: the target project, same branch of the same project
 * (422), both branches exist (400), no open one for the same branches (409). The merge request,
 * its labels, the "opened" event and the todos are one transaction; its `merge_status` is then
 * computed from git.
 */
export async function createMergeRequest(
  ctx: SignedInContext,
  input: CreateMergeRequestInput,
): Promise<MergeRequest> {
  const { stores } = ctx.runtime;
  const user = ctx.actor.user;
  const source = await requireProject(ctx, input.id, "create_merge_request");
  const target = await targetOf(ctx, source, input.target_project_id);
  if (!target.allows("read_merge_request")) throw notFound("project");
  if (target === source && input.source_branch === input.target_branch) {
    throw new DomainError({ kind: "unprocessable", reason: "mr_same_branch" });
  }
  const head = await checkBranches(ctx, input, source, target);
  const mayAdminister = target.allows("update_merge_request");
  const { labelIds, assigneeId, milestoneId } = await newIssuableFields(
    stores,
    target.project.id,
    mayAdminister,
    input,
  );
  const { mergeRequest, event } = await stores
    .transaction(async (tx) => {
      const created = await tx.mergeRequests.create({
        project_id: target.project.id,
        source_project_id: source.project.id,
        source_branch: input.source_branch,
        target_branch: input.target_branch,
        title: input.title,
        description: input.description ?? null,
        author_id: user.id,
        assignee_id: assigneeId,
        milestone_id: milestoneId,
        force_remove_source_branch: input.remove_source_branch ?? false,
        diff_head_sha: head,
      });
      await tx.labels.addLabels({ type: "MergeRequest", id: created.id }, labelIds);
      const opened = await recordMergeRequestActivity(tx, created, user.id, "open");
      const subject = { access: target, type: "MergeRequest" as const, target: created };
      await assignedTodo(tx, subject, user, created.assignee_id);
      await mentionTodos(tx, subject, user, `${created.title}\n\n${created.description ?? ""}`);
      return { mergeRequest: created, event: opened };
    })
    .catch(async (error: unknown) => {
      if (!(error instanceof UniqueViolation)) throw error;
      const existing = await stores.mergeRequests.findOpen(
        source.project.id,
        input.source_branch,
        target.project.id,
        input.target_branch,
      );
      throw conflict({ reason: "mr_exists", titles: existing ? [existing.title] : [] });
    });
  ctx.runtime.events.emit(event);
  return (await checkMergeStatus(ctx.runtime, mergeRequest.id)) ?? mergeRequest;
}
