import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  call,
  createUser,
  type KilnProcess,
  postgresUnavailable,
  signInAsRoot,
  type TestUser,
} from "@kiln/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipartFile, RUNNER_AGENT, runnerCall, zipOf } from "./ci-support.js";
import { type GitClient, gitClient, repoUrl } from "./git-client.js";
import { start } from "./support.js";

const CI_FILE = `
stages: [build, test]
compile:
  stage: build
  script: make
  artifacts:
    paths: [out/]
unit:
  stage: test
  script:
    - make test
`;

interface BuildJson {
  id: number;
  name: string;
  stage: string;
  token: string;
  sha: string;
  ref: string;
  repo_url: string;
  commands: string;
  variables: { key: string; value: string; public: boolean }[];
  depends_on_builds: { id: number; name: string }[];
}

for (const database of ["sqlite", "postgres"] as const) {
  const unavailable = database === "postgres" ? postgresUnavailable() : null;
  describe.skipIf(unavailable !== null)(`the runner API /ci/api/v1 (${database})`, () => {
    let server: KilnProcess;
    let root: TestUser;
    let git: GitClient;
    let projectId: number;
    let runnersToken: string;

    beforeAll(async () => {
      server = await start({ database, env: { KILN_RUNNER_WAIT_SECONDS: "1" } });
      root = await signInAsRoot(server);
      git = gitClient();
      const created = await call<{ id: number; runners_token: string }>(server.url, {
        method: "POST",
        path: "/projects",
        token: root.token,
        json: { name: "app" },
      });
      projectId = created.body.id;
      const shown = await call<{ runners_token: string }>(server.url, {
        path: `/projects/${projectId}`,
        token: root.token,
      });
      runnersToken = shown.body.runners_token;
    });
    afterAll(async () => {
      git?.remove();
      await server?.stop();
    });

    const register = async (): Promise<string> => {
      const res = await runnerCall<{ id: number; token: string }>(server, "POST", "/runners/register", {
        token: runnersToken,
        description: "e2e",
      });
      expect(res.status).toBe(201);
      return res.body.token;
    };
    const requestBuild = (token: string) =>
      runnerCall<BuildJson>(server, "POST", "/builds/register", { token });

    it("registers runners with a project's token and refuses bad tokens and input as 8.x", async () => {
      expect((await runnerCall(server, "POST", "/runners/register", {})).body).toEqual({
        message: '400 (Bad request) "token" not given',
      });
      expect((await runnerCall(server, "POST", "/runners/register", { token: "wrong" })).status).toBe(403);
      const token = await register();
      expect((await requestBuild("wrong")).status).toBe(403);
      // Nothing to build: 204 for a runner, after the bounded wait.
      expect((await requestBuild(token)).status).toBe(204);
      const other = await call(server.url, {
        method: "POST",
        path: `${server.url}/ci/api/v1/builds/register`,
        form: { token },
        headers: { "User-Agent": "curl/8" },
      });
      expect(other.status).toBe(404);
      expect((await runnerCall(server, "PUT", "/builds/abc", { token })).status).toBe(404);
      expect((await runnerCall(server, "PATCH", "/builds/1/trace.txt", {}, {})).status).toBe(400);
      expect((await runnerCall(server, "DELETE", "/runners/delete", { token })).status).toBe(200);
      expect((await requestBuild(token)).status).toBe(403);
    });

    it("runs a pushed .gitlab-ci.yml: builds in stage order, the build token clones, traces and artifacts come back", async () => {
      const token = await register();
      const work = join(git.root, "work");
      await git.ok(["init", "--quiet", "-b", "master", work]);
      writeFileSync(join(work, ".gitlab-ci.yml"), CI_FILE);
      await git.ok(["add", ".gitlab-ci.yml"], work);
      await git.ok(["commit", "--quiet", "-m", "add ci"], work);
      const sha = await git.ok(["rev-parse", "HEAD"], work);
      const remote = repoUrl(server.url, "root/app", { username: "root", secret: root.token });
      await git.ok(["push", "--quiet", remote, "master"], work);

      let first = await requestBuild(token);
      for (let tries = 0; first.status === 204 && tries < 10; tries++) first = await requestBuild(token);
      expect(first.status).toBe(201);
      const build = first.body;
      expect(build).toMatchObject({ name: "compile", stage: "build", sha, ref: "master", commands: "make" });
      expect(build.repo_url).toBe(
        repoUrl(server.url.replace("127.0.0.1", "localhost"), "root/app", {
          username: "gitlab-ci-token",
          secret: build.token,
        }),
      );
      expect(build.variables).toContainEqual({ key: "CI_BUILD_REF", value: sha, public: true });

      // The build token fetches this project while the build runs, and pushes nothing.
      const clone = join(git.root, "clone");
      await git.ok(["clone", "--quiet", build.repo_url, clone]);
      expect(await git.ok(["rev-parse", "HEAD"], clone)).toBe(sha);
      expect((await git.run(["push", build.repo_url, "HEAD:refs/heads/other"], clone)).code).not.toBe(0);

      const patch = (start: number, text: string) =>
        call(server.url, {
          method: "PATCH",
          path: `${server.url}/ci/api/v1/builds/${build.id}/trace.txt`,
          body: text,
          headers: {
            "Content-Type": "text/plain",
            "Content-Range": `${start}-${start + text.length - 1}`,
            "BUILD-TOKEN": build.token,
            "User-Agent": RUNNER_AGENT,
          },
        });
      const appended = await patch(0, "compiling\n");
      expect([appended.status, appended.headers.get("range"), appended.headers.get("build-status")]).toEqual([
        202,
        "0-10",
        "running",
      ]);
      const wrong = await patch(3, "again");
      expect([wrong.status, wrong.headers.get("range")]).toEqual([416, "0-10"]);

      const notZip = multipartFile(Buffer.from("not a zip"));
      const refused = await call(server.url, {
        method: "POST",
        path: `${server.url}/ci/api/v1/builds/${build.id}/artifacts?token=${build.token}`,
        body: notZip.body,
        headers: { "Content-Type": notZip.type },
      });
      expect(refused.status).toBe(400);
      const escaping = multipartFile(zipOf({ "../evil": "x" }));
      const unsafe = await call(server.url, {
        method: "POST",
        path: `${server.url}/ci/api/v1/builds/${build.id}/artifacts?token=${build.token}`,
        body: escaping.body,
        headers: { "Content-Type": escaping.type },
      });
      expect(unsafe.status).toBe(400);
      const archive = zipOf({ "out/app": "binary" });
      const upload = multipartFile(archive);
      const uploaded = await call(server.url, {
        method: "POST",
        path: `${server.url}/ci/api/v1/builds/${build.id}/artifacts?token=${build.token}`,
        body: upload.body,
        headers: { "Content-Type": upload.type },
      });
      expect(uploaded.status).toBe(201);

      expect(
        (await runnerCall(server, "PUT", `/builds/${build.id}`, { token, state: "success" })).status,
      ).toBe(200);
      // Finished: its token no longer appends, nor clones.
      expect((await patch(10, "late")).status).toBe(403);
      expect((await git.run(["clone", "--quiet", build.repo_url, join(git.root, "late")])).code).not.toBe(0);

      const second = await requestBuild(token);
      expect(second.status).toBe(201);
      expect(second.body).toMatchObject({ name: "unit", stage: "test" });
      expect(second.body.depends_on_builds.map((b) => b.name)).toEqual(["compile"]);
      const fetched = await call(server.url, {
        path: `${server.url}/ci/api/v1/builds/${build.id}/artifacts`,
        headers: { "BUILD-TOKEN": second.body.token },
      });
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get("content-type")).toBe("application/zip");
      expect(Buffer.byteLength(fetched.text, "latin1")).toBeGreaterThan(0);
      expect(
        (await runnerCall(server, "PUT", `/builds/${second.body.id}`, { token, state: "failed" })).status,
      ).toBe(200);
      expect((await requestBuild(token)).status).toBe(204);
    });

    // Reads what the previous test ran: compile succeeded with a trace and artifacts, unit failed.
    it("serves that run through the v3 builds and pipelines routes, with their permissions", async () => {
      const api = <T = unknown>(method: string, path: string, extra: Record<string, unknown> = {}) =>
        call<T>(server.url, { method, path, token: root.token, ...extra });
      type Build = {
        id: number;
        name: string;
        status: string;
        runner: { id: number } | null;
        commit: { id: string };
      };
      const listed = await api<Build[]>("GET", `/projects/${projectId}/builds`);
      expect(listed.body.map((b) => [b.name, b.status])).toEqual([
        ["unit", "failed"],
        ["compile", "success"],
      ]);
      const [unit, compile] = listed.body as [Build, Build];
      expect(compile.runner).not.toBeNull();
      const only = await api<Build[]>("GET", `/projects/${projectId}/builds`, {
        query: { scope: "success" },
      });
      expect(only.body.map((b) => b.name)).toEqual(["compile"]);
      const both = await api<Build[]>("GET", `/projects/${projectId}/builds`, {
        query: { scope: ["failed", "success"] },
      });
      expect(both.body).toHaveLength(2);
      expect((await api("GET", `/projects/${projectId}/builds`, { query: { scope: "bogus" } })).body).toEqual(
        {
          message: "Scope contains invalid value(s)",
        },
      );
      const ofCommit = await api<Build[]>(
        "GET",
        `/projects/${projectId}/repository/commits/${compile.commit.id}/builds`,
      );
      expect(ofCommit.body).toHaveLength(2);
      expect(
        (await api("GET", `/projects/${projectId}/repository/commits/${"d".repeat(40)}/builds`)).status,
      ).toBe(404);
      expect((await api("GET", `/projects/${projectId}/builds/${compile.id}`)).body).toMatchObject({
        name: "compile",
      });
      expect((await api("GET", `/projects/${projectId}/builds/999999`)).status).toBe(404);
      expect((await api("GET", `/projects/${projectId}/builds/abc`)).status).toBe(404);
      const trace = await api("GET", `/projects/${projectId}/builds/${compile.id}/trace`);
      expect([trace.status, trace.text, trace.headers.get("content-disposition")]).toEqual([
        200,
        "compiling\n",
        `infile; filename="${compile.id}.log"`,
      ]);
      expect((await api("GET", `/projects/${projectId}/builds/${compile.id}/artifacts`)).status).toBe(200);
      expect((await api("GET", `/projects/${projectId}/builds/${unit.id}/artifacts`)).status).toBe(404);
      const byRef = `/projects/${projectId}/builds/artifacts/master/download`;
      expect((await api("GET", byRef, { query: { job: "compile" } })).status).toBe(200);
      expect((await api("GET", byRef, { query: { job: "unit" } })).status).toBe(404);

      type Pipeline = { id: number; status: string; sha: string };
      const pipelines = await api<Pipeline[]>("GET", `/projects/${projectId}/pipelines`);
      expect(pipelines.body.map((p) => p.status)).toEqual(["failed"]);
      const pipelineId = pipelines.body[0]?.id;
      expect((await api("GET", `/projects/${projectId}/pipelines/${pipelineId}`)).body).toMatchObject({
        status: "failed",
      });

      const retried = await api<Build>("POST", `/projects/${projectId}/builds/${unit.id}/retry`);
      expect(retried.status).toBe(201);
      expect(retried.body).toMatchObject({ name: "unit", status: "pending" });
      expect(retried.body.id).not.toBe(unit.id);
      expect((await api("POST", `/projects/${projectId}/builds/${compile.id}/retry`)).status).toBe(201);
      expect((await api<Pipeline>("GET", `/projects/${projectId}/pipelines/${pipelineId}`)).body.status).toBe(
        "pending",
      );
      const canceled = await api<Pipeline>("POST", `/projects/${projectId}/pipelines/${pipelineId}/cancel`);
      expect([canceled.status, canceled.body.status]).toEqual([200, "canceled"]);
      expect((await api("POST", `/projects/${projectId}/builds/${unit.id}/retry`)).body).toEqual({
        message: "403 Forbidden  - Build is not retryable",
      });
      const erased = await api<Record<string, unknown>>(
        "POST",
        `/projects/${projectId}/builds/${compile.id}/erase`,
      );
      expect([erased.status, erased.body["download_url"]]).toEqual([201, null]);
      expect((await api("GET", `/projects/${projectId}/builds/${compile.id}/trace`)).text).toBe("");
      expect((await api("POST", `/projects/${projectId}/builds/${compile.id}/erase`)).status).toBe(403);

      const made = await api<Pipeline>("POST", `/projects/${projectId}/pipeline`, {
        json: { ref: "master" },
      });
      expect([made.status, made.body.status]).toEqual([201, "pending"]);
      expect((await api("POST", `/projects/${projectId}/pipeline`, { json: { ref: "nope" } })).body).toEqual({
        message: { base: ["Reference not found"] },
      });

      const outsider = await createUser(server, root, "ci-outsider");
      const hidden = await call(server.url, { path: `/projects/${projectId}/builds`, token: outsider.token });
      expect(hidden.status).toBe(404);
    });

    it("never gives one build to two runners asking at once", async () => {
      const runners = await Promise.all(Array.from({ length: 4 }, () => register()));
      const work = join(git.root, "work");
      const jobs = Array.from({ length: 6 }, (_, n) => `job${n}:\n  script: echo ${n}\n`).join("");
      await git.ok(["checkout", "--quiet", "-b", "wide"], work);
      writeFileSync(join(work, ".gitlab-ci.yml"), jobs);
      await git.ok(["commit", "--quiet", "-am", "wide"], work);
      await git.ok(
        [
          "push",
          "--quiet",
          repoUrl(server.url, "root/app", { username: "root", secret: root.token }),
          "wide",
        ],
        work,
      );
      const claimed: number[] = [];
      for (let round = 0; round < 5 && claimed.length < 6; round++) {
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, n) => requestBuild(runners[n % runners.length] as string)),
        );
        for (const answer of answers) if (answer.status === 201) claimed.push(answer.body.id);
      }
      expect(claimed.length).toBeGreaterThanOrEqual(6);
      expect(new Set(claimed).size).toBe(claimed.length);
    });
  });
}
