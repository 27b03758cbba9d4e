import type { StateMachine } from "./state-machine.js";

/**
 * Why a todo exists, numbered as GitLab 8.x stores them. `APPROVAL_REQUIRED` is GitLab EE's: the
 * `/todos` filter accepts its name and nothing creates it.
 */
export const TodoAction = {
  ASSIGNED: 1,
  MENTIONED: 2,
  BUILD_FAILED: 3,
  MARKED: 4,
  APPROVAL_REQUIRED: 5,
} as const;

/** One of the todo action numbers. */
export type TodoAction = (typeof TodoAction)[keyof typeof TodoAction];

/** GitLab's name of each action (`action_name`, and the values of the `action` filter). */
export const TODO_ACTION_NAMES: Readonly<Record<TodoAction, string>> = {
  [TodoAction.ASSIGNED]: "assigned",
  [TodoAction.MENTIONED]: "mentioned",
  [TodoAction.BUILD_FAILED]: "build_failed",
  [TodoAction.MARKED]: "marked",
  [TodoAction.APPROVAL_REQUIRED]: "approval_required",
};

/** The action a name stands for, or null for an unknown name. */
export function todoActionByName(name: string): TodoAction | null {
  for (const [action, actionName] of Object.entries(TODO_ACTION_NAMES)) {
    if (actionName === name) return Number(action) as TodoAction;
  }
  return null;
}

/** What a todo may be about, by GitLab's class name. */
export const TODO_TARGET_TYPES = ["Issue", "MergeRequest"] as const;

/** One of {@link TODO_TARGET_TYPES}. */
export type TodoTargetType = (typeof TODO_TARGET_TYPES)[number];

/** The states of a todo. */
export const TODO_STATES = ["pending", "done"] as const;

/** One of {@link TODO_STATES}. */
export type TodoState = (typeof TODO_STATES)[number];

/** What changes a todo's state. */
export type TodoStateEvent = "done";

/** The todo state machine: a pending todo is done, and stays done. */
export const TODO_STATE_MACHINE: StateMachine<TodoState, TodoStateEvent> = {
  pending: { done: "done" },
  done: {},
};

/**
 * Something a user is asked to look at. A user has at most one pending todo per target, whatever
 * the action (GitLab's `TodoService`: any pending todo on the target suppresses a new one).
 */
export interface Todo {
  id: number;
  user_id: number;
  project_id: number;
  target_type: TodoTargetType;
  target_id: number;
  action: TodoAction;
  /** Who caused it; null once their account is deleted. */
  author_id: number | null;
  /** The note that mentioned the user, for `mentioned` todos from a comment. Its text is the body. */
  note_id: number | null;
  state: TodoState;
  created_at: string;
  updated_at: string;
}
