import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sample, type Scratch, sampleRepo, scratch, sh } from "./__tests__/fixture.js";
import { archive, archiveFormat, archivePrefix } from "./archive.js";
import { readBlob, readFile } from "./blobs.js";
import { commitFiles } from "./files.js";
import { listTree } from "./tree.js";

let dir: Scratch;
let repo: Sample;

beforeAll(() => {
  dir = scratch();
  repo = sampleRepo(dir.root);
});
afterAll(() => dir.remove());

describe("listTree", () => {
  it("lists the root: directories first, then files, each with GitLab's fields", async () => {
    const tree = await listTree(repo.gitDir, "master");
    expect(tree.map((entry) => [entry.type, entry.path, entry.mode])).toEqual([
      ["tree", "dir", "040000"],
      ["blob", "README.md", "100644"],
      ["blob", "escape", "120000"],
      ["blob", "image.bin", "100644"],
      ["blob", "script.sh", "100755"],
    ]);
    expect(tree[1]).toEqual({
      id: sh(repo.gitDir, ["rev-parse", "master:README.md"]),
      name: "README.md",
      type: "blob",
      path: "README.md",
      mode: "100644",
    });
  });

  it("lists a sub-directory with full paths, and recursively with directories included", async () => {
    const sub = await listTree(repo.gitDir, repo.c2, { path: "dir/" });
    expect(sub.map((entry) => [entry.name, entry.path])).toEqual([
      ["sub", "dir/sub"],
      ["a.txt", "dir/a.txt"],
    ]);
    const all = await listTree(repo.gitDir, "master", { path: "/dir", recursive: true });
    expect(all.map((entry) => entry.path)).toEqual(["dir/sub", "dir/renamed.txt", "dir/sub/b.txt"]);
  });

  it("puts submodules last", async () => {
    const blob = sh(repo.gitDir, ["rev-parse", "master:README.md"]);
    const tree = sh(repo.gitDir, ["mktree"], {
      input: `160000 commit ${repo.c1}\taaa-module\n100644 blob ${blob}\tzzz.txt\n040000 tree ${sh(repo.gitDir, ["rev-parse", "master:dir"])}\tmmm\n`,
    });
    const commit = sh(repo.gitDir, ["commit-tree", tree, "-m", "with a submodule"]);
    const entries = await listTree(repo.gitDir, commit);
    expect(entries.map((entry) => [entry.type, entry.name, entry.mode])).toEqual([
      ["tree", "mmm", "040000"],
      ["blob", "zzz.txt", "100644"],
      ["commit", "aaa-module", "160000"],
    ]);
  });

  it("answers [] for a missing path or a file, not_found for an unknown ref, invalid for traversal", async () => {
    expect(await listTree(repo.gitDir, "master", { path: "nope" })).toEqual([]);
    expect(await listTree(repo.gitDir, "master", { path: "README.md" })).toEqual([]);
    expect(await listTree(repo.gitDir, "master", { path: "escape" })).toEqual([]);
    await expect(listTree(repo.gitDir, "nope")).rejects.toMatchObject({
      kind: "not_found",
      subject: "revision",
    });
    await expect(listTree(repo.gitDir, "master", { path: "../.." })).rejects.toMatchObject({
      kind: "invalid",
    });
  });
});

describe("blobs and files", () => {
  it("reads a blob by sha (binary safe) and refuses what is not a blob", async () => {
    const id = sh(repo.gitDir, ["rev-parse", "master:image.bin"]);
    const blob = await readBlob(repo.gitDir, id);
    expect(blob).toEqual({ id, size: 7, content: Buffer.from([0, 1, 2, 3, 255, 0, 7]) });
    expect((await readBlob(repo.gitDir, id.slice(0, 8))).id).toBe(id);
    await expect(readBlob(repo.gitDir, repo.c1)).rejects.toMatchObject({
      kind: "not_found",
      subject: "object",
    });
    await expect(readBlob(repo.gitDir, "master")).rejects.toMatchObject({
      kind: "invalid",
      subject: "object",
    });
  });

  it("reads a file at a ref with its blob id, commit and last commit", async () => {
    const file = await readFile(repo.gitDir, "master", "dir/sub/b.txt");
    expect(file).toEqual({
      id: sh(repo.gitDir, ["rev-parse", "master:dir/sub/b.txt"]),
      size: 4,
      content: Buffer.from("bee\n"),
      commitId: repo.c3,
      lastCommitId: repo.c2,
    });
  });

  it("answers a symlink's target as its content and never follows it", async () => {
    const link = await readFile(repo.gitDir, "master", "escape");
    expect(link.content.toString()).toBe("../../../etc/passwd");
    await expect(readFile(repo.gitDir, "master", "escape/passwd")).rejects.toMatchObject({
      kind: "not_found",
      subject: "path",
    });
  });

  it("distinguishes an unknown ref from a missing file, and refuses paths leaving the tree", async () => {
    await expect(readFile(repo.gitDir, "nope", "README.md")).rejects.toMatchObject({
      kind: "not_found",
      subject: "revision",
    });
    await expect(readFile(repo.gitDir, "master", "nope.md")).rejects.toMatchObject({
      kind: "not_found",
      subject: "path",
    });
    await expect(readFile(repo.gitDir, "master", "dir")).rejects.toMatchObject({
      kind: "not_found",
      subject: "path",
    });
    for (const path of ["../sample.git/config", "/etc/passwd", ".git/config", "dir/../README.md"]) {
      await expect(readFile(repo.gitDir, "master", path), path).rejects.toMatchObject({
        kind: "invalid",
        subject: "path",
      });
    }
  });
});

describe("archive", () => {
  async function save(format: "tar.gz" | "zip" | "tar", name: string): Promise<string> {
    const prefix = archivePrefix("sample", "feature/clean", repo.c5);
    const result = await archive(repo.gitDir, "feature/clean", { format, prefix });
    expect(result.commit).toBe(repo.c5);
    const path = join(dir.root, name);
    await pipeline(result.stream, createWriteStream(path));
    await result.done;
    return path;
  }

  it("streams a valid tar.gz of the commit with GitLab's prefix", async () => {
    const path = await save("tar.gz", "a.tar.gz");
    const listing = spawnSync("tar", ["-tzf", path]);
    expect(listing.status).toBe(0);
    const prefix = `sample-feature-clean-${repo.c5}/`;
    expect(listing.stdout.toString().trim().split("\n")).toEqual(
      expect.arrayContaining([
        prefix,
        `${prefix}README.md`,
        `${prefix}feature.txt`,
        `${prefix}dir/sub/b.txt`,
      ]),
    );
  });

  it("writes zip and plain tar too", async () => {
    const zip = await save("zip", "a.zip");
    const tar = await save("tar", "a.tar");
    expect(spawnSync("tar", ["-tf", tar]).status).toBe(0);
    expect(spawnSync("head", ["-c", "2", zip]).stdout.toString()).toBe("PK");
  });

  it("maps GitLab's format names, refuses unknown refs before streaming and bad prefixes", async () => {
    expect([
      archiveFormat(undefined),
      archiveFormat("tgz"),
      archiveFormat("zip"),
      archiveFormat("tar.bz2"),
    ]).toEqual(["tar.gz", "tar.gz", "zip", null]);
    await expect(archive(repo.gitDir, "nope", { format: "tar", prefix: "x" })).rejects.toMatchObject({
      kind: "not_found",
    });
    await expect(archive(repo.gitDir, "master", { format: "tar", prefix: "../x" })).rejects.toMatchObject({
      kind: "invalid",
    });
    expect(archivePrefix("my project", "a/b", "abc")).toBe("my-project-a-b-abc");
  });

  it("stops git when the caller aborts", async () => {
    // 1 MB of random bytes in a plain tar: more than a pipe holds, so git is still writing (blocked
    // on the unread stream) when the abort comes.
    const big = await commitFiles(repo.gitDir, {
      branch: "big",
      startPoint: "master",
      message: "big",
      author: { name: "B", email: "b@example.com" },
      actions: [{ action: "create", path: "big.bin", content: randomBytes(1 << 20) }],
    });
    const controller = new AbortController();
    const result = await archive(repo.gitDir, big.commit, {
      format: "tar",
      prefix: "x",
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    result.stream.resume();
    await expect(result.done).rejects.toMatchObject({ kind: "aborted" });
  });
});
