import { afterAll, beforeAll, expect, it } from "vitest";
import { runnerCall } from "./ci-support.js";
import { type Life, seededProject, until } from "./crash-support.js";
import { type Receiver, startReceiver } from "./hook-receiver.js";
import { onEachDatabase } from "./support.js";

const CI_FILE = "stages: [test]\nunit:\n  stage: test\n  script: make test\n";

onEachDatabase("build and pipeline webhooks", (ctx) => {
  let receiver: Receiver;
  let life: Life;
  beforeAll(async () => {
    const { server, root } = ctx();
    life = { server, root, api: (request) => ctx().api({ token: root.token, ...request }) };
    receiver = await startReceiver();
    const allowed = await life.api({
      method: "PUT",
      path: "/application/settings",
      json: { allow_local_requests_from_hooks: true },
    });
    expect(allowed.status).toBe(200);
  });
  afterAll(async () => {
    await receiver?.close();
  });

  /** A runner registered for the project, with its token. */
  async function projectRunner(projectId: number): Promise<string> {
    const shown = await life.api<{ runners_token: string }>({ path: `/projects/${projectId}` });
    const registered = await runnerCall<{ token: string }>(life.server, "POST", "/runners/register", {
      token: shown.body.runners_token,
    });
    expect(registered.status).toBe(201);
    return registered.body.token;
  }

  it("delivers a build's start and finish and each pipeline status as 8.x's Build and Pipeline hooks, to hooks subscribed to them only", async () => {
    const { project } = await seededProject(life, "built");
    for (const [path, flags] of [
      ["/built-ci", { push_events: false, build_events: true, pipeline_events: true }],
      ["/built-push", { push_events: true }],
    ] as const) {
      const added = await life.api({
        method: "POST",
        path: `/projects/${project.id}/hooks`,
        json: { url: `${receiver.url}${path}`, ...flags },
      });
      expect(added.status, added.text).toBe(201);
    }
    const runner = await projectRunner(project.id);
    const committed = await life.api({
      method: "POST",
      path: `/projects/${project.id}/repository/files`,
      json: {
        file_path: ".gitlab-ci.yml",
        branch_name: "master",
        content: CI_FILE,
        commit_message: "Add CI",
      },
    });
    expect(committed.status, committed.text).toBe(201);

    let claimed = await runnerCall<{ id: number; token: string; sha: string }>(
      life.server,
      "POST",
      "/builds/register",
      { token: runner },
    );
    while (claimed.status === 204) {
      claimed = await runnerCall(life.server, "POST", "/builds/register", { token: runner });
    }
    expect(claimed.status).toBe(201);
    const build = claimed.body;
    const finished = await runnerCall(life.server, "PUT", `/builds/${build.id}`, {
      token: runner,
      state: "success",
    });
    expect(finished.status).toBe(200);

    const ofEvent = (event: string) =>
      receiver.at("/built-ci").filter((r) => r.headers["x-gitlab-event"] === event);
    const pipelineStatuses = () =>
      ofEvent("Pipeline Hook").map((r) => (r.body.object_attributes as { status: string }).status);
    await until(() => ofEvent("Build Hook").length >= 2 && pipelineStatuses().includes("success"));

    // Build hooks: started and finished, in that order, flat as 8.x's build data.
    const builds = ofEvent("Build Hook").map((r) => r.body);
    expect(builds.map((b) => b.build_status)).toEqual(["running", "success"]);
    expect(Object.keys(builds[1] ?? {})).toEqual([
      "object_kind",
      "ref",
      "tag",
      "before_sha",
      "sha",
      "build_id",
      "build_name",
      "build_stage",
      "build_status",
      "build_started_at",
      "build_finished_at",
      "build_duration",
      "build_allow_failure",
      "project_id",
      "project_name",
      "user",
      "commit",
      "repository",
    ]);
    expect(builds[1]).toMatchObject({
      object_kind: "build",
      ref: "master",
      tag: false,
      sha: build.sha,
      build_id: build.id,
      build_name: "unit",
      build_stage: "test",
      build_allow_failure: false,
      project_id: project.id,
      project_name: "Administrator / built",
      user: { name: "Administrator", email: expect.stringContaining("@") },
      commit: { sha: build.sha, message: "Add CI", author_name: "Administrator" },
      repository: { name: "built", homepage: project.web_url, git_http_url: `${project.web_url}.git` },
    });
    expect(typeof builds[1]?.build_duration).toBe("number");

    // Pipeline hooks: each status the pipeline went through, ending in success.
    expect(pipelineStatuses().at(-1)).toBe("success");
    expect(pipelineStatuses()).toContain("running");
    const done = ofEvent("Pipeline Hook").at(-1)?.body;
    expect(done).toMatchObject({
      object_kind: "pipeline",
      object_attributes: { ref: "master", tag: false, sha: build.sha, status: "success", stages: ["test"] },
      user: { username: "root" },
      project: { path_with_namespace: "root/built", web_url: project.web_url },
      commit: { id: build.sha, message: "Add CI", url: `${project.web_url}/commit/${build.sha}` },
      builds: [
        {
          id: build.id,
          stage: "test",
          name: "unit",
          status: "success",
          when: "on_success",
          manual: false,
          user: { username: "root" },
          runner: { active: true, is_shared: false },
          artifacts_file: { filename: null, size: null },
        },
      ],
    });
    // The pipeline payload's project has no backward-compatible keys.
    expect(done?.project).not.toHaveProperty("homepage");

    // The push-only hook heard the push and nothing of CI.
    await until(() => receiver.at("/built-push").length >= 1);
    expect(receiver.at("/built-push").map((r) => r.headers["x-gitlab-event"])).toEqual(["Push Hook"]);
  });
});
