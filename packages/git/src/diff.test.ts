import { chmodSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitAll, type Sample, type Scratch, sampleRepo, scratch, sh, write } from "./__tests__/fixture.js";
import { compare } from "./compare.js";
import { commitDiff, diffBetween } from "./diff.js";
import type { RepoDiff } from "./types.js";

let dir: Scratch;
let repo: Sample;

beforeAll(() => {
  dir = scratch();
  repo = sampleRepo(dir.root);
});
afterAll(() => dir.remove());

function byPath(diffs: RepoDiff[], path: string): RepoDiff[] {
  return diffs.filter((diff) => diff.new_path === path || diff.old_path === path);
}

describe("commitDiff", () => {
  it("answers a new file with GitLab's diff text (from the --- line), modes and flags", async () => {
    const { diffs, overflow } = await commitDiff(repo.gitDir, repo.c1);
    expect(overflow).toBe(false);
    expect(diffs).toEqual([
      {
        old_path: "README.md",
        new_path: "README.md",
        a_mode: "0",
        b_mode: "100644",
        diff: "--- /dev/null\n+++ b/README.md\n@@ -0,0 +1 @@\n+hello\n",
        new_file: true,
        renamed_file: false,
        deleted_file: false,
      },
    ]);
  });

  it("marks renames and deletions and keeps modified files' hunks", async () => {
    const { diffs } = await commitDiff(repo.gitDir, repo.c3);
    expect(byPath(diffs, "README.md")[0]).toMatchObject({
      a_mode: "100644",
      b_mode: "100644",
      diff: "--- a/README.md\n+++ b/README.md\n@@ -1 +1,2 @@\n hello\n+world\n",
      new_file: false,
      renamed_file: false,
      deleted_file: false,
    });
    expect(byPath(diffs, "dir/renamed.txt")[0]).toEqual({
      old_path: "dir/a.txt",
      new_path: "dir/renamed.txt",
      a_mode: "100644",
      b_mode: "100644",
      diff: "",
      new_file: false,
      renamed_file: true,
      deleted_file: false,
    });
    expect(byPath(diffs, "docs/old.txt")[0]).toMatchObject({
      a_mode: "100644",
      b_mode: "0",
      diff: "--- a/docs/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-old\n",
      deleted_file: true,
    });
  });

  it("shows binary files, symlinks and executables as GitLab does", async () => {
    const { diffs } = await commitDiff(repo.gitDir, repo.c2);
    expect(diffs.map((diff) => diff.new_path)).toEqual([
      "dir/a.txt",
      "dir/sub/b.txt",
      "docs/old.txt",
      "escape",
      "image.bin",
      "script.sh",
    ]);
    expect(byPath(diffs, "image.bin")[0]?.diff).toBe("Binary files /dev/null and b/image.bin differ\n");
    expect(byPath(diffs, "escape")[0]).toMatchObject({ b_mode: "120000", new_file: true });
    expect(byPath(diffs, "escape")[0]?.diff).toContain(
      "+../../../etc/passwd\n\\ No newline at end of file\n",
    );
    expect(byPath(diffs, "script.sh")[0]?.b_mode).toBe("100755");
  });

  it("splits a type change into a deletion and a creation, and shows a mode change with an empty diff", async () => {
    sh(repo.work, ["checkout", "-q", "-b", "types", "master"]);
    sh(repo.work, ["rm", "-q", "escape"]);
    write(repo.work, { escape: "now a file\n", "ünï cödé.txt": "x\n" });
    chmodSync(join(repo.work, "script.sh"), 0o644);
    const id = commitAll(repo.work, "types", "2016-02-01T00:00:00Z");
    sh(repo.work, ["checkout", "-q", "master"]);
    sh(repo.work, ["push", "-q", repo.gitDir, "types"]);
    const { diffs } = await commitDiff(repo.gitDir, id);
    const link = byPath(diffs, "escape");
    expect(link.map((diff) => [diff.a_mode, diff.b_mode, diff.deleted_file, diff.new_file])).toEqual([
      ["120000", "0", true, false],
      ["0", "100644", false, true],
    ]);
    expect(link[1]?.diff).toContain("+now a file\n");
    expect(byPath(diffs, "script.sh")[0]).toMatchObject({ a_mode: "100755", b_mode: "100644", diff: "" });
    expect(byPath(diffs, "ünï cödé.txt")[0]?.diff).toBe(
      "--- /dev/null\n+++ b/ünï cödé.txt\n@@ -0,0 +1 @@\n+x\n",
    );
  });

  it("empties a diff over the size limit and cuts the file list, saying so", async () => {
    const big = await commitDiff(repo.gitDir, repo.c2, { maxPatchBytes: 40 });
    expect(big.overflow).toBe(true);
    expect(byPath(big.diffs, "dir/a.txt")[0]?.diff).toBe("");
    const few = await commitDiff(repo.gitDir, repo.c2, { maxFiles: 2 });
    expect(few.diffs).toHaveLength(2);
    expect(few.overflow).toBe(true);
  });

  it("says not_found for an unknown commit", async () => {
    await expect(commitDiff(repo.gitDir, "0".repeat(40))).rejects.toMatchObject({ kind: "not_found" });
    await expect(commitDiff(repo.gitDir, "nope")).rejects.toMatchObject({ kind: "not_found" });
  });
});

describe("diffBetween and compare", () => {
  it("diffs from the merge base by default (three dots), or straight", async () => {
    // master changed README after conflicting forked; from the merge base only c4's change shows.
    const threeDot = await diffBetween(repo.gitDir, "master", "conflicting");
    expect(threeDot.diffs.map((diff) => diff.new_path)).toEqual(["README.md"]);
    expect(threeDot.diffs[0]?.diff).toContain("+there\n");
    const straight = await diffBetween(repo.gitDir, "master", "conflicting", { straight: true });
    expect(straight.diffs.map((diff) => diff.new_path).sort()).toEqual([
      "README.md",
      "dir/a.txt",
      "docs/old.txt",
    ]);
  });

  it("compares two refs: commits oldest first, the last commit, the diffs", async () => {
    const result = await compare(repo.gitDir, "v1.0", "feature/clean");
    expect(result.commits.map((commit) => commit.id)).toEqual([repo.c2, repo.c3, repo.c5]);
    expect(result.commit?.id).toBe(repo.c5);
    expect(result.same).toBe(false);
    expect(result.diffs.map((diff) => diff.new_path)).toContain("feature.txt");
    expect(result.fromId).toBe(repo.c1);
  });

  it("answers an empty comparison for the same commit, and not_found for an unknown side", async () => {
    const same = await compare(repo.gitDir, "master", "v2.0");
    expect(same).toMatchObject({ commits: [], commit: null, diffs: [], same: true });
    const backwards = await compare(repo.gitDir, "feature/clean", "v1.0");
    expect(backwards.commits).toEqual([]);
    expect(backwards.diffs).toEqual([]);
    await expect(compare(repo.gitDir, "master", "nope")).rejects.toMatchObject({ kind: "not_found" });
  });

  it("diffs unrelated histories from the empty tree", async () => {
    const orphan = sh(repo.gitDir, ["commit-tree", `${repo.c1}^{tree}`, "-m", "orphan"]);
    const { diffs } = await diffBetween(repo.gitDir, repo.c3, orphan);
    expect(diffs).toEqual([expect.objectContaining({ new_path: "README.md", new_file: true })]);
  });
});
