import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MergeRequestJson } from "@kiln/schemas";
import { createUser, git, repositoryPath, type TestUser } from "@kiln/testkit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type GitClient, gitClient, repoUrl } from "./git-client.js";
import { eventually, headOf, openMergeRequest } from "./merge-requests-support.js";
import { onEachDatabase, runKiln } from "./support.js";

/** One job, which passes when `verdict.txt` says `pass`; branches only, so merges into master build nothing. */
const PIPELINE = `verdict:
  script:
    - test "$(cat verdict.txt)" = pass
  except:
    - master
`;

interface PipelineRow {
  id: number;
  sha: string;
  ref: string;
  status: string;
}

interface TodoRow {
  action_name: string;
  target_type: string;
  target: { id: number };
  state: string;
}

onEachDatabase("merge when the build succeeds, with a real kiln runner", (served) => {
  let client: GitClient;
  let buildsDir: string;
  let work: string;
  let remote: string;
  let projectId: number;
  let repo: string;
  let developer: TestUser;
  let registrationToken: string;

  beforeAll(async () => {
    const { server, root, api } = served();
    client = gitClient();
    buildsDir = mkdtempSync(join(tmpdir(), "kiln-mwbs-builds-"));
    const project = await api<{ id: number; path_with_namespace: string }>({
      method: "POST",
      path: "/projects",
      token: root.token,
      json: { name: "mwbs-demo" },
    });
    expect(project.status).toBe(201);
    projectId = project.body.id;
    repo = repositoryPath(server, projectId);
    developer = await createUser(server, root, "mwbs-developer");
    const member = await api({
      method: "POST",
      path: `/projects/${projectId}/members`,
      token: root.token,
      json: { user_id: developer.id, access_level: 30 },
    });
    expect(member.status).toBe(201);
    const token = await runKiln(["runner", "token"], server.kilnEnv);
    expect(token).toMatchObject({ code: 0 });
    registrationToken = token.stdout.trim();

    // master holds the pipeline (which builds no branch but master) and a passing verdict.
    work = join(client.root, "work");
    await client.ok(["init", "--quiet", "-b", "master", work]);
    remote = repoUrl(server.url, project.body.path_with_namespace, {
      username: developer.username,
      secret: developer.token,
    });
    writeFileSync(join(work, ".gitlab-ci.yml"), PIPELINE);
    writeFileSync(join(work, "verdict.txt"), "pass\n");
    await client.ok(["add", "."], work);
    await client.ok(["commit", "--quiet", "-m", "Initial"], work);
    const rootRemote = repoUrl(server.url, project.body.path_with_namespace, {
      username: "root",
      secret: root.token,
    });
    await client.ok(["push", "--quiet", rootRemote, "master"], work);
  });
  afterAll(() => {
    client.remove();
    rmSync(buildsDir, { recursive: true, force: true });
  });

  /** Commits a verdict on `branch` (made from master when new) and pushes it; answers the commit. */
  async function pushVerdict(branch: string, verdict: "pass" | "fail", note: string): Promise<string> {
    const exists = await client.run(["rev-parse", "--verify", "--quiet", branch], work);
    await client.ok(
      exists.code === 0 ? ["checkout", "--quiet", branch] : ["checkout", "--quiet", "-b", branch, "master"],
      work,
    );
    writeFileSync(join(work, "verdict.txt"), `${verdict}\n`);
    writeFileSync(join(work, `${branch}.txt`), `${note}\n`);
    await client.ok(["add", "."], work);
    await client.ok(["commit", "--quiet", "-m", note], work);
    await client.ok(["push", "--quiet", remote, branch], work);
    return client.ok(["rev-parse", "HEAD"], work);
  }

  /** The pipeline of `sha`, once the server made it. */
  async function pipelineOf(sha: string): Promise<PipelineRow> {
    let found: PipelineRow | undefined;
    await eventually(async () => {
      const list = await served().api<PipelineRow[]>({
        path: `/projects/${projectId}/pipelines`,
        token: served().root.token,
      });
      found = list.body.find((pipeline) => pipeline.sha === sha);
      return found !== undefined;
    }, 20_000);
    return found as PipelineRow;
  }

  /** Runs one build with a `kiln runner --once` process (registered on first use). */
  async function runOneBuild(): Promise<void> {
    const { server } = served();
    const ran = await runKiln(
      [
        "runner",
        "--url",
        server.url,
        "--registration-token",
        registrationToken,
        "--builds-dir",
        buildsDir,
        "--once",
      ],
      { HOME: buildsDir, LOG_LEVEL: "info" },
    );
    expect(ran.code, ran.stderr).toBe(0);
  }

  const getMergeRequest = async (id: number) =>
    (
      await served().api<MergeRequestJson>({
        path: `/projects/${projectId}/merge_requests/${id}`,
        token: served().root.token,
      })
    ).body;

  /** Opens a merge request of `branch` as the developer and sets it, as root, to merge when the build succeeds. */
  async function openAndSetToMerge(branch: string, message: string): Promise<MergeRequestJson> {
    const opened = await openMergeRequest(served(), projectId, developer, {
      source_branch: branch,
      target_branch: "master",
      title: `Merge ${branch}`,
    });
    expect(opened.status).toBe(200);
    const set = await served().api<MergeRequestJson>({
      method: "PUT",
      path: `/projects/${projectId}/merge_requests/${opened.body.id}/merge`,
      token: served().root.token,
      json: { merge_when_build_succeeds: true, merge_commit_message: message },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ state: "opened", merge_when_build_succeeds: true });
    return set.body;
  }

  /** The parents of a commit in the server's repository. */
  const parentsOf = (sha: string) =>
    git(["rev-list", "--parents", "-n", "1", sha], repo).trim().split(" ").slice(1);

  it("merges, as the user who asked and with their message, once the pipeline of the head succeeds", async () => {
    const sha = await pushVerdict("green", "pass", "A passing change");
    expect((await pipelineOf(sha)).status).toBe("pending");
    const before = headOf(repo, "master");
    const mr = await openAndSetToMerge("green", "Merged by the build");

    await runOneBuild();
    await eventually(async () => (await getMergeRequest(mr.id)).state === "merged", 20_000);
    const merged = await getMergeRequest(mr.id);
    const head = headOf(repo, "master") as string;
    expect(merged.merge_commit_sha).toBe(head);
    expect(parentsOf(head)).toEqual([before, sha]);
    expect(git(["log", "-1", "--format=%s%n%an", head], repo).trim()).toBe(
      "Merged by the build\nAdministrator",
    );
  });

  it("does not merge when the pipeline fails, and gives the author a build_failed todo", async () => {
    const sha = await pushVerdict("red", "fail", "A failing change");
    await pipelineOf(sha);
    const before = headOf(repo, "master");
    const mr = await openAndSetToMerge("red", "Never");

    await runOneBuild();
    // The todo comes from the same handling of the pipeline's end as a merge would.
    await eventually(async () => {
      const todos = await served().api<TodoRow[]>({ path: "/todos", token: developer.token });
      return todos.body.some((todo) => todo.action_name === "build_failed" && todo.target.id === mr.id);
    }, 20_000);
    expect((await pipelineOf(sha)).status).toBe("failed");
    expect(await getMergeRequest(mr.id)).toMatchObject({ state: "opened", merge_when_build_succeeds: true });
    expect(headOf(repo, "master")).toBe(before);
  });

  it("waits for the pipeline of the newest push to the source branch", async () => {
    const first = await pushVerdict("moving", "pass", "First version");
    await pipelineOf(first);
    const mr = await openAndSetToMerge("moving", "Merged after the second push");
    const second = await pushVerdict("moving", "pass", "Second version");
    await pipelineOf(second);

    // The older pipeline is built first: its success is no longer the head's, so nothing merges.
    await runOneBuild();
    await eventually(async () => (await pipelineOf(first)).status === "success", 20_000);
    await runOneBuild();
    await eventually(async () => (await getMergeRequest(mr.id)).state === "merged", 20_000);
    const head = headOf(repo, "master") as string;
    expect(parentsOf(head)[1]).toBe(second);
  });
});
