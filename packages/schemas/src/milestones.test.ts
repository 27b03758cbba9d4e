import { describe, expect, it } from "vitest";
import { milestone, problems } from "./__tests__/samples.js";
import {
  CreateMilestoneInput,
  ListMilestonesInput,
  MilestoneIssuesInput,
  MilestoneJson,
  UpdateMilestoneInput,
} from "./milestones.js";

describe("ListMilestonesInput", () => {
  it("lists every state unless asked, and filters by iids", () => {
    expect(ListMilestonesInput.parse({ id: 5 })).toEqual({ id: 5, state: "all" });
    expect(ListMilestonesInput.parse({ id: 5, state: "active", iid: [1, 2] })).toEqual({
      id: 5,
      state: "active",
      iid: [1, 2],
    });
    expect(Object.keys(problems(ListMilestonesInput.safeParse({ id: 5, state: "opened" })))).toEqual([
      "state",
    ]);
  });
});

describe("CreateMilestoneInput", () => {
  it("needs a title and takes dates", () => {
    expect(CreateMilestoneInput.safeParse({ id: 5 }).error?.issues.map((i) => i.path)).toEqual([["title"]]);
    const input = {
      id: 5,
      title: "v1.0",
      description: "First",
      due_date: "2026-03-31",
      start_date: "2026-03-01",
    };
    expect(CreateMilestoneInput.parse(input)).toEqual(input);
  });

  it("refuses dates that are not YYYY-MM-DD", () => {
    expect(
      Object.keys(problems(CreateMilestoneInput.safeParse({ id: 5, title: "v1", due_date: "31.03.2026" }))),
    ).toEqual(["due_date"]);
  });
});

describe("UpdateMilestoneInput", () => {
  it("closes and activates", () => {
    for (const state_event of ["close", "activate"]) {
      expect(UpdateMilestoneInput.parse({ id: 5, milestone_id: 11, state_event })).toEqual({
        id: 5,
        milestone_id: 11,
        state_event,
      });
    }
    expect(UpdateMilestoneInput.safeParse({ id: 5, milestone_id: 11, state_event: "reopen" }).success).toBe(
      false,
    );
  });

  it("needs one change, and clears the due date with an empty value", () => {
    expect(problems(UpdateMilestoneInput.safeParse({ id: 5, milestone_id: 11 }))).toEqual({
      base: "title, description, due_date, start_date, state_event are missing, at least one parameter must be provided",
    });
    expect(UpdateMilestoneInput.parse({ id: 5, milestone_id: 11, due_date: "" })).toEqual({
      id: 5,
      milestone_id: 11,
      due_date: null,
    });
  });
});

describe("milestone outputs", () => {
  it("MilestoneIssuesInput is paginated", () => {
    expect(MilestoneIssuesInput.parse({ id: 5, milestone_id: 11, per_page: 100 })).toEqual({
      id: 5,
      milestone_id: 11,
      per_page: 100,
    });
  });

  it("MilestoneJson is exactly the milestone's fields, in GitLab 8.15's order", () => {
    expect(Object.keys(MilestoneJson.strict().parse(milestone))).toEqual(Object.keys(milestone));
    expect(MilestoneJson.safeParse({ ...milestone, state: "closed", description: "x" }).success).toBe(true);
    expect(MilestoneJson.safeParse({ ...milestone, state: "opened" }).success).toBe(false);
  });
});
