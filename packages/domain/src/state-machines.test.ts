import { describe, expect, it } from "vitest";
import {
  ISSUE_STATE_EVENTS,
  ISSUE_STATE_FILTERS,
  ISSUE_STATE_MACHINE,
  ISSUE_STATES,
  type IssueState,
  type IssueStateEvent,
  isOpenState,
} from "./issues.js";
import {
  MERGE_REQUEST_STATE_EVENTS,
  MERGE_REQUEST_STATE_FILTERS,
  MERGE_REQUEST_STATE_MACHINE,
  MERGE_REQUEST_STATES,
  type MergeRequestState,
  type MergeRequestStateEvent,
} from "./merge-requests.js";
import {
  MILESTONE_STATE_EVENTS,
  MILESTONE_STATE_FILTERS,
  MILESTONE_STATE_MACHINE,
  MILESTONE_STATES,
  type MilestoneState,
  type MilestoneStateEvent,
} from "./milestones.js";
import { eventsFrom, type StateMachine, transition } from "./state-machine.js";
import { TODO_STATE_MACHINE, TODO_STATES, type TodoState, type TodoStateEvent } from "./todos.js";

/**
 * Every (state, event) pair of a machine against a table written out in full: the state it leads
 * to, or null where it is not allowed.
 */
function checkTable<S extends string, E extends string>(
  machine: StateMachine<S, E>,
  states: readonly S[],
  events: readonly E[],
  expected: Record<S, Record<E, S | null>>,
): void {
  for (const state of states) {
    for (const event of events) {
      expect({ state, event, to: transition(machine, state, event) }).toEqual({
        state,
        event,
        to: expected[state][event],
      });
    }
  }
}

describe("issue states", () => {
  it("close an open issue and reopen a closed one, nothing else", () => {
    checkTable<IssueState, IssueStateEvent>(ISSUE_STATE_MACHINE, ISSUE_STATES, ISSUE_STATE_EVENTS, {
      opened: { close: "closed", reopen: null },
      reopened: { close: "closed", reopen: null },
      closed: { close: null, reopen: "reopened" },
    });
  });

  it("filter opened as opened and reopened", () => {
    expect(ISSUE_STATE_FILTERS).toEqual({
      opened: ["opened", "reopened"],
      closed: ["closed"],
      all: ["opened", "reopened", "closed"],
    });
  });

  it.each([
    ["opened", true],
    ["reopened", true],
    ["closed", false],
    ["merged", false],
    ["locked", false],
    ["", false],
  ])("call %j open: %s", (state, open) => {
    expect(isOpenState(state)).toBe(open);
  });
});

describe("merge request states", () => {
  it("close or merge an open one, reopen a closed one, and never leave merged", () => {
    checkTable<MergeRequestState, MergeRequestStateEvent>(
      MERGE_REQUEST_STATE_MACHINE,
      MERGE_REQUEST_STATES,
      MERGE_REQUEST_STATE_EVENTS,
      {
        opened: { close: "closed", reopen: null, merge: "merged" },
        reopened: { close: "closed", reopen: null, merge: "merged" },
        closed: { close: null, reopen: "reopened", merge: null },
        merged: { close: null, reopen: null, merge: null },
      },
    );
  });

  it("filter opened as opened and reopened, and closed without merged", () => {
    expect(MERGE_REQUEST_STATE_FILTERS).toEqual({
      opened: ["opened", "reopened"],
      closed: ["closed"],
      merged: ["merged"],
      all: ["opened", "reopened", "closed", "merged"],
    });
  });
});

describe("milestone states", () => {
  it("close an active milestone and activate a closed one", () => {
    checkTable<MilestoneState, MilestoneStateEvent>(
      MILESTONE_STATE_MACHINE,
      MILESTONE_STATES,
      MILESTONE_STATE_EVENTS,
      {
        active: { close: "closed", activate: null },
        closed: { close: null, activate: "active" },
      },
    );
  });

  it("filter by one state or all", () => {
    expect(MILESTONE_STATE_FILTERS).toEqual({
      active: ["active"],
      closed: ["closed"],
      all: ["active", "closed"],
    });
  });
});

describe("todo states", () => {
  it("mark a pending todo done, once", () => {
    checkTable<TodoState, TodoStateEvent>(TODO_STATE_MACHINE, TODO_STATES, ["done"], {
      pending: { done: "done" },
      done: { done: null },
    });
  });
});

describe("machines as data", () => {
  it("list the events each state accepts", () => {
    expect(eventsFrom(ISSUE_STATE_MACHINE, "opened")).toEqual(["close"]);
    expect(eventsFrom(MERGE_REQUEST_STATE_MACHINE, "reopened")).toEqual(["close", "merge"]);
    expect(eventsFrom(MERGE_REQUEST_STATE_MACHINE, "merged")).toEqual([]);
  });

  it("lead only to states of the machine", () => {
    const machines: [StateMachine<string, string>, readonly string[]][] = [
      [ISSUE_STATE_MACHINE, ISSUE_STATES],
      [MERGE_REQUEST_STATE_MACHINE, MERGE_REQUEST_STATES],
      [MILESTONE_STATE_MACHINE, MILESTONE_STATES],
      [TODO_STATE_MACHINE, TODO_STATES],
    ];
    for (const [machine, states] of machines) {
      expect(Object.keys(machine).sort()).toEqual([...states].sort());
      for (const targets of Object.values(machine)) {
        for (const target of Object.values(targets)) expect(states).toContain(target);
      }
    }
  });

  it("answer null for a state the machine does not know", () => {
    expect(transition(ISSUE_STATE_MACHINE, "merged" as IssueState, "close")).toBeNull();
  });
});
