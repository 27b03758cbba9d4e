import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitError } from "../errors.js";
import { bareRepo, commits, gitOk, type Sandbox, sandbox, workTree } from "../http/__tests__/harness.js";
import { pushCommits } from "./commits.js";

let box: Sandbox;
let repo: string;
let first: string;
let last: string;

beforeAll(async () => {
  box = await sandbox();
  repo = await bareRepo(box, "commits");
  const work = await workTree(box, "work", 1);
  first = await gitOk(box, ["rev-parse", "HEAD"], work);
  await commits(box, work, 25, "c");
  last = await gitOk(box, ["rev-parse", "HEAD"], work);
  await gitOk(box, ["checkout", "--quiet", "-b", "feature"], work);
  await commits(box, work, 3, "f");
  await gitOk(box, ["push", "--quiet", repo, "main", "feature"], work);
});

afterAll(async () => {
  await box?.remove();
});

describe("pushCommits", () => {
  it("lists an update's commits newest first, 20 of them, with the total", async () => {
    const result = await pushCommits(
      repo,
      { ref: "refs/heads/main", oldSha: first, newSha: last, kind: "update" },
      { urlFor: (id) => `http://kiln.test/g/p/commit/${id}` },
    );
    expect(result.total).toBe(25);
    expect(result.commits).toHaveLength(20);
    expect(result.commits[0]).toEqual({
      id: last,
      message: "c commit 24\n",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/),
      url: `http://kiln.test/g/p/commit/${last}`,
      author: { name: "Ada Client", email: "ada@example.com" },
    });
    expect(result.commits[19]?.message).toBe("c commit 5\n");
  });

  it("lists for a new branch what no other branch has, and nothing for a delete", async () => {
    const feature = await gitOk(box, ["rev-parse", "feature"], repo);
    const created = await pushCommits(repo, {
      ref: "refs/heads/feature",
      oldSha: "0".repeat(40),
      newSha: feature,
      kind: "create",
    });
    expect(created.total).toBe(3);
    expect(created.commits.map((commit) => commit.message)).toEqual([
      "f commit 2\n",
      "f commit 1\n",
      "f commit 0\n",
    ]);
    expect(created.commits[0]).not.toHaveProperty("url");

    const firstPush = await pushCommits(
      repo,
      { ref: "refs/heads/main", oldSha: "0".repeat(40), newSha: last, kind: "create" },
      { exclude: [], limit: 5 },
    );
    expect(firstPush).toMatchObject({ total: 26 });
    expect(firstPush.commits).toHaveLength(5);

    const deleted = await pushCommits(repo, {
      ref: "refs/heads/feature",
      oldSha: feature,
      newSha: "0".repeat(40),
      kind: "delete",
    });
    expect(deleted).toEqual({ total: 0, commits: [] });
  });

  it("refuses revisions that are not object ids or full ref names", async () => {
    await expect(
      pushCommits(repo, { ref: "refs/heads/main", oldSha: "--all", newSha: last, kind: "update" }),
    ).rejects.toBeInstanceOf(GitError);
  });
});
