import type { StateMachine } from "./state-machine.js";

/** The states of a milestone. */
export const MILESTONE_STATES = ["active", "closed"] as const;

/** One of {@link MILESTONE_STATES}. */
export type MilestoneState = (typeof MILESTONE_STATES)[number];

/** What changes a milestone's state: the `state_event` values of an edit. */
export const MILESTONE_STATE_EVENTS = ["close", "activate"] as const;

/** One of {@link MILESTONE_STATE_EVENTS}. */
export type MilestoneStateEvent = (typeof MILESTONE_STATE_EVENTS)[number];

/** The milestone state machine: close an active milestone, activate a closed one. */
export const MILESTONE_STATE_MACHINE: StateMachine<MilestoneState, MilestoneStateEvent> = {
  active: { close: "closed" },
  closed: { activate: "active" },
};

/** The `state` filter of milestone lists (default `all`). */
export type MilestoneStateFilter = MilestoneState | "all";

/** The states each value of the `state` filter of milestone lists matches. */
export const MILESTONE_STATE_FILTERS: Readonly<Record<MilestoneStateFilter, readonly MilestoneState[]>> = {
  active: ["active"],
  closed: ["closed"],
  all: MILESTONE_STATES,
};

/** A milestone of a project: `iid` numbered per project like issues, `title` unique in the project. */
export interface Milestone {
  id: number;
  project_id: number;
  iid: number;
  title: string;
  description: string | null;
  state: MilestoneState;
  /** `YYYY-MM-DD`, or null. */
  due_date: string | null;
  /** `YYYY-MM-DD`, or null (GitLab 8.15); not after `due_date`. */
  start_date: string | null;
  created_at: string;
  updated_at: string;
}

/** Why a milestone's dates do not go together, or null: the start may not be after the due date. */
export function milestoneDatesProblem(dates: Pick<Milestone, "due_date" | "start_date">): string | null {
  if (dates.start_date !== null && dates.due_date !== null && dates.start_date > dates.due_date) {
    return "must be before due date";
  }
  return null;
}
