import { TODO_ACTION_NAMES } from "@kiln/domain";
import { TodoAction, type TodoJson } from "@kiln/schemas";
import type { TodoView } from "../todos/views.js";
import { presentAuthor, presentIssue, presentMergeRequest } from "./issuables.js";
import type { PresentContext } from "./present-context.js";
import { presentBasicProject } from "./projects.js";

/** The target presented as its own endpoints answer it, with its page and title. */
function presentTarget(view: TodoView, context: PresentContext) {
  if (view.target.type === "Issue") {
    const target = presentIssue(view.target.view, context);
    return { target_type: "Issue" as const, target, webUrl: target.web_url, title: target.title };
  }
  const target = presentMergeRequest(view.target.view, context);
  return { target_type: "MergeRequest" as const, target, webUrl: target.web_url, title: target.title };
}

/**
 * A todo as GitLab 8.x answers it: the target in full, `target_url` pointing at the mentioning
 * note when a note mentioned the user, and that note's text as `body` (else the target's title).
 */
export function presentTodo(view: TodoView, context: PresentContext): TodoJson {
  const { todo, note } = view;
  const { webUrl, title, ...target } = presentTarget(view, context);
  return {
    id: todo.id,
    project: presentBasicProject(view.project, view.namespace, context),
    author: presentAuthor(view.author, context),
    action_name: TodoAction.parse(TODO_ACTION_NAMES[todo.action]),
    ...target,
    target_url: note ? `${webUrl}#note_${note.id}` : webUrl,
    body: note ? note.body : title,
    state: todo.state,
    created_at: todo.created_at,
  };
}
