import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MergeRequestJson } from "@kiln/schemas";
import { createUser, repositoryPath, type TestUser } from "@kiln/testkit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type GitClient, gitClient, repoUrl } from "./git-client.js";
import { eventually, headOf, openMergeRequest } from "./merge-requests-support.js";
import { onEachDatabase } from "./support.js";

interface StatusRow {
  id: number;
  sha: string;
  ref: string;
  status: string;
  name: string;
  target_url: string | null;
  description: string | null;
  allow_failure: boolean;
  author: { username: string } | null;
}

onEachDatabase("commit statuses of an external CI", (served) => {
  let client: GitClient;
  let work: string;
  let projectId: number;
  let developer: TestUser;
  let reporter: TestUser;
  let master: string;

  beforeAll(async () => {
    const { server, root, api } = served();
    client = gitClient();
    const project = await api<{ id: number; path_with_namespace: string }>({
      method: "POST",
      path: "/projects",
      token: root.token,
      json: { name: "statuses-demo" },
    });
    expect(project.status).toBe(201);
    projectId = project.body.id;
    developer = await createUser(server, root, "statuses-developer");
    reporter = await createUser(server, root, "statuses-reporter");
    for (const [user, access_level] of [
      [developer, 30],
      [reporter, 20],
    ] as const) {
      const added = await api({
        method: "POST",
        path: `/projects/${projectId}/members`,
        token: root.token,
        json: { user_id: user.id, access_level },
      });
      expect(added.status).toBe(201);
    }
    work = join(client.root, "work");
    await client.ok(["init", "--quiet", "-b", "master", work]);
    master = await client.commit(work, "Initial", "README.md");
    const remote = repoUrl(server.url, project.body.path_with_namespace, {
      username: "root",
      secret: root.token,
    });
    await client.ok(["push", "--quiet", remote, "master"], work);
    await client.ok(["checkout", "--quiet", "-b", "feature"], work);
    writeFileSync(join(work, "feature.txt"), "feature\n");
    await client.ok(["add", "feature.txt"], work);
    await client.ok(["commit", "--quiet", "-m", "Feature"], work);
    await client.ok(["push", "--quiet", remote, "feature"], work);
  });
  afterAll(() => client.remove());

  const post = (sha: string, user: TestUser, json: Record<string, unknown>) =>
    served().api<StatusRow & { message?: string }>({
      method: "POST",
      path: `/projects/${projectId}/statuses/${sha}`,
      token: user.token,
      json,
    });
  const list = async (sha: string, query = "") =>
    (
      await served().api<StatusRow[]>({
        path: `/projects/${projectId}/repository/commits/${sha}/statuses${query}`,
        token: reporter.token,
      })
    ).body;
  const commitStatus = async (sha: string) =>
    (
      await served().api<{ status: string | null }>({
        path: `/projects/${projectId}/repository/commits/${sha}`,
        token: reporter.token,
      })
    ).body.status;

  it("moves one status pending → running → success, and the commit's status follows", async () => {
    const sha = await client.ok(["rev-parse", "feature"], work);
    expect(await commitStatus(sha)).toBeNull();
    expect(await list(sha)).toEqual([]);

    const pending = await post(sha, developer, { state: "pending", target_url: "https://ci.example/1" });
    expect(pending.status).toBe(201);
    // No ref given: the first branch that holds the commit.
    expect(pending.body).toMatchObject({
      sha,
      ref: "feature",
      status: "pending",
      name: "default",
      target_url: "https://ci.example/1",
      description: null,
      allow_failure: false,
      author: { username: developer.username },
    });
    expect(await commitStatus(sha)).toBe("pending");

    const running = await post(sha, developer, { state: "running", target_url: "https://ci.example/1" });
    expect(running.body).toMatchObject({ id: pending.body.id, status: "running" });
    expect(await commitStatus(sha)).toBe("running");
    // Running again is no move the status can make.
    const again = await post(sha, developer, { state: "running", target_url: "https://ci.example/1" });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe("Cannot transition status via :run from :running");

    const success = await post(sha, developer, { state: "success", target_url: "https://ci.example/1" });
    expect(success.body).toMatchObject({ id: pending.body.id, status: "success" });
    expect(await commitStatus(sha)).toBe("success");

    // A second context, pending, makes the commit running again; a later failure of the first
    // replaces it as the latest of its name.
    expect((await post(sha, developer, { state: "pending", context: "lint" })).body.name).toBe("lint");
    expect(await commitStatus(sha)).toBe("running");
    const failed = await post(sha, developer, { state: "failed", description: "broke" });
    expect(failed.body).toMatchObject({ status: "failed", description: "broke" });
    expect(failed.body.id).not.toBe(pending.body.id);

    expect((await list(sha)).map((row) => [row.name, row.status])).toEqual([
      ["lint", "pending"],
      ["default", "failed"],
    ]);
    expect((await list(sha, "?all=true")).map((row) => [row.name, row.status])).toEqual([
      ["default", "success"],
      ["lint", "pending"],
      ["default", "failed"],
    ]);
    expect((await list(sha, "?name=lint")).map((row) => row.name)).toEqual(["lint"]);
    expect(await list(sha, "?ref=master")).toEqual([]);
    expect((await post(sha, developer, { state: "success", context: "lint" })).status).toBe(201);
    expect(await commitStatus(sha)).toBe("failed");
  });

  it("refuses reporters, unknown commits and unknown states", async () => {
    expect((await post(master, reporter, { state: "success" })).status).toBe(403);
    const unknown = await post("0123456789abcdef0123456789abcdef01234567", developer, { state: "success" });
    expect([unknown.status, unknown.body.message]).toEqual([404, "404 Commit Not Found"]);
    expect((await post(master, developer, { state: "done" })).status).toBe(400);
    expect(await list(master)).toEqual([]);
  });

  it("merges a merge request set to merge when the build succeeds once the external CI says success", async () => {
    const { root } = served();
    await client.ok(["checkout", "--quiet", "-b", "external", "master"], work);
    const sha = await client.commit(work, "External change", "external.txt");
    const remote = repoUrl(served().server.url, `root/statuses-demo`, {
      username: "root",
      secret: root.token,
    });
    await client.ok(["push", "--quiet", remote, "external"], work);
    expect((await post(sha, developer, { state: "running", ref: "external", name: "jenkins" })).status).toBe(
      201,
    );
    const opened = await openMergeRequest(served(), projectId, developer, {
      source_branch: "external",
      target_branch: "master",
      title: "External",
    });
    const set = await served().api<MergeRequestJson>({
      method: "PUT",
      path: `/projects/${projectId}/merge_requests/${opened.body.id}/merge`,
      token: root.token,
      json: { merge_when_build_succeeds: true },
    });
    expect(set.body).toMatchObject({ state: "opened", merge_when_build_succeeds: true });

    expect((await post(sha, developer, { state: "success", ref: "external", name: "jenkins" })).status).toBe(
      201,
    );
    await eventually(async () => {
      const mr = await served().api<MergeRequestJson>({
        path: `/projects/${projectId}/merge_requests/${opened.body.id}`,
        token: root.token,
      });
      return mr.body.state === "merged";
    }, 20_000);
    const repo = repositoryPath(served().server, projectId);
    expect(headOf(repo, "master")).not.toBe(master);
  });
});
