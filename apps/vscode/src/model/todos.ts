import type { TodoJson } from "@kiln/schemas";

/** A project heading in the Todos view, with its todos. */
export interface TodoGroup {
  kind: "project";
  /** Stable across refreshes, so that the tree keeps what is expanded. */
  key: string;
  label: string;
  todos: TodoLine[];
}

/** One todo as the Todos view shows it. */
export interface TodoLine {
  kind: "todo";
  key: string;
  todoId: number;
  /** The target's title. */
  label: string;
  /** Who did what: "Ada assigned you · !3". */
  description: string;
  tooltip: string;
  /** The target's page (the note when the todo is a mention). */
  url: string;
  icon: "git-pull-request" | "issues";
}

/** How each action reads after the author's name. */
const ACTION_WORDS: Record<TodoJson["action_name"], string> = {
  assigned: "assigned you",
  mentioned: "mentioned you",
  build_failed: "build failed",
  marked: "added a todo",
  approval_required: "asks your approval",
};

/** The target's reference as people write it: `!iid` for merge requests, `#iid` for issues. */
const referenceOf = (todo: TodoJson): string =>
  todo.target_type === "MergeRequest" ? `!${todo.target.iid}` : `#${todo.target.iid}`;

/** One todo's line: the target's title, and who did what. */
export function todoLine(todo: TodoJson): TodoLine {
  const action =
    todo.action_name === "build_failed"
      ? "Build failed"
      : `${todo.author.name} ${ACTION_WORDS[todo.action_name]}`;
  const reference = referenceOf(todo);
  const mention =
    todo.action_name === "mentioned" && todo.body !== todo.target.title ? `\n\n${todo.body}` : "";
  return {
    kind: "todo",
    key: `todo:${todo.id}`,
    todoId: todo.id,
    label: todo.target.title,
    description: `${action} · ${reference}`,
    tooltip: `${todo.project.path_with_namespace}${reference}: ${todo.target.title}\n${action}${mention}`,
    url: todo.target_url,
    icon: todo.target_type === "MergeRequest" ? "git-pull-request" : "issues",
  };
}

/** The todos grouped by project (projects by name, todos newest first as the server lists them). */
export function groupTodos(todos: readonly TodoJson[]): TodoGroup[] {
  const groups = new Map<number, TodoGroup>();
  for (const todo of todos) {
    let group = groups.get(todo.project.id);
    if (!group) {
      group = {
        kind: "project",
        key: `project:${todo.project.id}`,
        label: todo.project.name_with_namespace,
        todos: [],
      };
      groups.set(todo.project.id, group);
    }
    group.todos.push(todoLine(todo));
  }
  return [...groups.values()].sort((a, b) => a.label.localeCompare(b.label));
}

/**
 * The pending todos after a change the live stream told of: a new one joins the list (newest
 * first, as the server lists them), one marked done leaves it. Applying a change twice, or one the
 * list already shows, changes nothing.
 */
export function applyTodoChange(
  todos: readonly TodoJson[],
  change: { action: "created" | "done"; todo: TodoJson },
): TodoJson[] {
  const others = todos.filter((todo) => todo.id !== change.todo.id);
  if (change.action === "done" || change.todo.state !== "pending") return others;
  return [...others, change.todo].sort((a, b) => b.id - a.id);
}
