import { type Namespace, type Note, notFound, type Project, type Todo, type User } from "@kiln/domain";
import type { Context } from "../context.js";
import { type IssueView, issueViews, type MergeRequestView, mergeRequestViews } from "../issuables/views.js";

/** What a todo points at, as the caller would see it. */
export type TodoTargetView =
  | { type: "Issue"; view: IssueView }
  | { type: "MergeRequest"; view: MergeRequestView };

/** Everything a v3 Todo answer shows. */
export interface TodoView {
  todo: Todo;
  /** The target's project and its namespace, for `project` and `target_url`. */
  project: Project;
  namespace: Namespace;
  /** Who caused the todo; null once their account is deleted (presented as the ghost user). */
  author: User | null;
  target: TodoTargetView;
  /** The note that mentioned the user, if a note did: its text is the body. */
  note: Note | null;
}

/** The ids of the todos' targets of one type. */
function targetIds(todos: readonly Todo[], type: Todo["target_type"]): number[] {
  return todos.flatMap((todo) => (todo.target_type === type ? [todo.target_id] : []));
}

/**
 * The views of many todos, in their order, with a fixed number of queries whatever the page size.
 * Todos whose target (or its project) is gone are left out.
 */
export async function todoViews(ctx: Context, todos: readonly Todo[]): Promise<TodoView[]> {
  if (todos.length === 0) return [];
  const { stores } = ctx.runtime;
  const authorIds = todos.flatMap((todo) => (todo.author_id === null ? [] : [todo.author_id]));
  const noteIds = todos.flatMap((todo) => (todo.note_id === null ? [] : [todo.note_id]));
  const [issues, mergeRequests, authors, notes] = await Promise.all([
    stores.issues.findByIds(targetIds(todos, "Issue")),
    stores.mergeRequests.findByIds(targetIds(todos, "MergeRequest")),
    stores.users.findByIds(authorIds),
    stores.notes.findByIds(noteIds),
  ]);
  const [issueList, mergeRequestList] = await Promise.all([
    issueViews(ctx, [...issues.values()]),
    mergeRequestViews(ctx, [...mergeRequests.values()]),
  ]);
  const issueById = new Map(issueList.map((view) => [view.issue.id, view]));
  const mergeRequestById = new Map(mergeRequestList.map((view) => [view.mergeRequest.id, view]));
  return todos.flatMap((todo) => {
    const target = targetOf(todo, issueById, mergeRequestById);
    if (!target) return [];
    return [
      {
        todo,
        project: target.view.project,
        namespace: target.view.namespace,
        author: (todo.author_id !== null && authors.get(todo.author_id)) || null,
        target,
        note: (todo.note_id !== null && notes.get(todo.note_id)) || null,
      },
    ];
  });
}

/** The loaded view of the todo's target, or undefined when it is gone. */
function targetOf(
  todo: Todo,
  issues: ReadonlyMap<number, IssueView>,
  mergeRequests: ReadonlyMap<number, MergeRequestView>,
): TodoTargetView | undefined {
  if (todo.target_type === "Issue") {
    const view = issues.get(todo.target_id);
    return view && { type: "Issue", view };
  }
  const view = mergeRequests.get(todo.target_id);
  return view && { type: "MergeRequest", view };
}

/** The view of one todo: `404 Todo Not Found` when its target was deleted meanwhile. */
export async function todoView(ctx: Context, todo: Todo): Promise<TodoView> {
  const [view] = await todoViews(ctx, [todo]);
  if (!view) throw notFound("todo");
  return view;
}
