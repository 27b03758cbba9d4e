import type { Todo } from "@kiln/domain";
import type { Stores, TodoTarget } from "@kiln/storage-kysely";
import { recordDomainEvent, type TodoEvent } from "../domain-events.js";

/**
 * Records that `todos` were created or marked done, in the transaction `tx` is bound to: one event
 * per owner and project, which only that owner's live stream carries.
 */
export async function recordTodoChanges(
  tx: Stores,
  action: TodoEvent["action"],
  todos: readonly Todo[],
): Promise<void> {
  const groups = new Map<string, TodoEvent>();
  for (const todo of todos) {
    const key = `${todo.user_id}:${todo.project_id}`;
    const group = groups.get(key);
    if (group) group.todoIds.push(todo.id);
    else
      groups.set(key, {
        kind: "todo",
        action,
        projectId: todo.project_id,
        userId: todo.user_id,
        todoIds: [todo.id],
      });
  }
  for (const event of groups.values()) await recordDomainEvent(tx, event);
}

/**
 * Marks the pending todos on a target done, with their events in one transaction: those of
 * `userIds` (who acted on it), or everyone's (it was closed or merged, as GitLab 8.x does), or
 * only those of one `action`. Answers the todos it marked.
 */
export function finishTodos(
  stores: Stores,
  target: TodoTarget,
  only: { userIds?: readonly number[]; action?: Todo["action"] } = {},
): Promise<Todo[]> {
  return stores.transaction(async (tx) => {
    const done =
      only.action === undefined
        ? await tx.todos.markDoneForTarget(target, only.userIds)
        : await tx.todos.markActionDoneForTarget(target, only.action);
    await recordTodoChanges(tx, "done", done);
    return done;
  });
}
