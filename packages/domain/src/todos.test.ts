import { describe, expect, it } from "vitest";
import { milestoneDatesProblem } from "./milestones.js";
import { TODO_ACTION_NAMES, TodoAction, todoActionByName } from "./todos.js";

describe("todo actions", () => {
  it("are numbered and named as GitLab 8.x stores them", () => {
    expect(TodoAction).toEqual({
      ASSIGNED: 1,
      MENTIONED: 2,
      BUILD_FAILED: 3,
      MARKED: 4,
      APPROVAL_REQUIRED: 5,
    });
    expect(TODO_ACTION_NAMES).toEqual({
      1: "assigned",
      2: "mentioned",
      3: "build_failed",
      4: "marked",
      5: "approval_required",
    });
  });

  it.each<[string, TodoAction | null]>([
    ["assigned", 1],
    ["mentioned", 2],
    ["build_failed", 3],
    ["marked", 4],
    ["approval_required", 5],
    ["Assigned", null],
    ["directly_addressed", null],
    ["", null],
  ])("%j is action %j", (name, action) => {
    expect(todoActionByName(name)).toBe(action);
  });
});

describe("milestone dates", () => {
  it.each<[string | null, string | null, string | null]>([
    [null, null, null],
    ["2016-01-01", null, null],
    [null, "2016-01-01", null],
    ["2016-01-01", "2016-01-01", null],
    ["2016-01-01", "2016-02-01", null],
    ["2016-02-01", "2016-01-01", "must be before due date"],
  ])("start %j, due %j: %j", (start_date, due_date, problem) => {
    expect(milestoneDatesProblem({ start_date, due_date })).toBe(problem);
  });
});
