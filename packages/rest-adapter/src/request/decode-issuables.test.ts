import { DomainError } from "@kiln/domain";
import {
  AcceptMergeRequestInput,
  CreateIssueInput,
  CreateLabelInput,
  CreateMergeRequestInput,
  ListMergeRequestsInput,
  ListMilestonesInput,
  ListProjectIssuesInput,
  ListTodosInput,
  UpdateIssueInput,
  UpdateLabelInput,
} from "@kiln/schemas";
import { describe, expect, it } from "vitest";
import { v3Message } from "../wording/index.js";
import { decodeParams } from "./decode.js";
import { PARAM_LIMITS } from "./limits.js";
import { formPairs, paramsFromPairs } from "./params.js";

// The issue, merge request, label, milestone and todo schemas as requests reach them: every
// value a string from a query string or a form, arrays as `key[]`.

/** Parameters of a query string, as the adapter builds them. */
const query = (text: string) => paramsFromPairs(formPairs(text));

/** The DomainError thrown by `fn`; fails the test when it throws nothing or something else. */
function domainError(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    if (DomainError.is(error)) return error;
    throw error;
  }
  throw new Error("expected a DomainError, nothing was thrown");
}

describe("issue parameters from query strings", () => {
  it("decode the project list's filters, defaults filled in", () => {
    expect(
      decodeParams(ListProjectIssuesInput, {
        ...query("iid=3&state=opened&labels=bug,%20ui&milestone=v1.0&page=2&per_page=50"),
        id: "5",
      }),
    ).toEqual({
      id: 5,
      iid: [3],
      state: "opened",
      labels: ["bug", "ui"],
      milestone: "v1.0",
      order_by: "created_at",
      sort: "desc",
      page: 2,
      per_page: 50,
    });
  });

  it("keep a project path as a string", () => {
    expect(decodeParams(ListProjectIssuesInput, { id: "alice/app" })).toMatchObject({ id: "alice/app" });
  });

  it("answer a missing title with the standard 400", () => {
    const error = domainError(() => decodeParams(CreateIssueInput, { ...query("description=x"), id: "5" }));
    expect(error.kind).toBe("missing_param");
    expect(v3Message(error.failure)).toBe('400 (Bad request) "title" not given');
  });

  it("decode a created issue's numbers, flags, labels and dates", () => {
    expect(
      decodeParams(CreateIssueInput, {
        ...query(
          "title=Crash&assignee_id=2&milestone_id=0&labels=bug,ui&confidential=true&due_date=2016-02-01",
        ),
        id: "5",
      }),
    ).toEqual({
      id: 5,
      title: "Crash",
      assignee_id: 2,
      milestone_id: 0,
      labels: ["bug", "ui"],
      confidential: true,
      due_date: "2016-02-01",
    });
  });

  it("read an empty labels or due_date on an edit as clearing them", () => {
    expect(
      decodeParams(UpdateIssueInput, {
        ...query("labels=&due_date=&state_event=close"),
        id: "5",
        issue_id: "101",
      }),
    ).toEqual({ id: 5, issue_id: 101, labels: [], due_date: null, state_event: "close" });
  });

  it("word refusals as GitLab does", () => {
    const error = domainError(() =>
      decodeParams(UpdateIssueInput, {
        ...query("title=&state_event=merge&confidential=maybe&due_date=2016-02-30"),
        id: "5",
        issue_id: "101",
      }),
    );
    expect(error.kind).toBe("validation");
    expect(error.fields).toEqual({
      title: ["can't be blank"],
      state_event: ["does not have a valid value"],
      confidential: ["is invalid"],
      due_date: ["is invalid"],
    });
  });
});

describe("merge request parameters from query strings", () => {
  it("decode iid[] lists", () => {
    expect(
      decodeParams(ListMergeRequestsInput, { ...query("iid[]=1&iid[]=7&state=merged"), id: "5" }),
    ).toMatchObject({
      iid: [1, 7],
      state: "merged",
    });
  });

  it("answer missing branches in GitLab's order", () => {
    expect(
      v3Message(
        domainError(() => decodeParams(CreateMergeRequestInput, { ...query("title=Fix"), id: "5" })).failure,
      ),
    ).toBe('400 (Bad request) "source_branch" not given');
    expect(
      v3Message(
        domainError(() =>
          decodeParams(CreateMergeRequestInput, { ...query("source_branch=fix&title=Fix"), id: "5" }),
        ).failure,
      ),
    ).toBe('400 (Bad request) "target_branch" not given');
  });

  it("decode an accept's flags", () => {
    expect(
      decodeParams(AcceptMergeRequestInput, {
        ...query("should_remove_source_branch=1&merge_when_build_succeeds=false&sha=abc123"),
        id: "5",
        merge_request_id: "201",
      }),
    ).toEqual({
      id: 5,
      merge_request_id: 201,
      should_remove_source_branch: true,
      merge_when_build_succeeds: false,
      sha: "abc123",
    });
  });
});

describe("label, milestone and todo parameters from query strings", () => {
  it("report a label name with a comma under title, and read an empty priority", () => {
    const error = domainError(() =>
      decodeParams(CreateLabelInput, { ...query("name=a,b&color=%23zzz"), id: "5" }),
    );
    expect(error.fields).toEqual({ color: ["must be a valid color code"], title: ["is invalid"] });
    expect(decodeParams(UpdateLabelInput, { ...query("name=bug&priority="), id: "5" })).toEqual({
      id: 5,
      name: "bug",
      priority: null,
    });
    expect(decodeParams(UpdateLabelInput, { ...query("name=bug&priority=2"), id: "5" })).toMatchObject({
      priority: 2,
    });
  });

  it("refuse a label edit that changes nothing", () => {
    const error = domainError(() => decodeParams(UpdateLabelInput, { ...query("name=bug"), id: "5" }));
    expect(error.fields).toEqual({
      base: ["new_name, color, description, priority are missing, at least one parameter must be provided"],
    });
  });

  it("decode a milestone list's iids and state", () => {
    expect(decodeParams(ListMilestonesInput, { ...query("iid=2&state=closed"), id: "5" })).toEqual({
      id: 5,
      iid: [2],
      state: "closed",
    });
  });

  it("decode todo filters", () => {
    expect(decodeParams(ListTodosInput, query("action=marked&author_id=2&project_id=5&type=Issue"))).toEqual({
      action: "marked",
      author_id: 2,
      project_id: 5,
      state: "pending",
      type: "Issue",
    });
    expect(domainError(() => decodeParams(ListTodosInput, query("state=open"))).fields).toEqual({
      state: ["does not have a valid value"],
    });
  });
});

describe("array parameters past the length limit", () => {
  const { arrayLength } = PARAM_LIMITS;
  const numbers = (count: number) => Array.from({ length: count }, (_, index) => String(index + 1));
  const list = { id: "5" };

  it(`take ${arrayLength} iids and refuse one more with 400`, () => {
    expect(decodeParams(ListProjectIssuesInput, { ...list, iid: numbers(arrayLength) }).iid).toHaveLength(
      arrayLength,
    );
    for (const schema of [ListProjectIssuesInput, ListMergeRequestsInput, ListMilestonesInput]) {
      const error = domainError(() => decodeParams(schema, { ...list, iid: numbers(arrayLength + 1) }));
      expect([error.kind, v3Message(error.failure)]).toEqual([
        "bad_request",
        '400 (Bad request) "iid" has too many values',
      ]);
    }
  });

  it("count labels once split at commas, after repeats are dropped", () => {
    const labels = (count: number) => numbers(count).join(",");
    expect(
      decodeParams(ListProjectIssuesInput, { ...list, labels: labels(arrayLength) }).labels,
    ).toHaveLength(arrayLength);
    expect(
      decodeParams(ListProjectIssuesInput, { ...list, labels: "bug,".repeat(10 * arrayLength) }).labels,
    ).toEqual(["bug"]);
    const error = domainError(() =>
      decodeParams(CreateIssueInput, { ...list, title: "t", labels: labels(arrayLength + 1) }),
    );
    expect(v3Message(error.failure)).toBe('400 (Bad request) "labels" has too many values');
  });
});
