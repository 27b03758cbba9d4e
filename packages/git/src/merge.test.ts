import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bare, type Sample, type Scratch, sampleRepo, scratch } from "./__tests__/fixture.js";
import { createBranch } from "./branches.js";
import { getCommit } from "./commits.js";
import { diffBetween } from "./diff.js";
import { GitError } from "./errors.js";
import { canMerge, landMerge, merge, writeMergeCommit } from "./merge.js";
import { isAncestor, mergeBase } from "./merge-base.js";
import { branchHead } from "./refs.js";

let dir: Scratch;
let repo: Sample;

beforeAll(() => {
  dir = scratch();
  repo = sampleRepo(dir.root);
});
afterAll(() => dir.remove());

const author = { name: "Mia Merger", email: "mia@example.com", date: new Date("2016-04-01T00:00:00Z") };

describe("merge-base and ancestry", () => {
  it("finds the merge base, null for unrelated histories, not_found for unknown commits", async () => {
    expect(await mergeBase(repo.gitDir, "master", "conflicting")).toBe(repo.c2);
    expect(await mergeBase(repo.gitDir, "master", "feature/clean")).toBe(repo.c3);
    const orphan = bare(repo.gitDir, ["commit-tree", `${repo.c1}^{tree}`, "-m", "orphan"]);
    expect(await mergeBase(repo.gitDir, "master", orphan)).toBeNull();
    await expect(mergeBase(repo.gitDir, "master", "nope")).rejects.toMatchObject({ kind: "not_found" });
  });

  it("tells whether one commit is an ancestor of another", async () => {
    expect(await isAncestor(repo.gitDir, repo.c1, "master")).toBe(true);
    expect(await isAncestor(repo.gitDir, "master", "master")).toBe(true);
    expect(await isAncestor(repo.gitDir, "conflicting", "master")).toBe(false);
    await expect(isAncestor(repo.gitDir, "nope", "master")).rejects.toMatchObject({ kind: "not_found" });
  });
});

describe("canMerge", () => {
  it("says a clean merge is mergeable without moving anything", async () => {
    const check = await canMerge(repo.gitDir, "master", "feature/clean");
    expect(check).toMatchObject({ mergeable: true, conflicts: [] });
    expect(await branchHead(repo.gitDir, "master")).toBe(repo.c3);
  });

  it("names the conflicting paths", async () => {
    expect(await canMerge(repo.gitDir, "master", "conflicting")).toMatchObject({
      mergeable: false,
      conflicts: ["README.md"],
    });
  });

  it("says not_found for a missing target branch or source", async () => {
    await expect(canMerge(repo.gitDir, "nope", "conflicting")).rejects.toMatchObject({
      kind: "not_found",
      subject: "branch",
    });
    await expect(canMerge(repo.gitDir, "master", "nope")).rejects.toMatchObject({
      kind: "not_found",
      subject: "revision",
    });
  });
});

describe("merge", () => {
  it("writes a two-parent merge commit and moves the target branch", async () => {
    await createBranch(repo.gitDir, "target-1", "master");
    const result = await merge(repo.gitDir, {
      target: "target-1",
      source: repo.c5,
      message: "Merge branch 'feature/clean' into 'master'\n\nSee merge request !1",
      author,
      expectedTarget: repo.c3,
    });
    expect(result.previous).toBe(repo.c3);
    expect(await branchHead(repo.gitDir, "target-1")).toBe(result.commit);
    const commit = await getCommit(repo.gitDir, result.commit);
    expect(commit).toMatchObject({
      parent_ids: [repo.c3, repo.c5],
      message: "Merge branch 'feature/clean' into 'master'\n\nSee merge request !1",
      author_name: "Mia Merger",
      stats: { additions: 1, deletions: 0, total: 1 },
    });
    expect(bare(repo.gitDir, ["show", `${result.commit}:feature.txt`])).toBe("feature");
    expect((await diffBetween(repo.gitDir, repo.c5, result.commit, { straight: true })).diffs).toEqual([]);
  });

  it("refuses a conflicting merge and leaves the branch alone", async () => {
    await createBranch(repo.gitDir, "target-2", "master");
    const attempt = merge(repo.gitDir, { target: "target-2", source: repo.c4, message: "m", author });
    await expect(attempt).rejects.toMatchObject({ kind: "conflict" });
    expect(await branchHead(repo.gitDir, "target-2")).toBe(repo.c3);
  });

  it("refuses with ref_moved when the target is not at the expected head", async () => {
    await createBranch(repo.gitDir, "target-3", "master");
    const attempt = merge(repo.gitDir, {
      target: "target-3",
      source: repo.c5,
      message: "m",
      author,
      expectedTarget: repo.c2,
    });
    await expect(attempt).rejects.toMatchObject({ kind: "ref_moved" });
    expect(await branchHead(repo.gitDir, "target-3")).toBe(repo.c3);
  });

  it("lets exactly one of two concurrent merges win; the other gets ref_moved", async () => {
    await createBranch(repo.gitDir, "target-4", "master");
    await createBranch(repo.gitDir, "source-b", "feature/clean");
    const results = await Promise.allSettled([
      merge(repo.gitDir, { target: "target-4", source: repo.c5, message: "first", author }),
      merge(repo.gitDir, { target: "target-4", source: "source-b", message: "second", author }),
    ]);
    const won = results.filter((result) => result.status === "fulfilled");
    const lost = results.filter((result) => result.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(GitError.is(lost[0]!.reason, "ref_moved")).toBe(true);
    const head = await branchHead(repo.gitDir, "target-4");
    expect(head).toBe(won[0]!.value.commit);
    expect((await getCommit(repo.gitDir, head!)).parent_ids).toEqual([repo.c3, repo.c5]);
  });

  it("writes the merge commit without moving the branch, and lands it only from the head it was written on", async () => {
    await createBranch(repo.gitDir, "target-5", "master");
    const written = await writeMergeCommit(repo.gitDir, {
      target: "target-5",
      source: repo.c5,
      message: "m",
      author,
    });
    expect(written.previous).toBe(repo.c3);
    expect(await branchHead(repo.gitDir, "target-5")).toBe(repo.c3);
    expect((await getCommit(repo.gitDir, written.commit)).parent_ids).toEqual([repo.c3, repo.c5]);

    const rival = await writeMergeCommit(repo.gitDir, {
      target: "target-5",
      source: repo.c5,
      message: "n",
      author,
    });
    await landMerge(repo.gitDir, "target-5", written);
    expect(await branchHead(repo.gitDir, "target-5")).toBe(written.commit);
    await expect(landMerge(repo.gitDir, "target-5", rival)).rejects.toMatchObject({ kind: "ref_moved" });
    expect(await branchHead(repo.gitDir, "target-5")).toBe(written.commit);
  });

  it("repeats the race many times without ever letting both win", async () => {
    for (let round = 0; round < 5; round++) {
      await createBranch(repo.gitDir, `race-${round}`, "master");
      const results = await Promise.allSettled(
        ["a", "b", "c"].map((message) =>
          merge(repo.gitDir, { target: `race-${round}`, source: repo.c5, message, author }),
        ),
      );
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    }
  });
});
