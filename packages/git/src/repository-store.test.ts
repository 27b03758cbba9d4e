import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bare, fixtureEnv, type Scratch, sampleRepo, scratch, sh } from "./__tests__/fixture.js";
import { listBranches } from "./branches.js";
import { getCommit, listCommits } from "./commits.js";
import { commitFiles } from "./files.js";
import { getDefaultBranch, isEmptyRepository } from "./refs.js";
import { RepositoryStore } from "./repository-store.js";
import { listTags } from "./tags.js";
import { listTree } from "./tree.js";
import { checkGitVersion, parseGitVersion } from "./version.js";

let dir: Scratch;
let store: RepositoryStore;

beforeAll(() => {
  dir = scratch();
  store = new RepositoryStore(join(dir.root, "repositories"));
});
afterAll(() => dir.remove());

describe("RepositoryStore", () => {
  it("names repositories by project id only", () => {
    expect(store.path(42)).toBe(join(dir.root, "repositories", "42.git"));
    for (const id of [0, -1, 1.5, Number.NaN, 2 ** 60]) {
      expect(() => store.path(id), String(id)).toThrow(/invalid repository id/);
    }
  });

  it("creates an empty bare repository with the server's settings and no sample hooks", async () => {
    const gitDir = await store.create(7);
    expect(await store.exists(7)).toBe(true);
    expect(await store.isEmpty(7)).toBe(true);
    expect(bare(gitDir, ["rev-parse", "--is-bare-repository"])).toBe("true");
    expect(await getDefaultBranch(gitDir)).toBe("master");
    expect(bare(gitDir, ["config", "core.logAllRefUpdates"])).toBe("false");
    expect(bare(gitDir, ["config", "receive.denyNonFastForwards"])).toBe("false");
    expect(existsSync(join(gitDir, "hooks"))).toBe(false);
    // No temporary directory is left in the root.
    expect(readdirSync(store.root)).toEqual(["7.git"]);
  });

  it("answers an empty repository's lists as empty and its revisions as not_found", async () => {
    const gitDir = await store.create(12);
    expect(await listBranches(gitDir)).toEqual([]);
    expect(await listTags(gitDir)).toEqual([]);
    await expect(listCommits(gitDir, { ref: "master" })).rejects.toMatchObject({ kind: "not_found" });
    await expect(listTree(gitDir, "HEAD")).rejects.toMatchObject({ kind: "not_found" });
    await expect(getCommit(gitDir, "HEAD")).rejects.toMatchObject({ kind: "not_found" });
  });

  it("creates with another default branch, and refuses an existing id", async () => {
    const gitDir = await store.create(8, { defaultBranch: "main" });
    expect(await getDefaultBranch(gitDir)).toBe("main");
    await expect(store.create(8)).rejects.toMatchObject({ kind: "exists", subject: "repository" });
    await expect(store.create(9, { defaultBranch: "bad..name" })).rejects.toMatchObject({ kind: "invalid" });
    expect(await store.exists(9)).toBe(false);
  });

  it("removes a repository, answering false when there is none", async () => {
    await store.create(10);
    expect(await store.remove(10)).toBe(true);
    expect(await store.exists(10)).toBe(false);
    expect(await store.remove(10)).toBe(false);
  });

  it("removes a repository asked to remove twice at once once: one true, one false, nothing left", async () => {
    for (let round = 0; round < 20; round++) {
      await store.create(13);
      const answers = await Promise.all([store.remove(13), store.remove(13)]);
      expect(answers.sort()).toEqual([false, true]);
      expect(await store.exists(13)).toBe(false);
      expect(readdirSync(store.root).filter((name) => name.startsWith("."))).toEqual([]);
    }
  });

  it("never removes anything but <root>/<digits>.git, nor follows a symlink put there", async () => {
    const precious = join(dir.root, "precious");
    mkdirSync(precious);
    writeFileSync(join(precious, "keep"), "keep");
    symlinkSync(precious, join(store.root, "11.git"));
    await expect(store.remove(11)).rejects.toMatchObject({ kind: "invalid" });
    expect(existsSync(join(precious, "keep"))).toBe(true);
    expect(lstatSync(join(store.root, "11.git")).isSymbolicLink()).toBe(true);
    expect(() => store.path(-11)).toThrow();
  });

  it("forks: the copy has the branches, tags and HEAD, and works after the source is removed", async () => {
    const source = await store.create(20);
    const sample = sampleRepo(join(dir.root, "sample-src"));
    sh(sample.work, ["push", "-q", source, "master", "conflicting", "feature/clean", "--tags"]);
    const fork = await store.fork(20, 21);
    expect((await listBranches(fork)).map((branch) => branch.name)).toEqual([
      "conflicting",
      "feature/clean",
      "master",
    ]);
    expect((await listTags(fork)).map((tag) => tag.name)).toEqual(["v2.0", "v1.0"]);
    expect(await getDefaultBranch(fork)).toBe("master");
    expect(readFileSync(join(fork, "config"), "utf8")).not.toContain("remote");

    expect(await store.remove(20)).toBe(true);
    expect(bare(fork, ["fsck", "--full", "--no-dangling"])).toBe("");
    expect((await getCommit(fork, "master")).id).toBe(sample.c3);
    // It still takes commits and clones.
    await commitFiles(fork, {
      branch: "master",
      message: "after the source is gone",
      author: { name: "F", email: "f@example.com" },
      actions: [{ action: "create", path: "fork.txt", content: Buffer.from("fork\n") }],
    });
    sh(dir.root, ["clone", "-q", fork, join(dir.root, "fork-clone")], { env: fixtureEnv() });
    expect(existsSync(join(dir.root, "fork-clone", "fork.txt"))).toBe(true);
  });

  it("forks an empty repository, and refuses a missing source or a taken target", async () => {
    await store.create(30);
    const fork = await store.fork(30, 31);
    expect(await isEmptyRepository(fork)).toBe(true);
    await expect(store.fork(99, 32)).rejects.toMatchObject({ kind: "not_found" });
    await expect(store.fork(30, 31)).rejects.toMatchObject({ kind: "exists" });
  });

  it("forks a repository while it is removed: a whole copy, or not_found and no copy", async () => {
    const sample = sampleRepo(join(dir.root, "sample-removed"));
    for (let round = 0; round < 10; round++) {
      const source = await store.create(40);
      sh(sample.work, ["push", "-q", source, "master"]);
      const [fork, removed] = await Promise.allSettled([store.fork(40, 41), store.remove(40)]);
      expect(removed).toEqual({ status: "fulfilled", value: true });
      if (fork.status === "fulfilled") {
        expect(bare(fork.value, ["fsck", "--full", "--no-dangling"])).toBe("");
        expect((await getCommit(fork.value, "master")).id).toBe(sample.c3);
        await store.remove(41);
      } else {
        expect(fork.reason).toMatchObject({ kind: "not_found", subject: "repository" });
      }
      expect(await store.exists(41)).toBe(false);
      expect(readdirSync(store.root).filter((name) => name.startsWith("."))).toEqual([]);
    }
  });

  it("answers reads of a removed repository as not_found about the repository, not as a failure", async () => {
    const sample = sampleRepo(join(dir.root, "sample-gone"));
    const gitDir = await store.create(50);
    sh(sample.work, ["push", "-q", gitDir, "master"]);
    expect((await listTree(gitDir, "master")).length).toBeGreaterThan(0);
    await store.remove(50);
    const gone = { kind: "not_found", subject: "repository" };
    await expect(listTree(gitDir, "master")).rejects.toMatchObject(gone);
    await expect(listCommits(gitDir, { ref: "master" })).rejects.toMatchObject(gone);
    await expect(listBranches(gitDir)).rejects.toMatchObject(gone);
  });
});

describe("git version", () => {
  it("parses version lines", () => {
    expect(parseGitVersion("git version 2.39.5")).toEqual([2, 39, 5]);
    expect(parseGitVersion("git version 2.38.1.windows.1")).toEqual([2, 38, 1]);
    expect(parseGitVersion("git version 2.40")).toEqual([2, 40, 0]);
    expect(parseGitVersion("nothing")).toBeNull();
  });

  it("accepts the system git (2.38 or newer)", async () => {
    expect(await checkGitVersion()).toMatch(/^2\.(3[89]|[4-9]\d)\.\d+$|^[3-9]\./);
  });
});
