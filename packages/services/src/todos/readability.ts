import { notFound, PROJECT_ABILITY_LEVELS, type Todo, type User } from "@kiln/domain";
import type { TodoFilter } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { mayReadIssue, mayReadMergeRequest } from "../issuables/access.js";
import { accessTo, type ProjectAccess } from "../projects/access.js";
import { type TodoView, todoView, todoViews } from "./views.js";

// A todo stays the user's, but is shown only while they may read its target: the project (the
// store's `readableBy` filter), for confidential issues GitLab 8.x's `read_issue` rules, and for
// merge requests `read_merge_request` or being their author or assignee.

/**
 * The confidential issues the user's todos point at that the user may no longer read (no longer
 * reporter, author or assignee). Lists leave them out in SQL, so their pages and totals stay honest.
 */
async function unreadableConfidentialIssues(ctx: Context, user: User): Promise<number[]> {
  const { stores } = ctx.runtime;
  const ids = await stores.todos.confidentialIssueTargets(user.id);
  if (ids.length === 0) return [];
  // Their author and assignee read them wherever they read the project.
  const issues = [...(await stores.issues.findByIds(ids)).values()].filter(
    (issue) => issue.author_id !== user.id && issue.assignee_id !== user.id,
  );
  if (issues.length === 0) return [];
  const projects = await stores.projects.findByIds(issues.map((issue) => issue.project_id));
  const namespaces = await stores.namespaces.findByIds([...projects.values()].map((p) => p.namespace_id));
  const accesses = new Map<number, ProjectAccess>();
  for (const project of projects.values()) {
    const namespace = namespaces.get(project.namespace_id);
    if (namespace) accesses.set(project.id, await accessTo(ctx, project, namespace));
  }
  return issues.flatMap((issue) => {
    const access = accesses.get(issue.project_id);
    return access && mayReadIssue(access, issue, user) ? [] : [issue.id];
  });
}

/**
 * The store filter that leaves out the caller's todos on what they may no longer read
 * (administrators read everything).
 */
export async function readableTodosFilter(ctx: Context, user: User): Promise<TodoFilter> {
  if (user.is_admin) return {};
  const reader = { userId: user.id, external: user.external };
  return {
    readableBy: reader,
    hiddenIssueIds: await unreadableConfidentialIssues(ctx, user),
    // Projects open to the reader grant `read_merge_request` too (the domain's table).
    mergeRequestsReadableBy: { ...reader, minLevel: PROJECT_ABILITY_LEVELS.read_merge_request },
  };
}

/** True when the caller may still read the todo's target. */
async function mayReadTarget(ctx: Context, view: TodoView, user: User): Promise<boolean> {
  const access = await accessTo(ctx, view.project, view.namespace);
  if (view.target.type === "MergeRequest") {
    return mayReadMergeRequest(access, view.target.view.mergeRequest, user);
  }
  return mayReadIssue(access, view.target.view.issue, user);
}

/**
 * The caller's todo `id` with its target, if they may still read it: `404 Todo Not Found` for
 * another user's todo, a missing one, or one on something hidden from them now.
 */
export async function requireTodo(ctx: Context, user: User, id: number): Promise<TodoView> {
  const todo = await ctx.runtime.stores.todos.findById(id);
  if (!todo || todo.user_id !== user.id) throw notFound("todo");
  const view = await todoView(ctx, todo);
  if (!(await mayReadTarget(ctx, view, user))) throw notFound("todo");
  return view;
}

/** The views of the caller's `todos` whose targets they may still read, as the list shows them. */
export async function readableTodoViews(
  ctx: Context,
  user: User,
  todos: readonly Todo[],
): Promise<TodoView[]> {
  const views = await todoViews(ctx, todos);
  const readable = await Promise.all(views.map((view) => mayReadTarget(ctx, view, user)));
  return views.filter((_, index) => readable[index]);
}
