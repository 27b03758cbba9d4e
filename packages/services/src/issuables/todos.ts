import {
  type Issue,
  type MergeRequest,
  mentionedUsernames,
  type Todo,
  TodoAction,
  type User,
} from "@kiln/domain";
import type { Stores } from "@kiln/storage-kysely";
import { type ProjectAccess, userAccess } from "../projects/access.js";
import { recordTodoChanges } from "../todos/changes.js";
import { mayReadIssue, mayReadMergeRequest } from "./access.js";

/** An issue or merge request that todos may point at, with the caller's view of its project. */
export type TodoSubject =
  | { access: ProjectAccess; type: "Issue"; target: Issue }
  | { access: ProjectAccess; type: "MergeRequest"; target: MergeRequest };

/** True when `user` may read the target: active, and among those who may read it. */
async function mayRead(tx: Stores, subject: TodoSubject, user: User): Promise<boolean> {
  if (user.state !== "active") return false;
  const { project, namespace } = subject.access;
  const access = await userAccess(tx, user, project, namespace);
  if (subject.type === "MergeRequest") return mayReadMergeRequest(access, subject.target, user);
  return mayReadIssue(access, subject.target, user);
}

/**
 * Creates a pending todo unless the user has one on the target already (null then), with its event
 * in the same transaction (`stores`' own, or one of its own).
 */
function createTodo(
  stores: Stores,
  subject: TodoSubject,
  userId: number,
  action: TodoAction,
  authorId: number,
  noteId: number | null = null,
): Promise<Todo | null> {
  return stores.transaction(async (tx) => {
    const created = await tx.todos.createPending({
      user_id: userId,
      project_id: subject.target.project_id,
      target_type: subject.type,
      target_id: subject.target.id,
      action,
      author_id: authorId,
      note_id: noteId,
    });
    if (created) await recordTodoChanges(tx, "created", [created]);
    return created;
  });
}

/** `POST …/todo`: the caller's "marked" todo, or null when they have a pending one on it already. */
export function markTodo(tx: Stores, subject: TodoSubject, user: User): Promise<Todo | null> {
  return createTodo(tx, subject, user.id, TodoAction.MARKED, user.id);
}

/**
 * An "assigned" todo for the new assignee, when someone else assigned them and they may read the
 * target (GitLab 8.x gives none for assigning oneself).
 */
export async function assignedTodo(
  tx: Stores,
  subject: TodoSubject,
  by: User,
  assigneeId: number | null,
): Promise<void> {
  if (assigneeId === null || assigneeId === by.id) return;
  const assignee = await tx.users.findById(assigneeId);
  if (assignee && (await mayRead(tx, subject, assignee))) {
    await createTodo(tx, subject, assignee.id, TodoAction.ASSIGNED, by.id);
  }
}

/**
 * "mentioned" todos for each `@username` in `text` who may read the target, but the writer.
 * `previousText` is what the text said before an edit: people it already mentioned get none again.
 * `noteId` names the note that mentions them, if it is a note.
 */
export async function mentionTodos(
  tx: Stores,
  subject: TodoSubject,
  by: User,
  text: string | null,
  options: { previousText?: string | null; noteId?: number } = {},
): Promise<void> {
  if (!text) return;
  const before = new Set(mentionedUsernames(options.previousText ?? "").map((name) => name.toLowerCase()));
  const names = mentionedUsernames(text).filter((name) => !before.has(name.toLowerCase()));
  for (const name of names) {
    const user = await tx.users.findByUsername(name);
    if (!user || user.id === by.id || !(await mayRead(tx, subject, user))) continue;
    await createTodo(tx, subject, user.id, TodoAction.MENTIONED, by.id, options.noteId ?? null);
  }
}

/**
 * A "build_failed" todo for the author of a merge request whose head pipeline failed, when they
 * may still read it (8.x's TodoService#merge_request_build_failed: the author is also the todo's).
 */
export async function buildFailedTodo(tx: Stores, subject: TodoSubject, author: User): Promise<void> {
  if (await mayRead(tx, subject, author)) {
    await createTodo(tx, subject, author.id, TodoAction.BUILD_FAILED, author.id);
  }
}
