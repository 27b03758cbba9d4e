import { describe, expect, it } from "vitest";
import { issue, mergeRequest, problems, project, TIME, user } from "./__tests__/samples.js";
import { ListTodosInput, TodoJson, TodoRefInput, TodosMarkedDoneJson } from "./todos.js";

const issueTodo = {
  id: 41,
  project,
  author: user,
  action_name: "marked",
  target_type: "Issue",
  target: issue,
  target_url: "http://localhost/alice/app/issues/3",
  body: "Crash on start",
  state: "pending",
  created_at: TIME,
};

describe("ListTodosInput", () => {
  it("lists pending todos unless asked", () => {
    expect(ListTodosInput.parse({})).toEqual({ state: "pending" });
  });

  it("takes every filter", () => {
    const input = {
      action: "mentioned",
      author_id: 2,
      project_id: 5,
      state: "done",
      type: "MergeRequest",
      page: 1,
      per_page: 20,
    };
    expect(ListTodosInput.parse(input)).toEqual(input);
  });

  it("refuses values outside the enumerations", () => {
    expect(
      Object.keys(
        problems(ListTodosInput.safeParse({ action: "approved", state: "open", type: "Commit" })),
      ).sort(),
    ).toEqual(["action", "state", "type"]);
  });

  it("TodoRefInput names a todo by id", () => {
    expect(TodoRefInput.parse({ id: 41 })).toEqual({ id: 41 });
    expect(TodoRefInput.safeParse({}).success).toBe(false);
  });
});

describe("TodoJson", () => {
  it("is exactly the todo's fields, in GitLab 8.15's order, with an issue target", () => {
    const parsed = TodoJson.parse(issueTodo);
    expect(parsed).toEqual(issueTodo);
    expect(Object.keys(parsed)).toEqual(Object.keys(issueTodo));
  });

  it("carries a merge request when the target type says so", () => {
    const todo = { ...issueTodo, action_name: "assigned", target_type: "MergeRequest", target: mergeRequest };
    expect(TodoJson.parse(todo)).toEqual(todo);
    expect(TodoJson.safeParse({ ...issueTodo, target_type: "MergeRequest" }).success).toBe(false);
    expect(TodoJson.safeParse({ ...todo, target_type: "Issue" }).success).toBe(false);
  });

  it("knows the states and actions", () => {
    expect(TodoJson.safeParse({ ...issueTodo, state: "done", action_name: "build_failed" }).success).toBe(
      true,
    );
    expect(TodoJson.safeParse({ ...issueTodo, state: "closed" }).success).toBe(false);
  });

  it("marking all done answers a bare count", () => {
    expect(TodosMarkedDoneJson.parse(3)).toBe(3);
    expect(TodosMarkedDoneJson.safeParse({ count: 3 }).success).toBe(false);
  });
});
