import { describe, expect, it } from "vitest";
import { issue, problems } from "./__tests__/samples.js";
import {
  CreateIssueInput,
  IssueJson,
  ListGroupIssuesInput,
  ListProjectIssuesInput,
  ListUserIssuesInput,
  MovedIssueJson,
  MoveIssueInput,
  UpdateIssueInput,
} from "./issues.js";

describe("issue lists", () => {
  it("fill in GitLab's defaults: all states (open ones on groups), newest created first", () => {
    expect(ListUserIssuesInput.parse({})).toEqual({ state: "all", order_by: "created_at", sort: "desc" });
    expect(ListGroupIssuesInput.parse({ id: "my-group" })).toEqual({
      id: "my-group",
      state: "opened",
      order_by: "created_at",
      sort: "desc",
    });
    expect(ListProjectIssuesInput.parse({ id: 5 })).toMatchObject({ state: "all" });
  });

  it("decode every filter of the project list", () => {
    expect(
      ListProjectIssuesInput.parse({
        id: "alice/app",
        iid: [3],
        state: "closed",
        labels: "bug, ui",
        milestone: "v1.0",
        order_by: "updated_at",
        sort: "asc",
        page: 2,
        per_page: 50,
      }),
    ).toEqual({
      id: "alice/app",
      iid: [3],
      state: "closed",
      labels: ["bug", "ui"],
      milestone: "v1.0",
      order_by: "updated_at",
      sort: "asc",
      page: 2,
      per_page: 50,
    });
  });

  it("refuse values outside the enumerations", () => {
    const result = ListProjectIssuesInput.safeParse({
      id: 5,
      state: "reopened",
      order_by: "title",
      sort: "up",
    });
    expect(Object.keys(problems(result)).sort()).toEqual(["order_by", "sort", "state"]);
    expect(result.error?.issues.every((i) => i.code === "invalid_value")).toBe(true);
  });

  it("have no iid filter on the user and group lists", () => {
    expect(ListUserIssuesInput.parse({ iid: [1] })).not.toHaveProperty("iid");
  });
});

describe("CreateIssueInput", () => {
  it("needs only the project and a title", () => {
    expect(CreateIssueInput.parse({ id: 5, title: "Crash" })).toEqual({ id: 5, title: "Crash" });
  });

  it("reports a missing title on the title, for the 'not given' answer", () => {
    const result = CreateIssueInput.safeParse({ id: 5 });
    expect(result.error?.issues.map((i) => i.path)).toEqual([["title"]]);
  });

  it("takes every optional field", () => {
    expect(
      CreateIssueInput.parse({
        id: 5,
        title: "Crash",
        description: "boom",
        assignee_id: 2,
        milestone_id: 11,
        labels: "bug,ui",
        created_at: "2016-01-02T03:04:05Z",
        due_date: "2016-02-01",
        confidential: true,
      }),
    ).toEqual({
      id: 5,
      title: "Crash",
      description: "boom",
      assignee_id: 2,
      milestone_id: 11,
      labels: ["bug", "ui"],
      created_at: "2016-01-02T03:04:05Z",
      due_date: "2016-02-01",
      confidential: true,
    });
  });

  it("refuses a blank title, a bad date and a non-boolean flag, per field", () => {
    const result = CreateIssueInput.safeParse({
      id: 5,
      title: "",
      due_date: "01/02/2016",
      confidential: "yes",
    });
    expect(problems(result)).toMatchObject({ title: "can't be blank" });
    expect(Object.keys(problems(result))).toEqual(["title", "due_date", "confidential"]);
  });

  it("lets 0 or null name no assignee or milestone, as GitLab does", () => {
    expect(CreateIssueInput.parse({ id: 5, title: "t", assignee_id: 0, milestone_id: null })).toMatchObject({
      assignee_id: 0,
      milestone_id: null,
    });
  });
});

describe("UpdateIssueInput", () => {
  it("needs the project and the issue, and leaves out what is not sent", () => {
    expect(UpdateIssueInput.parse({ id: 5, issue_id: 101 })).toEqual({ id: 5, issue_id: 101 });
    expect(UpdateIssueInput.safeParse({ id: 5 }).success).toBe(false);
  });

  it("takes the state events, updated_at, and an empty labels or due_date that clear them", () => {
    expect(
      UpdateIssueInput.parse({
        id: 5,
        issue_id: 101,
        state_event: "reopen",
        updated_at: "2016-01-02T03:04:05.000+01:00",
        labels: "",
        due_date: "",
      }),
    ).toEqual({
      id: 5,
      issue_id: 101,
      state_event: "reopen",
      updated_at: "2016-01-02T03:04:05.000+01:00",
      labels: [],
      due_date: null,
    });
  });

  it("refuses a state event issues do not have", () => {
    expect(
      Object.keys(problems(UpdateIssueInput.safeParse({ id: 5, issue_id: 1, state_event: "merge" }))),
    ).toEqual(["state_event"]);
  });
});

describe("MoveIssueInput", () => {
  it("needs the target project's id", () => {
    expect(MoveIssueInput.parse({ id: 5, issue_id: 101, to_project_id: 6 })).toEqual({
      id: 5,
      issue_id: 101,
      to_project_id: 6,
    });
    expect(MoveIssueInput.safeParse({ id: 5, issue_id: 101 }).error?.issues.map((i) => i.path)).toEqual([
      ["to_project_id"],
    ]);
  });
});

describe("IssueJson", () => {
  it("is exactly the issue's fields, in GitLab 8.15's order", () => {
    const parsed = IssueJson.strict().parse(issue);
    expect(parsed).toEqual(issue);
    expect(Object.keys(parsed)).toEqual(Object.keys(issue));
    expect(IssueJson.strict().safeParse({ ...issue, moved_to_id: null }).success).toBe(false);
  });

  it("allows null where the spec does, and nowhere else", () => {
    expect(
      IssueJson.safeParse({ ...issue, description: null, milestone: null, due_date: "2026-01-31" }).success,
    ).toBe(true);
    expect(IssueJson.safeParse({ ...issue, author: null }).success).toBe(false);
    expect(IssueJson.safeParse({ ...issue, labels: null }).success).toBe(false);
  });

  it("knows the reopened state and no other", () => {
    expect(IssueJson.safeParse({ ...issue, state: "reopened" }).success).toBe(true);
    expect(IssueJson.safeParse({ ...issue, state: "merged" }).success).toBe(false);
  });

  it("wants UTC timestamps with milliseconds and plain due dates", () => {
    expect(IssueJson.safeParse({ ...issue, created_at: "2026-01-02T03:04:05Z" }).success).toBe(false);
    expect(IssueJson.safeParse({ ...issue, due_date: "2026-01-31T00:00:00.000Z" }).success).toBe(false);
  });

  it("MovedIssueJson leaves out the caller's subscription and note count", () => {
    const { subscribed: _s, user_notes_count: _n, ...moved } = issue;
    expect(MovedIssueJson.strict().parse(moved)).toEqual(moved);
    expect(MovedIssueJson.strict().safeParse(issue).success).toBe(false);
  });
});
