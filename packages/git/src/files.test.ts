import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bare, type Sample, type Scratch, sampleRepo, scratch, sh } from "./__tests__/fixture.js";
import { readFile } from "./blobs.js";
import { getCommit } from "./commits.js";
import { GitError } from "./errors.js";
import { commitFiles, type FileAction } from "./files.js";
import { branchHead, getDefaultBranch } from "./refs.js";
import { RepositoryStore } from "./repository-store.js";

let dir: Scratch;
let repo: Sample;
let store: RepositoryStore;

beforeAll(() => {
  dir = scratch();
  repo = sampleRepo(dir.root);
  store = new RepositoryStore(join(dir.root, "repositories"));
});
afterAll(() => dir.remove());

const author = { name: "Wendy Web", email: "wendy@example.com", date: new Date("2016-03-01T12:00:00Z") };

function commit(
  branch: string,
  actions: FileAction[],
  extra: { expectedHead?: string; startPoint?: string } = {},
) {
  return commitFiles(repo.gitDir, { branch, message: "Edit files", author, actions, ...extra });
}

async function text(ref: string, path: string): Promise<string> {
  return (await readFile(repo.gitDir, ref, path)).content.toString("utf8");
}

describe("commitFiles in an empty repository", () => {
  it("makes the first commit on the given branch and points HEAD to it", async () => {
    const gitDir = await store.create(1);
    const result = await commitFiles(gitDir, {
      branch: "main",
      message: "Add README",
      author,
      actions: [{ action: "create", path: "docs/README.md", content: Buffer.from("# Hi\n") }],
    });
    expect(result.parent).toBeNull();
    expect(await getDefaultBranch(gitDir)).toBe("main");
    expect(await branchHead(gitDir, "main")).toBe(result.commit);
    const detail = await getCommit(gitDir, "HEAD");
    expect(detail).toMatchObject({
      parent_ids: [],
      message: "Add README",
      author_name: "Wendy Web",
      author_email: "wendy@example.com",
      authored_date: "2016-03-01T12:00:00+00:00",
      committer_name: "Wendy Web",
      stats: { additions: 1, deletions: 0, total: 1 },
    });
    expect(bare(gitDir, ["show", "HEAD:docs/README.md"])).toBe("# Hi");
    // No temporary index is left behind.
    expect(readdirSync(gitDir).filter((name) => name.startsWith("kiln-index"))).toEqual([]);
  });

  it("refuses updating or deleting in an empty repository", async () => {
    const gitDir = await store.create(2);
    const update = commitFiles(gitDir, {
      branch: "master",
      message: "m",
      author,
      actions: [{ action: "update", path: "x", content: Buffer.from("") }],
    });
    await expect(update).rejects.toMatchObject({ kind: "not_found", subject: "path" });
    expect(await branchHead(gitDir, "master")).toBeNull();
  });
});

describe("commitFiles on a branch", () => {
  it("creates, updates and deletes files, each a commit on top of the branch", async () => {
    await commit("master", [{ action: "create", path: "new/dir/file.txt", content: Buffer.from("one\n") }]);
    expect(await text("master", "new/dir/file.txt")).toBe("one\n");
    const updated = await commit("master", [
      { action: "update", path: "new/dir/file.txt", content: Buffer.from("two\n") },
    ]);
    expect(await text("master", "new/dir/file.txt")).toBe("two\n");
    expect((await getCommit(repo.gitDir, updated.commit)).stats).toEqual({
      additions: 1,
      deletions: 1,
      total: 2,
    });
    const deleted = await commit("master", [{ action: "delete", path: "new/dir/file.txt" }]);
    await expect(readFile(repo.gitDir, "master", "new/dir/file.txt")).rejects.toMatchObject({
      kind: "not_found",
    });
    expect(deleted.parent).toBe(updated.commit);
    // Everything else is untouched.
    expect(bare(repo.gitDir, ["rev-parse", "master^{tree}"])).toBe(
      bare(repo.gitDir, ["rev-parse", `${repo.c3}^{tree}`]),
    );
  });

  it("keeps binary content byte for byte and an executable's mode on update", async () => {
    const bytes = Buffer.from([0, 255, 10, 13, 0x80]);
    await commit("master", [{ action: "update", path: "script.sh", content: bytes }]);
    expect((await readFile(repo.gitDir, "master", "script.sh")).content).toEqual(bytes);
    expect(bare(repo.gitDir, ["ls-tree", "master", "script.sh"])).toMatch(/^100755 /);
    await commit("master", [
      { action: "create", path: "tool", content: Buffer.from("#!/bin/sh\n"), executable: true },
    ]);
    expect(bare(repo.gitDir, ["ls-tree", "master", "tool"])).toMatch(/^100755 /);
  });

  it("applies several actions in one commit, moves included", async () => {
    const result = await commit("feature/clean", [
      { action: "move", previousPath: "feature.txt", path: "moved/feature.txt" },
      { action: "create", path: "moved/other.txt", content: Buffer.from("other\n") },
      {
        action: "move",
        previousPath: "dir/renamed.txt",
        path: "dir/final.txt",
        content: Buffer.from("final\n"),
      },
    ]);
    expect(await text("feature/clean", "moved/feature.txt")).toBe("feature\n");
    expect(await text("feature/clean", "dir/final.txt")).toBe("final\n");
    await expect(readFile(repo.gitDir, "feature/clean", "feature.txt")).rejects.toMatchObject({
      kind: "not_found",
    });
    expect(result.parent).toBe(repo.c5);
  });

  it("writes many files in one commit, and leaves no temporary index behind a refused one", async () => {
    const actions: FileAction[] = Array.from({ length: 12 }, (_, i) => ({
      action: "create",
      path: `many/file-${i}.txt`,
      content: Buffer.from(`${i}\n`),
    }));
    const result = await commit("master", actions);
    expect((await getCommit(repo.gitDir, result.commit)).stats.additions).toBe(12);
    expect(await text("master", "many/file-11.txt")).toBe("11\n");
    await expect(commit("master", actions)).rejects.toMatchObject({ kind: "exists" });
    expect(readdirSync(repo.gitDir).filter((name) => name.startsWith("kiln-index"))).toEqual([]);
  });

  it("says exists for a file that exists (or a directory), not_found for a missing one", async () => {
    const cases: [FileAction, string, string][] = [
      [{ action: "create", path: "README.md", content: Buffer.from("") }, "exists", "path"],
      [{ action: "create", path: "dir", content: Buffer.from("") }, "exists", "path"],
      [{ action: "update", path: "missing.txt", content: Buffer.from("") }, "not_found", "path"],
      [{ action: "update", path: "dir", content: Buffer.from("") }, "not_found", "path"],
      [{ action: "delete", path: "missing.txt" }, "not_found", "path"],
      [{ action: "move", previousPath: "missing.txt", path: "x" }, "not_found", "path"],
      [{ action: "move", previousPath: "README.md", path: "script.sh" }, "exists", "path"],
    ];
    const before = await branchHead(repo.gitDir, "master");
    for (const [action, kind, subject] of cases) {
      await expect(commit("master", [action]), JSON.stringify(action)).rejects.toMatchObject({
        kind,
        subject,
      });
    }
    expect(await branchHead(repo.gitDir, "master")).toBe(before);
  });

  it("refuses invalid paths, paths below a file or a symlink, and creating twice in one change set", async () => {
    for (const path of ["../x", "/abs", "a//b", ".git/config", "a/.GIT/x", "a\0b", "dir/", ""]) {
      await expect(
        commit("master", [{ action: "create", path, content: Buffer.from("") }]),
        path,
      ).rejects.toMatchObject({
        kind: "invalid",
        subject: "path",
      });
    }
    await expect(
      commit("master", [{ action: "create", path: "escape/passwd", content: Buffer.from("x") }]),
    ).rejects.toMatchObject({
      kind: "invalid",
      subject: "path",
    });
    await expect(
      commit("master", [{ action: "create", path: "README.md/x", content: Buffer.from("x") }]),
    ).rejects.toMatchObject({
      kind: "invalid",
    });
    await expect(
      commit("master", [
        { action: "create", path: "twice", content: Buffer.from("1") },
        { action: "create", path: "twice", content: Buffer.from("2") },
      ]),
    ).rejects.toMatchObject({ kind: "exists" });
    await expect(
      commit("master", [
        { action: "create", path: "f", content: Buffer.from("1") },
        { action: "create", path: "f/g", content: Buffer.from("2") },
      ]),
    ).rejects.toMatchObject({ kind: "invalid" });
  });

  it("needs an existing branch unless given a start point", async () => {
    const create: FileAction = { action: "create", path: "branch-file", content: Buffer.from("b\n") };
    await expect(commit("nope", [create])).rejects.toMatchObject({ kind: "not_found", subject: "branch" });
    const started = await commit("started", [create], { startPoint: "v1.0" });
    expect(started.parent).toBe(repo.c1);
    expect(await branchHead(repo.gitDir, "started")).toBe(started.commit);
    await expect(commit("other", [create], { startPoint: "nope" })).rejects.toMatchObject({
      kind: "not_found",
      subject: "revision",
    });
    await expect(commit("bad..branch", [create])).rejects.toMatchObject({
      kind: "invalid",
      subject: "branch",
    });
  });

  it("refuses with ref_moved when the branch is not where the caller saw it", async () => {
    const head = (await branchHead(repo.gitDir, "conflicting"))!;
    const create: FileAction = { action: "create", path: "cas.txt", content: Buffer.from("cas\n") };
    await expect(commit("conflicting", [create], { expectedHead: repo.c2 })).rejects.toMatchObject({
      kind: "ref_moved",
    });
    const done = await commit("conflicting", [create], { expectedHead: head });
    expect(done.parent).toBe(head);
  });

  it("lets exactly one of many concurrent commits on the same head win", async () => {
    const head = (await branchHead(repo.gitDir, "master"))!;
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        commit("master", [{ action: "create", path: `race-${i}.txt`, content: Buffer.from(`${i}\n`) }], {
          expectedHead: head,
        }),
      ),
    );
    const won = results.filter((result) => result.status === "fulfilled");
    const lost = results.filter((result) => result.status === "rejected");
    expect(won).toHaveLength(1);
    for (const result of lost) expect(GitError.is(result.reason, "ref_moved")).toBe(true);
    expect(await branchHead(repo.gitDir, "master")).toBe(won[0]!.value.commit);
  });

  it("uses the committer when given, and refuses identities git would mangle", async () => {
    const committer = { name: "Kiln", email: "kiln@example.com", date: new Date("2016-03-02T00:00:00Z") };
    const result = await commitFiles(repo.gitDir, {
      branch: "master",
      message: "With committer\n",
      author,
      committer,
      actions: [{ action: "create", path: "committed.txt", content: Buffer.from("c\n") }],
    });
    expect(await getCommit(repo.gitDir, result.commit)).toMatchObject({
      committer_name: "Kiln",
      committed_date: "2016-03-02T00:00:00+00:00",
      message: "With committer\n",
    });
    const bad = commitFiles(repo.gitDir, {
      branch: "master",
      message: "m",
      author: { name: "Eve <evil@example.com>", email: "x" },
      actions: [{ action: "create", path: "eve.txt", content: Buffer.from("") }],
    });
    await expect(bad).rejects.toMatchObject({ kind: "invalid", subject: "identity" });
    expect(sh(repo.gitDir, ["log", "-1", "--format=%s", "master"])).toBe("With committer");
  });
});
