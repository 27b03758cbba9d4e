import type { Todo } from "@kiln/domain";
import type { TodoJson } from "@kiln/schemas";
import type { Stores, TodoTarget } from "@kiln/storage-kysely";
import { actorOf } from "../auth/credentials.js";
import type { Context } from "../context.js";
import { recordDomainEvent, type TodoEvent } from "../domain-events.js";
import { presentTodo } from "../presenters/todos.js";
import { readableTodoViews } from "./readability.js";

/**
 * Records that `todos` were created or marked done, in the transaction `tx` is bound to: one event
 * per owner and project, which only that owner's live stream carries. `gone` holds the todos as
 * their owners last saw them when their target is being deleted (see {@link deleteTodoTarget}).
 */
export async function recordTodoChanges(
  tx: Stores,
  action: TodoEvent["action"],
  todos: readonly Todo[],
  gone?: ReadonlyMap<number, TodoJson>,
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
  if (gone)
    for (const event of groups.values())
      event.gone = event.todoIds.flatMap((id) => {
        const todo = gone.get(id);
        return todo ? [{ ...todo, state: "done" as const }] : [];
      });
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

/**
 * The pending todos on a target as each owner's `GET /todos` shows them now (those they may read),
 * by todo id: what their streams are told once the target is gone.
 */
async function lastSeen(ctx: Context, todos: readonly Todo[]): Promise<Map<number, TodoJson>> {
  const owners = await ctx.runtime.stores.users.findByIds(todos.map((todo) => todo.user_id));
  const seen = new Map<number, TodoJson>();
  for (const owner of owners.values()) {
    const actor = actorOf({ user: owner, method: "private_token" });
    const own = todos.filter((todo) => todo.user_id === owner.id);
    const views = await readableTodoViews({ ...ctx, actor }, owner, own);
    for (const view of views) {
      seen.set(view.todo.id, presentTodo(view, { baseUrl: ctx.runtime.baseUrl, actor }));
    }
  }
  return seen;
}

/**
 * Deletes an issue or merge request with `remove` (which deletes its todos with it), and tells
 * the owners of its pending todos that they are done, in the same transaction: their streams
 * get each todo as they last saw it, since it can no longer be read.
 */
export async function deleteTodoTarget(
  ctx: Context,
  target: TodoTarget,
  remove: (tx: Stores) => Promise<unknown>,
): Promise<void> {
  const seen = await lastSeen(ctx, await ctx.runtime.stores.todos.pendingOnTarget(target));
  await ctx.runtime.stores.transaction(async (tx) => {
    // A todo made since it was read is deleted unannounced: there is nothing left to show of it.
    const done = await tx.todos.markDoneForTarget(target);
    await recordTodoChanges(
      tx,
      "done",
      done.filter((todo) => seen.has(todo.id)),
      seen,
    );
    await remove(tx);
  });
}
