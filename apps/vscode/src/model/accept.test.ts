import { describe, expect, it } from "vitest";
import { mergeRequest } from "./__tests__/fixtures.js";
import { type AcceptPlan, acceptRequest, explainRefusal, type LocalBranch, planAccept } from "./accept.js";

const HEAD = "0123456789abcdef0123456789abcdef01234567";
const clean: LocalBranch = { name: "feature", head: HEAD, ahead: 0, dirty: false };
const plan = (value: ReturnType<typeof planAccept>): AcceptPlan => {
  if ("blocked" in value) throw new Error(value.blocked);
  return value;
};

describe("accept merge request: the confirmation", () => {
  it("names source → target, mergeability and the head the user saw", () => {
    const asked = plan(planAccept(mergeRequest(), clean));
    expect(asked.message).toBe('Merge !3 "Add the parser" into master?');
    expect(asked.detail.split("\n")).toEqual([
      "feature → master",
      "Merges cleanly.",
      "Head 01234567: the merge is refused if the branch moved since.",
    ]);
    expect(asked.warnings).toEqual([]);
    expect(asked.offerWhenBuildSucceeds).toBe(false);
  });

  it("warns when the local source branch has commits not pushed", () => {
    const asked = plan(planAccept(mergeRequest(), { ...clean, head: "fedcba98", ahead: 2 }));
    expect(asked.warnings).toEqual(["2 local commits are not pushed: the merge will not include them."]);
    expect(asked.detail).toContain("⚠ 2 local commits are not pushed");
  });

  it("warns when the local source branch is at another head than the merge request", () => {
    const asked = plan(planAccept(mergeRequest(), { ...clean, head: "fedcba9876543210" }));
    expect(asked.warnings).toEqual(["Your feature is at fedcba98, the merge request at 01234567."]);
  });

  it("warns about changes not committed, and says nothing about another branch checked out", () => {
    expect(plan(planAccept(mergeRequest(), { ...clean, dirty: true })).warnings).toEqual([
      "You have changes not committed.",
    ]);
    expect(
      plan(planAccept(mergeRequest(), { name: "master", head: "ffff", ahead: 4, dirty: true })).warnings,
    ).toEqual([]);
    expect(plan(planAccept(mergeRequest(), null)).warnings).toEqual([]);
  });

  it("offers merge when build succeeds only while a pipeline runs", () => {
    expect(plan(planAccept(mergeRequest(), null, "running")).offerWhenBuildSucceeds).toBe(true);
    expect(plan(planAccept(mergeRequest(), null, "success"))).toMatchObject({
      offerWhenBuildSucceeds: false,
    });
    expect(plan(planAccept(mergeRequest(), null, "success")).detail).toContain("Pipeline: success.");
  });

  it("does not ask when the server would refuse whatever the answer", () => {
    expect(planAccept(mergeRequest({ state: "merged" }), null)).toEqual({
      blocked: "!3 is merged: there is nothing to merge.",
    });
    expect(planAccept(mergeRequest({ work_in_progress: true }), null)).toHaveProperty("blocked");
    expect(planAccept(mergeRequest({ merge_status: "cannot_be_merged" }), null)).toEqual({
      blocked: "!3 has conflicts with master: resolve them and push first.",
    });
    expect(planAccept(mergeRequest({ sha: null }), null)).toHaveProperty("blocked");
  });
});

describe("accept merge request: the request and its refusals", () => {
  it("always carries the head the user saw, and the chosen options", () => {
    const mr = mergeRequest();
    expect(acceptRequest(mr, { removeSourceBranch: false, whenBuildSucceeds: false })).toEqual({
      id: 7,
      merge_request_id: 11,
      sha: HEAD,
    });
    expect(acceptRequest(mr, { removeSourceBranch: true, whenBuildSucceeds: true })).toEqual({
      id: 7,
      merge_request_id: 11,
      sha: HEAD,
      should_remove_source_branch: true,
      merge_when_build_succeeds: true,
    });
  });

  it("explains 401, 405, 406 and 409 in plain words", () => {
    const mr = mergeRequest();
    expect(explainRefusal(mr, { httpStatus: 401 })).toMatch(
      /^You may not merge !3: merging needs developer access/,
    );
    expect(explainRefusal(mr, { httpStatus: 405 })).toBe(
      "!3 cannot be merged now: it is a work in progress, has conflicts, or its branch is gone.",
    );
    expect(explainRefusal(mr, { httpStatus: 406 })).toBe("!3 is already merged or closed.");
    expect(explainRefusal(mr, { httpStatus: 409 })).toBe(
      "feature moved since you looked: someone pushed to it. Look at the new commits, then merge again.",
    );
    expect(explainRefusal(mr, { httpStatus: 0, message: "ECONNREFUSED" })).toBe(
      "The server could not be reached: ECONNREFUSED.",
    );
  });
});
