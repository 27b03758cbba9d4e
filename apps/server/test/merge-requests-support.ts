import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MergeRequestJson, ProjectJson } from "@kiln/schemas";
import { git, repositoryPath, seedRepository, type TestUser } from "@kiln/testkit";
import { expect } from "vitest";
import { createRoleCast, type RoleCast } from "./project-roles.js";
import type { Served } from "./support.js";

/** A project with a member at every level and a repository whose `master` holds `README.md` and `app.txt`. */
export interface MergeFixture {
  cast: RoleCast;
  project: ProjectJson;
  repo: string;
}

/** Creates the cast and seeds its private project's repository, `master` its default branch. */
export async function mergeFixture(served: Served, prefix: string): Promise<MergeFixture> {
  const cast = await createRoleCast(served, prefix);
  const project = cast.private;
  seedRepository(served.server, project.id, [
    { message: "Initial\n", files: { "README.md": "# Project\n", "app.txt": "one\ntwo\nthree\n" } },
  ]);
  const updated = await served.api({
    method: "PUT",
    path: `/projects/${project.id}`,
    token: cast.people.owner.token,
    json: { default_branch: "master" },
  });
  expect(updated.status).toBe(200);
  return { cast, project, repo: repositoryPath(served.server, project.id) };
}

/**
 * Commits files (null removes one) on top of `from` (default: `branch` itself) straight into the
 * bare repository and points `branch` at the commit, without the server: no push event. Answers
 * the commit's sha.
 */
export function commitTo(
  repo: string,
  branch: string,
  files: Record<string, string | null>,
  options: { from?: string; message?: string } = {},
): string {
  const work = mkdtempSync(join(tmpdir(), "kiln-mr-"));
  const env = {
    GIT_INDEX_FILE: join(work, "index"),
    GIT_AUTHOR_NAME: "Branch Author",
    GIT_AUTHOR_EMAIL: "branch@example.com",
    GIT_COMMITTER_NAME: "Branch Author",
    GIT_COMMITTER_EMAIL: "branch@example.com",
  };
  try {
    const parent = git(["rev-parse", `${options.from ?? branch}^{commit}`], repo).trim();
    git(["read-tree", parent], repo, env);
    for (const [path, content] of Object.entries(files)) {
      if (content === null) {
        git(["update-index", "--force-remove", path], repo, { ...env, GIT_WORK_TREE: work });
        continue;
      }
      const file = join(work, "blob");
      writeFileSync(file, content);
      const blob = git(["hash-object", "-w", file], repo).trim();
      git(["update-index", "--add", "--cacheinfo", `100644,${blob},${path}`], repo, env);
    }
    const tree = git(["write-tree"], repo, env).trim();
    const message = options.message ?? `Change ${Object.keys(files).join(", ")}`;
    const commit = git(["commit-tree", tree, "-p", parent, "-m", message], repo, env).trim();
    git(["update-ref", `refs/heads/${branch}`, commit], repo);
    return commit;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The head of a branch in the bare repository, or null. */
export function headOf(repo: string, branch: string): string | null {
  try {
    return git(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], repo).trim();
  } catch {
    return null;
  }
}

/** Opens a merge request over HTTP; answers the response. */
export function openMergeRequest(
  served: Served,
  projectId: number,
  user: TestUser,
  params: Record<string, unknown>,
) {
  return served.api<MergeRequestJson & { message?: unknown }>({
    method: "POST",
    path: `/projects/${projectId}/merge_requests`,
    token: user.token,
    json: params,
  });
}

/** Polls `probe` until it answers true (or fails the test after `ms`). */
export async function eventually(probe: () => Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect.fail("the condition did not hold in time");
}
