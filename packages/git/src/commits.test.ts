import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bare, fixtureEnv, type Sample, type Scratch, sampleRepo, scratch, sh } from "./__tests__/fixture.js";
import { createBranch, deleteBranch, findBranch } from "./branches.js";
import { isoDate } from "./commit-object.js";
import { commitsBetween, getCommit, lastCommitFor, listCommits } from "./commits.js";
import { GitError } from "./errors.js";

let dir: Scratch;
let repo: Sample;
let merge: string;

beforeAll(() => {
  dir = scratch();
  repo = sampleRepo(dir.root);
  // A merge commit of feature/clean into master, pushed as branch "merged".
  sh(repo.work, ["checkout", "-q", "-b", "merged", "master"]);
  sh(repo.work, ["merge", "-q", "--no-ff", "-m", "Merge feature", "feature/clean"], {
    env: fixtureEnv("2016-01-07T10:00:00Z"),
  });
  merge = sh(repo.work, ["rev-parse", "HEAD"]);
  sh(repo.work, ["push", "-q", repo.gitDir, "merged"]);
});
afterAll(() => dir.remove());

describe("listCommits", () => {
  it("lists newest first with GitLab's fields", async () => {
    const commits = await listCommits(repo.gitDir, { ref: "master" });
    expect(commits.map((commit) => commit.id)).toEqual([repo.c3, repo.c2, repo.c1]);
    expect(commits[2]).toEqual({
      id: repo.c1,
      message: "Initial commit\n\nWith a body: ünïcödé ✓\n",
      parent_ids: [],
      authored_date: "2016-01-01T10:00:00+01:00",
      author_name: "Ann Ünïcode",
      author_email: "ann@example.com",
      committed_date: "2016-01-01T10:00:00+01:00",
      committer_name: "Carl Committer",
      committer_email: "carl@example.com",
    });
    expect(commits[1]?.authored_date).toBe("2016-01-02T10:00:00-05:00");
  });

  it("pages with skip and limit (GitLab's 0-based page times per_page)", async () => {
    const page = (p: number) => listCommits(repo.gitDir, { ref: "master", skip: p * 2, limit: 2 });
    expect((await page(0)).map((commit) => commit.id)).toEqual([repo.c3, repo.c2]);
    expect((await page(1)).map((commit) => commit.id)).toEqual([repo.c1]);
    expect(await page(2)).toEqual([]);
  });

  it("filters by since, until and path", async () => {
    const since = await listCommits(repo.gitDir, { ref: "master", since: new Date("2016-01-02T15:00:00Z") });
    expect(since.map((commit) => commit.id)).toEqual([repo.c3, repo.c2]);
    const until = await listCommits(repo.gitDir, { ref: "master", until: new Date("2016-01-02T15:00:00Z") });
    expect(until.map((commit) => commit.id)).toEqual([repo.c2, repo.c1]);
    const readme = await listCommits(repo.gitDir, { ref: "master", path: "README.md" });
    expect(readme.map((commit) => commit.id)).toEqual([repo.c3, repo.c1]);
    const directory = await listCommits(repo.gitDir, { ref: "master", path: "dir/" });
    expect(directory.map((commit) => commit.id)).toEqual([repo.c3, repo.c2]);
    // Pathspecs are literal: a glob matches nothing.
    expect(await listCommits(repo.gitDir, { ref: "master", path: "*.md" })).toEqual([]);
  });

  it("filters by dates git cannot write as they are: at or before 1970, fractions, the far future", async () => {
    const ids = async (options: { since?: Date; until?: Date }) =>
      (await listCommits(repo.gitDir, { ref: "master", ...options })).map((commit) => commit.id);
    const all = [repo.c3, repo.c2, repo.c1];
    for (const early of ["1960-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.500Z"]) {
      expect(await ids({ since: new Date(early) }), early).toEqual(all);
      expect(await ids({ until: new Date(early) }), early).toEqual([]);
    }
    // Before git reads a number as seconds (1973-03-03T09:46:40Z), and after it.
    for (const early of ["1970-01-01T00:00:01Z", "1973-03-03T09:46:39Z", "1973-03-03T09:46:40Z"]) {
      expect(await ids({ since: new Date(early) }), early).toEqual(all);
      expect(await ids({ until: new Date(early) }), early).toEqual([]);
    }
    expect(await ids({ since: new Date(-8.64e15) })).toEqual(all);
    expect(await ids({ until: new Date(8.64e15) })).toEqual(all);
    expect(await ids({ since: new Date(8.64e15) })).toEqual([]);
    // c3 was committed at 2016-01-03T10:00:00Z: half a second later is after it.
    expect(await ids({ since: new Date("2016-01-03T10:00:00.500Z") })).toEqual([]);
    expect(await ids({ until: new Date("2016-01-03T10:00:00.500Z") })).toEqual(all);
  });

  it("answers an empty page past what git can count, not a page from the start", async () => {
    for (const skip of [2 ** 31 - 1, 2 ** 31, 2 ** 32, Number.MAX_SAFE_INTEGER]) {
      expect(await listCommits(repo.gitDir, { ref: "master", skip }), String(skip)).toEqual([]);
    }
    const huge = await listCommits(repo.gitDir, { ref: "master", limit: 2 ** 32 });
    expect(huge.map((commit) => commit.id)).toEqual([repo.c3, repo.c2, repo.c1]);
  });

  it("says not_found for an unknown ref and invalid for refused input", async () => {
    await expect(listCommits(repo.gitDir, { ref: "nope" })).rejects.toMatchObject({
      kind: "not_found",
      subject: "revision",
    });
    await expect(listCommits(repo.gitDir, { ref: "--all" })).rejects.toMatchObject({ kind: "invalid" });
    await expect(listCommits(repo.gitDir, { ref: "master", path: "../x" })).rejects.toMatchObject({
      kind: "invalid",
    });
  });
});

describe("getCommit", () => {
  it("answers one commit with parent ids and stats against its parent", async () => {
    const commit = await getCommit(repo.gitDir, repo.c3);
    expect(commit.parent_ids).toEqual([repo.c2]);
    // README +1; rename counted as delete 5 + add 5 (no rename detection, as GitLab's stats); old.txt -1.
    expect(commit.stats).toEqual({ additions: 6, deletions: 6, total: 12 });
    expect(commit.message).toBe("Change README, rename a, delete old\n");
  });

  it("counts a root commit against nothing and binary files as zero lines", async () => {
    expect((await getCommit(repo.gitDir, repo.c1)).stats).toEqual({ additions: 1, deletions: 0, total: 1 });
    // c2: dir/a.txt 5, dir/sub/b.txt 1, docs/old.txt 1, script.sh 2, escape 1, image.bin binary.
    expect((await getCommit(repo.gitDir, repo.c2)).stats).toEqual({ additions: 10, deletions: 0, total: 10 });
  });

  it("counts a merge against its first parent", async () => {
    const commit = await getCommit(repo.gitDir, "merged");
    expect(commit.id).toBe(merge);
    expect(commit.parent_ids).toEqual([repo.c3, repo.c5]);
    expect(commit.stats).toEqual({ additions: 1, deletions: 0, total: 1 });
  });

  it("answers an empty commit with zero stats, and resolves tags and abbreviations", async () => {
    const empty = bare(repo.gitDir, ["commit-tree", `${repo.c3}^{tree}`, "-p", repo.c3, "-m", "empty"]);
    expect((await getCommit(repo.gitDir, empty)).stats).toEqual({ additions: 0, deletions: 0, total: 0 });
    expect((await getCommit(repo.gitDir, "v2.0")).id).toBe(repo.c3);
    expect((await getCommit(repo.gitDir, repo.c1.slice(0, 8))).id).toBe(repo.c1);
  });

  it("says not_found for an unknown sha, a tree or a blob", async () => {
    for (const rev of ["0".repeat(40), "deadbeef", "nope", `${repo.c3}^{tree}`]) {
      await expect(getCommit(repo.gitDir, rev), rev).rejects.toMatchObject({ kind: "not_found" });
    }
  });
});

describe("commit text encodings", () => {
  it("decodes a latin-1 commit (encoding header) the same in logs and branch listings", async () => {
    const tree = bare(repo.gitDir, ["rev-parse", `${repo.c1}^{tree}`]);
    const latin1 = Buffer.from(
      `tree ${tree}\nauthor J\xf6rg <j@example.com> 1451606400 +0100\ncommitter J\xf6rg <j@example.com> 1451606400 +0100\nencoding ISO-8859-1\n\nCaf\xe9\n`,
      "latin1",
    );
    const id = sh(repo.gitDir, ["hash-object", "-t", "commit", "-w", "--stdin"], { input: latin1 });
    await createBranch(repo.gitDir, "latin1", id);
    const [logged] = await listCommits(repo.gitDir, { ref: "latin1" });
    const listed = (await findBranch(repo.gitDir, "latin1"))?.commit;
    expect(logged?.message).toBe("Café\n");
    expect(logged?.author_name).toBe("Jörg");
    expect(listed).toEqual(logged);
    await deleteBranch(repo.gitDir, "latin1");
  });

  it("keeps invalid UTF-8 readable (replacement characters) without failing", async () => {
    const tree = bare(repo.gitDir, ["rev-parse", `${repo.c1}^{tree}`]);
    const raw = Buffer.concat([
      Buffer.from(
        `tree ${tree}\nauthor A <a@example.com> 0 +0000\ncommitter A <a@example.com> 0 +0000\n\nbad `,
      ),
      Buffer.from([0xff, 0xfe]),
      Buffer.from("\n"),
    ]);
    const id = sh(repo.gitDir, ["hash-object", "-t", "commit", "-w", "--literally", "--stdin"], {
      input: raw,
    });
    const commit = await getCommit(repo.gitDir, id);
    expect(commit.message.startsWith("bad ")).toBe(true);
    expect(commit.authored_date).toBe("1970-01-01T00:00:00+00:00");
  });

  it("formats dates as git's %aI for any offset", () => {
    expect(isoDate(1451700245, "+0100")).toBe("2016-01-02T03:04:05+01:00");
    expect(isoDate(1451700245, "-0930")).toBe("2016-01-01T16:34:05-09:30");
    expect(isoDate(0, "+0000")).toBe("1970-01-01T00:00:00+00:00");
  });

  it("parses branch heads exactly as git log formats them, for every commit", async () => {
    for (const id of [repo.c1, repo.c2, repo.c3, repo.c4, repo.c5, merge]) {
      await createBranch(repo.gitDir, "probe", id);
      const [logged] = await listCommits(repo.gitDir, { ref: id, limit: 1 });
      expect((await findBranch(repo.gitDir, "probe"))?.commit).toEqual(logged);
      await deleteBranch(repo.gitDir, "probe");
    }
  });
});

describe("commitsBetween and lastCommitFor", () => {
  it("lists from..to oldest first, or newest first", async () => {
    expect((await commitsBetween(repo.gitDir, repo.c1, "master")).map((commit) => commit.id)).toEqual([
      repo.c2,
      repo.c3,
    ]);
    const newest = await commitsBetween(repo.gitDir, "master", "merged", { newestFirst: true });
    expect(newest.map((commit) => commit.id)).toEqual([merge, repo.c5]);
    expect(await commitsBetween(repo.gitDir, "master", "master")).toEqual([]);
    await expect(commitsBetween(repo.gitDir, "nope", "master")).rejects.toBeInstanceOf(GitError);
  });

  it("finds the last commit that touched a path", async () => {
    expect(await lastCommitFor(repo.gitDir, repo.c3, "dir/sub/b.txt")).toBe(repo.c2);
    expect(await lastCommitFor(repo.gitDir, repo.c3, "README.md")).toBe(repo.c3);
    expect(await lastCommitFor(repo.gitDir, repo.c3, "missing")).toBeNull();
  });
});
