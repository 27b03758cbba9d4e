import { describe, expect, it } from "vitest";
import { issue, mergeRequest, problems, TIME, user } from "./__tests__/samples.js";
import {
  AcceptMergeRequestInput,
  ClosedIssueJson,
  CreateMergeRequestCommentInput,
  CreateMergeRequestInput,
  ListMergeRequestsInput,
  MergeRequestChangesJson,
  MergeRequestCommentJson,
  MergeRequestCommitsJson,
  MergeRequestJson,
  MergeRequestUserJson,
  UpdateMergeRequestInput,
} from "./merge-requests.js";

describe("ListMergeRequestsInput", () => {
  it("fills in GitLab's defaults", () => {
    expect(ListMergeRequestsInput.parse({ id: 5 })).toEqual({
      id: 5,
      state: "all",
      order_by: "created_at",
      sort: "desc",
    });
  });

  it("takes several iids and the merged state", () => {
    expect(ListMergeRequestsInput.parse({ id: 5, iid: [1, 7], state: "merged" })).toMatchObject({
      iid: [1, 7],
      state: "merged",
    });
    expect(Object.keys(problems(ListMergeRequestsInput.safeParse({ id: 5, state: "locked" })))).toEqual([
      "state",
    ]);
  });
});

describe("CreateMergeRequestInput", () => {
  const minimal = { id: 5, source_branch: "fix-crash", target_branch: "master", title: "Fix" };

  it("needs both branches and a title", () => {
    expect(CreateMergeRequestInput.parse(minimal)).toEqual(minimal);
    for (const key of ["source_branch", "target_branch", "title"] as const) {
      const { [key]: _, ...rest } = minimal;
      expect(CreateMergeRequestInput.safeParse(rest).error?.issues.map((i) => i.path)).toEqual([[key]]);
    }
  });

  it("refuses empty branch names", () => {
    expect(problems(CreateMergeRequestInput.safeParse({ ...minimal, source_branch: "" }))).toEqual({
      source_branch: "can't be blank",
    });
  });

  it("takes a fork's target project, labels, assignee and milestone", () => {
    expect(
      CreateMergeRequestInput.parse({
        ...minimal,
        target_project_id: 4,
        description: "Closes #3",
        assignee_id: 2,
        milestone_id: 11,
        labels: "bug,  backend",
        remove_source_branch: true,
      }),
    ).toEqual({
      ...minimal,
      target_project_id: 4,
      description: "Closes #3",
      assignee_id: 2,
      milestone_id: 11,
      labels: ["bug", "backend"],
      remove_source_branch: true,
    });
  });
});

describe("UpdateMergeRequestInput", () => {
  it("takes close, reopen and merge, and nothing else", () => {
    for (const state_event of ["close", "reopen", "merge"]) {
      expect(UpdateMergeRequestInput.parse({ id: 5, merge_request_id: 201, state_event })).toMatchObject({
        state_event,
      });
    }
    expect(
      UpdateMergeRequestInput.safeParse({ id: 5, merge_request_id: 201, state_event: "lock" }).success,
    ).toBe(false);
  });

  it("does not take the source branch (it cannot change)", () => {
    expect(
      UpdateMergeRequestInput.parse({
        id: 5,
        merge_request_id: 201,
        source_branch: "other",
        target_branch: "dev",
      }),
    ).toEqual({ id: 5, merge_request_id: 201, target_branch: "dev" });
  });
});

describe("AcceptMergeRequestInput", () => {
  it("takes the message, the flags and the reviewed sha", () => {
    const input = {
      id: 5,
      merge_request_id: 201,
      merge_commit_message: "Merge it",
      should_remove_source_branch: true,
      merge_when_build_succeeds: false,
      sha: mergeRequest.sha,
    };
    expect(AcceptMergeRequestInput.parse(input)).toEqual(input);
    expect(AcceptMergeRequestInput.parse({ id: 5, merge_request_id: 201 })).toEqual({
      id: 5,
      merge_request_id: 201,
    });
  });

  it("refuses flags that are not booleans", () => {
    expect(
      Object.keys(
        problems(
          AcceptMergeRequestInput.safeParse({
            id: 5,
            merge_request_id: 1,
            should_remove_source_branch: "yes",
          }),
        ),
      ),
    ).toEqual(["should_remove_source_branch"]);
  });
});

describe("deprecated comments", () => {
  it("need the note's text", () => {
    expect(
      CreateMergeRequestCommentInput.safeParse({ id: 5, merge_request_id: 201 }).error?.issues[0]?.path,
    ).toEqual(["note"]);
    expect(
      problems(CreateMergeRequestCommentInput.safeParse({ id: 5, merge_request_id: 201, note: " " })),
    ).toEqual({
      note: "can't be blank",
    });
  });

  it("answer the note and its author", () => {
    const comment = { note: "LGTM", author: user };
    expect(MergeRequestCommentJson.strict().parse(comment)).toEqual(comment);
  });
});

describe("MergeRequestJson", () => {
  it("is exactly the merge request's fields, in GitLab 8.15's order", () => {
    const parsed = MergeRequestJson.strict().parse(mergeRequest);
    expect(parsed).toEqual(mergeRequest);
    expect(Object.keys(parsed)).toEqual(Object.keys(mergeRequest));
  });

  it("carries users in the spec's merge request form, the email where shown", () => {
    expect(MergeRequestUserJson.strict().safeParse(user).success).toBe(false);
    const withEmail = { ...user, created_at: TIME, email: "alice@example.com" };
    expect(MergeRequestJson.safeParse({ ...mergeRequest, assignee: withEmail }).success).toBe(true);
  });

  it("knows every state and merge status", () => {
    for (const state of ["opened", "reopened", "closed", "merged"]) {
      expect(MergeRequestJson.safeParse({ ...mergeRequest, state }).success).toBe(true);
    }
    expect(MergeRequestJson.safeParse({ ...mergeRequest, state: "locked" }).success).toBe(false);
    for (const merge_status of ["can_be_merged", "cannot_be_merged", "unchecked"]) {
      expect(MergeRequestJson.safeParse({ ...mergeRequest, merge_status }).success).toBe(true);
    }
    expect(MergeRequestJson.safeParse({ ...mergeRequest, merge_status: "checking" }).success).toBe(false);
  });

  it("has a changes variant with the diffs", () => {
    const changes = {
      ...mergeRequest,
      changes: [
        {
          old_path: "app.js",
          new_path: "app.js",
          a_mode: "100644",
          b_mode: "100644",
          diff: "@@ -1 +1 @@\n-a\n+b\n",
          new_file: false,
          renamed_file: false,
          deleted_file: false,
        },
      ],
    };
    expect(MergeRequestChangesJson.strict().parse(changes)).toEqual(changes);
    expect(MergeRequestChangesJson.safeParse(mergeRequest).success).toBe(false);
  });

  it("lists its commits as repository commits", () => {
    const commits = [
      {
        id: "0123456789abcdef0123456789abcdef01234567",
        short_id: "01234567",
        title: "Fix the crash",
        author_name: "Alice",
        author_email: "alice@example.com",
        created_at: "2026-01-02T04:04:05.000+01:00",
        committer_name: "Alice",
        committer_email: "alice@example.com",
        message: "Fix the crash\n",
      },
    ];
    expect(MergeRequestCommitsJson.parse(commits)).toEqual(commits);
  });

  it("closes_issues items are issues, or {id, title} of an external tracker", () => {
    expect(ClosedIssueJson.safeParse(issue).success).toBe(true);
    expect(ClosedIssueJson.safeParse({ id: "PROJ-1", title: "External" }).success).toBe(true);
    expect(ClosedIssueJson.safeParse({ id: 1, title: "External" }).success).toBe(false);
  });
});
