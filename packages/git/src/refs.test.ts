import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bare, type Sample, type Scratch, sampleRepo, scratch } from "./__tests__/fixture.js";
import { createBranch, deleteBranch, findBranch, listBranches } from "./branches.js";
import { GitError, type GitErrorKind, type GitErrorSubject } from "./errors.js";
import {
  branchHead,
  getDefaultBranch,
  isEmptyRepository,
  resolveCommit,
  resolveCommits,
  setDefaultBranch,
} from "./refs.js";
import { createTag, deleteTag, findTag, listTags } from "./tags.js";

let dir: Scratch;
let repo: Sample;

beforeAll(() => {
  dir = scratch();
  repo = sampleRepo(dir.root);
});
afterAll(() => dir.remove());

async function failure(
  promise: Promise<unknown>,
): Promise<{ kind: GitErrorKind; subject?: GitErrorSubject }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GitError)
      return error.subject ? { kind: error.kind, subject: error.subject } : { kind: error.kind };
    throw error;
  }
  throw new Error("expected a GitError");
}

describe("branches", () => {
  it("lists every branch sorted by name with its head commit in GitLab's raw commit shape", async () => {
    const branches = await listBranches(repo.gitDir);
    expect(branches.map((branch) => branch.name)).toEqual(["conflicting", "feature/clean", "master"]);
    const master = branches.find((branch) => branch.name === "master")!;
    expect(master.commit).toEqual({
      id: repo.c3,
      message: "Change README, rename a, delete old\n",
      parent_ids: [repo.c2],
      authored_date: "2016-01-03T10:00:00+00:00",
      author_name: "Ann Ünïcode",
      author_email: "ann@example.com",
      committed_date: "2016-01-03T10:00:00+00:00",
      committer_name: "Carl Committer",
      committer_email: "carl@example.com",
    });
  });

  it("sorts by bytes (upper case first), as GitLab's sort_by(&:name)", async () => {
    await createBranch(repo.gitDir, "Zeta", "master");
    await createBranch(repo.gitDir, "alpha", "master");
    const names = (await listBranches(repo.gitDir)).map((branch) => branch.name);
    expect(names).toEqual(["Zeta", "alpha", "conflicting", "feature/clean", "master"]);
    await deleteBranch(repo.gitDir, "Zeta");
    await deleteBranch(repo.gitDir, "alpha");
  });

  it("keeps messages with newlines and keeps the offset of each date", async () => {
    const first = (await findBranch(repo.gitDir, "master")) && (await resolveCommit(repo.gitDir, "v1.0"));
    expect(first).toBe(repo.c1);
    await createBranch(repo.gitDir, "from-tag", "v1.0");
    const branch = await findBranch(repo.gitDir, "from-tag");
    expect(branch?.commit.message).toBe("Initial commit\n\nWith a body: ünïcödé ✓\n");
    expect(branch?.commit.authored_date).toBe("2016-01-01T10:00:00+01:00");
    expect(branch?.commit.parent_ids).toEqual([]);
    await deleteBranch(repo.gitDir, "from-tag");
  });

  it("finds one branch by a name with slashes, and answers null for a missing one", async () => {
    expect((await findBranch(repo.gitDir, "feature/clean"))?.commit.id).toBe(repo.c5);
    expect(await findBranch(repo.gitDir, "feature")).toBeNull();
    expect(await findBranch(repo.gitDir, "nope")).toBeNull();
    expect(await failure(findBranch(repo.gitDir, "bad..name"))).toEqual({
      kind: "invalid",
      subject: "branch",
    });
  });

  it("creates from a branch, a tag or a sha", async () => {
    expect((await createBranch(repo.gitDir, "b1", "conflicting")).commit.id).toBe(repo.c4);
    expect((await createBranch(repo.gitDir, "b2", "v2.0")).commit.id).toBe(repo.c3);
    const b3 = await createBranch(repo.gitDir, "b3", repo.c2.slice(0, 10));
    expect(b3.commit.id).toBe(repo.c2);
    expect(b3.commit.author_name).toBe("Ann Ünïcode");
    expect(bare(repo.gitDir, ["rev-parse", "refs/heads/b3"])).toBe(repo.c2);
    for (const name of ["b1", "b2", "b3"]) await deleteBranch(repo.gitDir, name);
  });

  it("refuses an invalid name, an existing name and a bad start point, in GitLab's order", async () => {
    expect(await failure(createBranch(repo.gitDir, "-x", "master"))).toEqual({
      kind: "invalid",
      subject: "branch",
    });
    expect(await failure(createBranch(repo.gitDir, "a b", "master"))).toEqual({
      kind: "invalid",
      subject: "branch",
    });
    expect(await failure(createBranch(repo.gitDir, "master", "nope"))).toEqual({
      kind: "exists",
      subject: "branch",
    });
    expect(await failure(createBranch(repo.gitDir, "new", "nope"))).toEqual({
      kind: "invalid",
      subject: "revision",
    });
    expect(await failure(createBranch(repo.gitDir, "new", "--all"))).toEqual({
      kind: "invalid",
      subject: "revision",
    });
    // A branch named like a directory of an existing one, and the other way round.
    expect(await failure(createBranch(repo.gitDir, "master/x", "master"))).toEqual({
      kind: "exists",
      subject: "branch",
    });
    expect(await failure(createBranch(repo.gitDir, "feature", "master"))).toEqual({
      kind: "exists",
      subject: "branch",
    });
  });

  it("deletes a branch, answers its head, and says not_found for a missing one", async () => {
    await createBranch(repo.gitDir, "doomed", "master");
    expect(await deleteBranch(repo.gitDir, "doomed")).toBe(repo.c3);
    expect(await branchHead(repo.gitDir, "doomed")).toBeNull();
    expect(await failure(deleteBranch(repo.gitDir, "doomed"))).toEqual({
      kind: "not_found",
      subject: "branch",
    });
    await createBranch(repo.gitDir, "doomed", "master");
    expect(await failure(deleteBranch(repo.gitDir, "doomed", repo.c2))).toEqual({
      kind: "ref_moved",
      subject: "branch",
    });
    await deleteBranch(repo.gitDir, "doomed", repo.c3);
  });
});

describe("revisions and HEAD", () => {
  it("resolves branches, tags (peeled), shas and suffixes in one call", async () => {
    const ids = await resolveCommits(repo.gitDir, [
      "master",
      "v2.0",
      "v1.0",
      repo.c4,
      "master~2",
      "HEAD",
      "nope",
    ]);
    expect(ids).toEqual([repo.c3, repo.c3, repo.c1, repo.c4, repo.c1, repo.c3, null]);
    expect(await failure(resolveCommit(repo.gitDir, "nope"))).toEqual({
      kind: "not_found",
      subject: "revision",
    });
    expect(await failure(resolveCommit(repo.gitDir, "-h"))).toEqual({ kind: "invalid", subject: "revision" });
  });

  it("reads and sets the default branch", async () => {
    expect(await getDefaultBranch(repo.gitDir)).toBe("master");
    await setDefaultBranch(repo.gitDir, "feature/clean");
    expect(await getDefaultBranch(repo.gitDir)).toBe("feature/clean");
    expect(await resolveCommit(repo.gitDir, "HEAD")).toBe(repo.c5);
    await setDefaultBranch(repo.gitDir, "master");
    await expect(setDefaultBranch(repo.gitDir, "bad..name")).rejects.toThrow(GitError);
    expect(await isEmptyRepository(repo.gitDir)).toBe(false);
  });
});

describe("tags", () => {
  it("lists tags by name descending with message and peeled commit", async () => {
    const tags = await listTags(repo.gitDir);
    expect(tags.map((tag) => tag.name)).toEqual(["v2.0", "v1.0"]);
    const [v2, v1] = tags;
    expect(v2?.message).toBe("Release 2.0\n");
    expect(v2?.commit?.id).toBe(repo.c3);
    expect(v2?.target).not.toBe(repo.c3); // the tag object
    expect(v1).toMatchObject({ name: "v1.0", message: null, target: repo.c1, commit: { id: repo.c1 } });
    expect((await listTags(repo.gitDir, "asc")).map((tag) => tag.name)).toEqual(["v1.0", "v2.0"]);
  });

  it("finds one tag, null for a missing one", async () => {
    expect((await findTag(repo.gitDir, "v2.0"))?.commit?.message).toBe(
      "Change README, rename a, delete old\n",
    );
    expect(await findTag(repo.gitDir, "v3")).toBeNull();
  });

  it("creates lightweight and annotated tags, refusing bad names, taken names and bad targets", async () => {
    const light = await createTag(repo.gitDir, { name: "light", target: "conflicting" });
    expect(light).toMatchObject({ name: "light", message: null, target: repo.c4, commit: { id: repo.c4 } });
    const tagger = { name: "Tia Tagger", email: "tia@example.com", date: new Date("2016-02-01T00:00:00Z") };
    const annotated = await createTag(repo.gitDir, {
      name: "rel/1",
      target: repo.c2,
      message: "Notes\nline 2",
      tagger,
    });
    expect(annotated.message).toBe("Notes\nline 2\n");
    expect(annotated.commit?.id).toBe(repo.c2);
    expect(bare(repo.gitDir, ["cat-file", "-p", "refs/tags/rel/1"])).toContain(
      "tagger Tia Tagger <tia@example.com> 1454284800 +0000",
    );
    expect(await findTag(repo.gitDir, "rel/1")).toEqual(annotated);

    expect(await failure(createTag(repo.gitDir, { name: "bad name", target: "master" }))).toEqual({
      kind: "invalid",
      subject: "tag",
    });
    expect(await failure(createTag(repo.gitDir, { name: "light", target: "master" }))).toEqual({
      kind: "exists",
      subject: "tag",
    });
    expect(await failure(createTag(repo.gitDir, { name: "t", target: "nope" }))).toEqual({
      kind: "invalid",
      subject: "revision",
    });
    expect(await failure(createTag(repo.gitDir, { name: "t", target: "master", message: "m" }))).toEqual({
      kind: "invalid",
      subject: "identity",
    });
    expect(
      await failure(
        createTag(repo.gitDir, {
          name: "t",
          target: "master",
          message: "m",
          tagger: { name: "x<y", email: "" },
        }),
      ),
    ).toEqual({
      kind: "invalid",
      subject: "identity",
    });
  });

  it("deletes a tag, not_found for a missing one", async () => {
    expect(await deleteTag(repo.gitDir, "light")).toBe(repo.c4);
    expect(await deleteTag(repo.gitDir, "rel/1")).toMatch(/^[0-9a-f]{40}$/);
    expect(await failure(deleteTag(repo.gitDir, "light"))).toEqual({ kind: "not_found", subject: "tag" });
    expect((await listTags(repo.gitDir)).map((tag) => tag.name)).toEqual(["v2.0", "v1.0"]);
  });

  it("peels a tag of a tag to its commit", async () => {
    const tagger = { name: "T", email: "t@example.com" };
    const inner = await createTag(repo.gitDir, { name: "inner", target: "master", message: "inner", tagger });
    const outerObject = bare(
      repo.gitDir,
      ["mktag"],
      `object ${inner.target}\ntype tag\ntag outer\ntagger T <t@example.com> 0 +0000\n\nouter\n`,
    );
    bare(repo.gitDir, ["update-ref", "refs/tags/outer", outerObject]);
    expect((await findTag(repo.gitDir, "outer"))?.commit?.id).toBe(repo.c3);
    expect((await listTags(repo.gitDir)).find((tag) => tag.name === "outer")?.message).toBe("outer\n");
    await deleteTag(repo.gitDir, "outer");
    await deleteTag(repo.gitDir, "inner");
  });
});
