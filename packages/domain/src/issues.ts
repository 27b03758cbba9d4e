import type { StateMachine } from "./state-machine.js";

/**
 * The states of an issue, as GitLab 8.x stores and reports them: `opened` when created, `closed`,
 * and `reopened` after a reopen (the API shows `reopened`, not `opened`).
 */
export const ISSUE_STATES = ["opened", "reopened", "closed"] as const;

/** One of {@link ISSUE_STATES}. */
export type IssueState = (typeof ISSUE_STATES)[number];

/** What changes an issue's state: the `state_event` values of an edit. */
export const ISSUE_STATE_EVENTS = ["close", "reopen"] as const;

/** One of {@link ISSUE_STATE_EVENTS}. */
export type IssueStateEvent = (typeof ISSUE_STATE_EVENTS)[number];

/** The issue state machine: close an open issue (opened or reopened), reopen a closed one. */
export const ISSUE_STATE_MACHINE: StateMachine<IssueState, IssueStateEvent> = {
  opened: { close: "closed" },
  reopened: { close: "closed" },
  closed: { reopen: "reopened" },
};

/** True for the states GitLab calls open (`Issuable.opened`): opened and reopened. */
export function isOpenState(state: string): state is "opened" | "reopened" {
  return state === "opened" || state === "reopened";
}

/** The `state` filter of issue lists: `opened` also matches reopened issues; `all` matches every state. */
export type IssueStateFilter = "opened" | "closed" | "all";

/** The states each value of the `state` filter of issue lists matches. */
export const ISSUE_STATE_FILTERS: Readonly<Record<IssueStateFilter, readonly IssueState[]>> = {
  opened: ["opened", "reopened"],
  closed: ["closed"],
  all: ISSUE_STATES,
};

/** The columns issue and merge request lists may be ordered by (`order_by`). */
export type IssuableOrderBy = "created_at" | "updated_at";

/** The direction of a list's order (`sort`). */
export type SortDirection = "asc" | "desc";

/**
 * An issue. `id` is unique across all issues, `iid` only inside its project (never reused there).
 * Its labels, notes and subscriptions are kept apart and loaded for many issues at once.
 */
export interface Issue {
  id: number;
  project_id: number;
  iid: number;
  title: string;
  description: string | null;
  state: IssueState;
  /** Null once the author's account is deleted (shown as a ghost by the presenter). */
  author_id: number | null;
  assignee_id: number | null;
  milestone_id: number | null;
  /** Hidden from non-members and guests, except its author and assignee. */
  confidential: boolean;
  /** `YYYY-MM-DD`, or null. */
  due_date: string | null;
  /** The issue this one was moved to (it was then closed), or null. */
  moved_to_id: number | null;
  created_at: string;
  updated_at: string;
}
