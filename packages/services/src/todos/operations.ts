import { notFound, pageRequest, TODO_ACTION_NAMES, type TodoAction, todoActionByName } from "@kiln/domain";
import { ListTodosInput, NoInput, TodoRefInput } from "@kiln/schemas";
import { mutation, query } from "../operation.js";
import { recordTodoChanges } from "./changes.js";
import { readableTodosFilter, requireTodo } from "./readability.js";
import { todoViews } from "./views.js";

/**
 * The actions the list asks for: `action` by name and `action_id` by GitLab's number (an unknown
 * number is ignored, as GitLab does); both given, a todo must match both.
 */
function requestedActions(input: ListTodosInput): TodoAction[] | undefined {
  const byName = input.action === undefined ? null : todoActionByName(input.action);
  const byId =
    input.action_id !== undefined && input.action_id in TODO_ACTION_NAMES
      ? (input.action_id as TodoAction)
      : null;
  if (byName === null) return byId === null ? undefined : [byId];
  return byId === null || byId === byName ? [byName] : [];
}

/**
 * The caller's todos (`/todos`): what they are asked to look at, on issues and merge requests
 * they may still read. Todos are created by the issue, merge request and note operations.
 */
export const todos = {
  /** A page of the caller's todos, newest first: with no `state`, the pending ones. */
  list: query("signed_in", ListTodosInput, async (ctx, input) => {
    const { user } = ctx.actor;
    const filter = {
      ...(await readableTodosFilter(ctx, user)),
      states: [input.state],
      actions: requestedActions(input),
      authorId: input.author_id,
      projectId: input.project_id,
      targetType: input.type,
    };
    const page = await ctx.runtime.stores.todos.list(user.id, filter, pageRequest(input));
    return { ...page, items: await todoViews(ctx, page.items) };
  }),

  /** Marks one of the caller's todos done and answers it (one done already is answered as it is). */
  markDone: mutation("signed_in", TodoRefInput, async (ctx, input) => {
    const { user } = ctx.actor;
    const view = await requireTodo(ctx, user, input.id);
    const done = await ctx.runtime.stores.transaction(async (tx) => {
      const marked = await tx.todos.markDone(user.id, view.todo.id);
      if (marked && view.todo.state === "pending") await recordTodoChanges(tx, "done", [marked]);
      return marked;
    });
    if (!done) throw notFound("todo");
    return { ...view, todo: done };
  }),

  /** Marks all the caller's pending todos they may still read done; answers how many changed. */
  markAllDone: mutation("signed_in", NoInput, async (ctx) => {
    const { user } = ctx.actor;
    const filter = await readableTodosFilter(ctx, user);
    return ctx.runtime.stores.transaction(async (tx) => {
      const done = await tx.todos.markAllDone(user.id, filter);
      await recordTodoChanges(tx, "done", done);
      return done.length;
    });
  }),
};
