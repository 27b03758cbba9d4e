import type { NoteableType, ProjectAbility } from "@kiln/domain";
import type { Stores } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { requireIssue, requireMergeRequest, type UnreadableAnswer } from "../issuables/access.js";
import type { TodoSubject } from "../issuables/todos.js";

/** An issue or merge request that notes hang under, with the caller's view of its project. */
export type Noteable = TodoSubject;

/** Where notes live: the project, the kind of noteable and its global id. */
export interface NoteablePath {
  type: NoteableType;
  ref: number | string;
  noteableId: number;
  /** How a merge request the caller may not read is refused: 404 unless said otherwise. */
  unreadable?: UnreadableAnswer;
}

/**
 * The issue or merge request at `path`, checked for `ability`: 404 when missing or unreadable (a
 * confidential issue of someone else, a merge request of a private project to its guests, unless
 * the path says 403), 403 when readable but not allowed.
 */
export async function requireNoteable(
  ctx: Context,
  path: NoteablePath,
  ability?: ProjectAbility,
): Promise<Noteable> {
  const { type, ref, noteableId } = path;
  if (type === "Issue") {
    const { issue, ...access } = await requireIssue(ctx, ref, noteableId, ability);
    return { access, type, target: issue };
  }
  const unreadable = path.unreadable ?? "hidden";
  const { mergeRequest, ...access } = await requireMergeRequest(ctx, ref, noteableId, ability, unreadable);
  return { access, type, target: mergeRequest };
}

/** Sets the noteable's `updated_at` to now, as GitLab's notes do (`touch: true`) when they change. */
export async function touchNoteable(tx: Stores, noteable: Noteable): Promise<void> {
  if (noteable.type === "Issue") await tx.issues.update(noteable.target.id, {});
  else await tx.mergeRequests.update(noteable.target.id, {});
}
