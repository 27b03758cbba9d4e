import { describe, expect, it } from "vitest";
import { defaultMergeCommitMessage, isWorkInProgress, toSentence } from "./merge-requests.js";

describe("work in progress", () => {
  it.each<[string, boolean]>([
    ["WIP: thing", true],
    ["wip: thing", true],
    ["WIP:thing", true],
    ["[WIP] thing", true],
    ["[wip]thing", true],
    ["WIP thing", true],
    ["  WIP: thing", true],
    ["WIP", false],
    ["WIPE the floor", false],
    ["thing WIP:", false],
    ["Fix WIP handling", false],
    ["", false],
  ])("%j: %s", (title, wip) => {
    expect(isWorkInProgress(title)).toBe(wip);
  });
});

describe("merge commit message", () => {
  it.each<[string[], string]>([
    [[], ""],
    [["#1"], "#1"],
    [["#1", "#2"], "#1 and #2"],
    [["#1", "#2", "#3"], "#1, #2, and #3"],
  ])("writes %j as %j", (words, sentence) => {
    expect(toSentence(words)).toBe(sentence);
  });

  it("names the branches, the title and the merge request", () => {
    const mr = { source_branch: "feature", target_branch: "main", title: "Add a thing", iid: 42 };
    expect(defaultMergeCommitMessage(mr)).toBe(
      "Merge branch 'feature' into 'main'\n\nAdd a thing\n\nSee merge request !42",
    );
    expect(defaultMergeCommitMessage(mr, ["#3", "#4"])).toBe(
      "Merge branch 'feature' into 'main'\n\nAdd a thing\n\nCloses #3 and #4\n\nSee merge request !42",
    );
  });
});
