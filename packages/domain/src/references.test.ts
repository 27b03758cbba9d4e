import { describe, expect, it } from "vitest";
import { closesIssues, closingReferences, mentionedUsernames } from "./references.js";

describe("closesIssues", () => {
  it.each<[string, number[]]>([
    // every closing word, in any case
    ["Closes #1", [1]],
    ["closes #1", [1]],
    ["CLOSES #1", [1]],
    ["Close #1", [1]],
    ["Closed #1", [1]],
    ["Closing #1", [1]],
    ["Fix #2", [2]],
    ["fixes #2", [2]],
    ["Fixed #2", [2]],
    ["fixing #2", [2]],
    ["Resolve #3", [3]],
    ["Resolves #3", [3]],
    ["resolved #3", [3]],
    ["Resolving #3", [3]],
    // lists
    ["Closes #1, #2 and #3", [1, 2, 3]],
    ["Fixes #1,#2", [1, 2]],
    ["fixes #1 and #2 and #3", [1, 2, 3]],
    ["Closes #1 #2", [1]],
    ["Closes #1, and #2", [1]],
    // `issue` / `issues`, a colon, several spaces
    ["Closes issue #7", [7]],
    ["closes issues #7, #8", [7, 8]],
    ["Closes: #9", [9]],
    ["Closes   #10", [10]],
    // several statements, repeats, order of appearance
    ["Fixes #5. Also closes #4 and fixes #5 again", [5, 4]],
    ["line one\nResolves #12\nline three closes #11", [12, 11]],
    // not closing
    ["Refs #1", []],
    ["See #1", []],
    ["Closes#1", []],
    ["Closes: #", []],
    ["Prefixes #1", []],
    ["unclosed #1", []],
    ["fixe #1", []],
    ["Closes #1abc", []],
    ["", []],
  ])("%j closes %j", (text, iids) => {
    expect(closesIssues(text)).toEqual(iids);
  });

  it("keeps references to other projects apart", () => {
    expect(closingReferences("Closes group/project#4, #5 and other.one/x-y#6")).toEqual([
      { project: "group/project", iid: 4 },
      { project: null, iid: 5 },
      { project: "other.one/x-y", iid: 6 },
    ]);
    expect(closesIssues("Closes group/project#4, #5")).toEqual([5]);
  });
});

describe("mentionedUsernames", () => {
  it.each<[string, string[]]>([
    ["@alice", ["alice"]],
    ["hi @alice and @bob!", ["alice", "bob"]],
    ["(@alice) [@bob] @carol: @dave, @erin.", ["alice", "bob", "carol", "dave", "erin"]],
    ["@alice @Alice @ALICE", ["alice"]],
    ["@user.name @under_score @da-sh", ["user.name", "under_score", "da-sh"]],
    ["@alice. end", ["alice"]],
    ["@a", ["a"]],
    ["mail alice@example.com or a.b+c@example.org", []],
    ["foo@bar", []],
    ["@", []],
    ["@ alice", []],
    ["@-dash", []],
    ["cc @all", ["all"]],
    ["inline `@alice` code and @bob", ["bob"]],
    ["double ``code @alice ` more`` and @bob", ["bob"]],
    ["```\n@alice\n```\n@bob", ["bob"]],
    ["~~~ruby\n@alice\n~~~\n@bob", ["bob"]],
    ["text\n```\n@alice never closed", []],
    ["line\n@alice\n\n@bob", ["alice", "bob"]],
  ])("%j mentions %j", (text, usernames) => {
    expect(mentionedUsernames(text)).toEqual(usernames);
  });
});
