import type { NoteableType, ProjectAbility } from "@kiln/domain";
import type { Stores } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { requireIssue, requireMergeRequest } from "../issuables/access.js";
import type { TodoSubject } from "../issuables/todos.js";

/** An issue or merge request that notes hang under, with the caller's view of its project. */
export type Noteable = TodoSubject;

/**
 * The issue or merge request `noteableId` (global id) of the project `ref`, checked for
 * `ability`: 404 when missing or unreadable (a confidential issue of someone else), 403 when
 * readable but not allowed.
 */
export async function requireNoteable(
  ctx: Context,
  type: NoteableType,
  ref: number | string,
  noteableId: number,
  ability?: ProjectAbility,
): Promise<Noteable> {
  if (type === "Issue") {
    const { issue, ...access } = await requireIssue(ctx, ref, noteableId, ability);
    return { access, type, target: issue };
  }
  const { mergeRequest, ...access } = await requireMergeRequest(ctx, ref, noteableId, ability);
  return { access, type, target: mergeRequest };
}

/** Sets the noteable's `updated_at` to now, as GitLab's notes do (`touch: true`) when they change. */
export async function touchNoteable(tx: Stores, noteable: Noteable): Promise<void> {
  if (noteable.type === "Issue") await tx.issues.update(noteable.target.id, {});
  else await tx.mergeRequests.update(noteable.target.id, {});
}
