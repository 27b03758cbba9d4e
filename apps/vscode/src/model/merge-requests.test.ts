import { describe, expect, it } from "vitest";
import { mergeRequest } from "./__tests__/fixtures.js";
import { changedFiles, mergeRequestLine, mergeRequestTree } from "./merge-requests.js";

const diff = {
  a_mode: "100644",
  b_mode: "100644",
  diff: "",
  new_file: false,
  renamed_file: false,
  deleted_file: false,
};

describe("Merge Requests view model", () => {
  it("shows state, WIP, branches and mergeability", () => {
    expect(mergeRequestLine(mergeRequest(), "assigned")).toMatchObject({
      label: "!3 Add the parser",
      description: "feature → master · can be merged",
      icon: { id: "git-pull-request", color: "charts.green" },
      open: true,
    });
    const wip = mergeRequestLine(
      mergeRequest({ work_in_progress: true, merge_status: "unchecked" }),
      "created",
    );
    expect(wip.description).toBe("WIP · feature → master · not checked yet");
    expect(wip.icon.id).toBe("git-pull-request-draft");
    const conflicted = mergeRequestLine(mergeRequest({ merge_status: "cannot_be_merged" }), "created");
    expect(conflicted).toMatchObject({
      description: "feature → master · has conflicts",
      icon: { id: "warning" },
    });
    const merged = mergeRequestLine(mergeRequest({ state: "merged" }), "created");
    expect(merged).toMatchObject({
      description: "feature → master · merged",
      open: false,
      icon: { id: "git-merge" },
    });
  });

  it("shows an open merge request's latest pipeline status as its icon, and in words", () => {
    const running = mergeRequestLine(mergeRequest(), "assigned", "running");
    expect(running).toMatchObject({
      description: "feature → master · can be merged · pipeline running",
      icon: { id: "sync~spin" },
    });
    expect(running.tooltip).toContain("pipeline running");
    const tree = mergeRequestTree({
      assigned: [mergeRequest()],
      created: [],
      repository: null,
      pipelines: { "7|feature": "failed" },
    });
    expect(tree[0]?.mergeRequests[0]?.icon).toEqual({ id: "error", color: "charts.red" });
    // A merged one shows its state: its pipeline no longer matters here.
    expect(mergeRequestLine(mergeRequest({ state: "merged" }), "created", "success").icon.id).toBe(
      "git-merge",
    );
  });

  it("lists assigned, created, and the repository's open ones when the workspace has one", () => {
    const tree = mergeRequestTree({ assigned: [mergeRequest()], created: [], repository: null });
    expect(tree.map((node) => [node.label, node.mergeRequests.length])).toEqual([
      ["Assigned to me", 1],
      ["Created by me", 0],
    ]);
    const withRepository = mergeRequestTree({
      assigned: [],
      created: [],
      repository: { name: "acme/widgets", mergeRequests: [mergeRequest({ id: 12 })] },
    });
    expect(withRepository[2]).toMatchObject({ label: "acme/widgets: open", key: "category:repository" });
    expect(withRepository[2]?.mergeRequests[0]?.key).toBe("repository:12");
  });

  it("compares each changed file between the target branch and the head the list showed", () => {
    const mr = mergeRequest();
    const files = changedFiles(mr, [
      { ...diff, old_path: "src/parse.ts", new_path: "src/parse.ts" },
      { ...diff, old_path: "README", new_path: "README", new_file: true },
      { ...diff, old_path: "old.txt", new_path: "old.txt", deleted_file: true },
      { ...diff, old_path: "a/x.ts", new_path: "b/x.ts", renamed_file: true },
    ]);
    expect(files.map((file) => [file.label, file.status, file.description])).toEqual([
      ["parse.ts", "M", "src"],
      ["README", "A", ""],
      ["old.txt", "D", ""],
      ["x.ts", "R", "b ← a/x.ts"],
    ]);
    expect(files[0]?.base).toEqual({ projectId: 7, ref: "master", path: "src/parse.ts" });
    expect(files[0]?.head).toEqual({ projectId: 7, ref: mr.sha, path: "src/parse.ts" });
    expect(files[1]?.base).toBeNull();
    expect(files[2]?.head).toBeNull();
    expect(files[3]?.base?.path).toBe("a/x.ts");
  });
});
