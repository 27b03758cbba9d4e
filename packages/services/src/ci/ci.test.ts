import { describe, expect, it } from "vitest";
import { pushCiFile } from "../__tests__/ci.js";
import { type OnDisk, scratchDataDirs, seededProject } from "../__tests__/disk.js";
import { forEachDialect } from "../__tests__/harness.js";
import { requestBuild } from "./claim.js";
import { ciPipelines } from "./push.js";
import { registerRunner, registrationToken } from "./runners.js";
import { appendTrace, readTrace, reportBuild } from "./runs.js";

const TWO_STAGES = `
variables:
  FROM_FILE: "yes"
compile:
  stage: build
  script: make
unit:
  script: make test
lint:
  script: make lint
ship:
  stage: deploy
  script: make ship
  when: on_failure
`;

describe("CI pipelines and builds", () => {
  const dataDir = scratchDataDirs("kiln-ci");
  forEachDialect((h) => {
    const setup = () => seededProject(h(), dataDir());

    it("makes a pipeline from a push, runs its stages in order on a runner, and ends it", async () => {
      const seeded = await setup();
      const { runtime, project } = seeded;
      const push = await pushCiFile(seeded, project.id, TWO_STAGES);
      // At least once: the same event handled again makes no second pipeline.
      await ciPipelines(runtime).handle(push, 0);
      const pipelines = await runtime.stores.ciPipelines.list(project.id, null, { page: 1, perPage: 10 });
      expect(pipelines.items).toHaveLength(1);
      const pipeline = pipelines.items[0];
      expect(pipeline).toMatchObject({
        ref: "master",
        sha: push.after,
        status: "pending",
        user_id: seeded.owner.id,
      });
      const builds = await runtime.stores.ciBuilds.ofPipeline(pipeline?.id ?? 0);
      expect(builds.map((b) => [b.name, b.status])).toEqual([
        ["compile", "pending"],
        ["unit", "created"],
        ["lint", "created"],
        ["ship", "created"],
      ]);

      await runtime.stores.ciVariables.create(project.id, "SECRET", runtime.secrets.seal("s3cret"));
      const { token } = await registerRunner(runtime, { token: await sharedToken(seeded) });
      const first = await requestBuild(runtime, token, { waitMs: 0 });
      expect(first?.variables).toContainEqual({ key: "SECRET", value: "s3cret", public: false });
      expect(first?.build).toMatchObject({ name: "compile", status: "running" });
      expect(first?.variables).toContainEqual({ key: "CI_BUILD_TOKEN", value: first?.token, public: false });
      expect(first?.variables).toContainEqual({ key: "FROM_FILE", value: "yes", public: true });
      expect((await runtime.stores.ciPipelines.find(pipeline?.id ?? 0))?.status).toBe("running");
      expect(await requestBuild(runtime, token, { waitMs: 0 })).toBeNull();

      const appended = await appendTrace(
        runtime,
        first?.build.id ?? 0,
        first?.token,
        0,
        Buffer.from("hello "),
      );
      expect(appended).toEqual({ appended: true, size: 6, status: "running" });
      expect(
        await appendTrace(runtime, first?.build.id ?? 0, first?.token, 3, Buffer.from("x")),
      ).toMatchObject({
        appended: false,
        size: 6,
      });
      await appendTrace(runtime, first?.build.id ?? 0, first?.token, 6, Buffer.from("world"));
      await reportBuild(runtime, token, first?.build.id ?? 0, { state: "success" });
      const done = await runtime.stores.ciBuilds.find(first?.build.id ?? 0);
      expect(done).toMatchObject({ status: "success", token_digest: null });
      expect((await readTrace(runtime, done ?? first!.build)).toString()).toBe("hello world");
      // The finished build's token no longer appends.
      await expect(
        appendTrace(runtime, done?.id ?? 0, first?.token, 11, Buffer.from("!")),
      ).rejects.toMatchObject({
        kind: "forbidden",
      });

      const second = await requestBuild(runtime, token, { waitMs: 0 });
      const third = await requestBuild(runtime, token, { waitMs: 0 });
      expect([second?.build.name, third?.build.name]).toEqual(["unit", "lint"]);
      expect(second?.dependsOn.map((b) => b.name)).toEqual(["compile"]);
      await reportBuild(runtime, token, second?.build.id ?? 0, { state: "success" });
      await reportBuild(runtime, token, third?.build.id ?? 0, { state: "success", trace: "linted" });
      const final = await runtime.stores.ciBuilds.ofPipeline(pipeline?.id ?? 0);
      expect(final.map((b) => b.status)).toEqual(["success", "success", "success", "skipped"]);
      const ended = await runtime.stores.ciPipelines.find(pipeline?.id ?? 0);
      expect(ended).toMatchObject({ status: "success" });
      expect(ended?.finished_at).not.toBeNull();
      const kinds = seeded.events
        .filter((e) => e.kind === "pipeline")
        .map((e) => (e as { status: string }).status);
      expect(kinds).toEqual(["pending", "running", "success"]);
    });

    it("fails the pipeline of an invalid file, skips [ci skip], and makes none for a deletion or no file", async () => {
      const seeded = await setup();
      const { runtime, project } = seeded;
      await pushCiFile(seeded, project.id, "test:\n  script: 1\n");
      await pushCiFile(seeded, project.id, TWO_STAGES, "wip [CI SKIP]");
      const listed = await runtime.stores.ciPipelines.list(project.id, null, { page: 1, perPage: 10 });
      expect(listed.items.map((p) => [p.status, p.yaml_errors])).toEqual([
        ["skipped", null],
        ["failed", "yaml invalid: jobs:test:script config should be a string or an array of strings"],
      ]);
      const handler = ciPipelines(runtime);
      const base = {
        kind: "push" as const,
        projectId: project.id,
        userId: seeded.owner.id,
        commits: [],
        totalCommits: 0,
      };
      await handler.handle(
        { ...base, ref: "refs/heads/gone", before: seeded.commit, after: "0".repeat(40) },
        0,
      );
      await handler.handle(
        { ...base, ref: "refs/heads/old", before: "0".repeat(40), after: seeded.commit },
        0,
      );
      expect(
        (await runtime.stores.ciPipelines.list(project.id, null, { page: 1, perPage: 10 })).items,
      ).toHaveLength(2);
    });

    it("wakes a runner waiting for a build as soon as one is pending", async () => {
      const seeded = await setup();
      const { runtime, project } = seeded;
      const { token } = await registerRunner(runtime, { token: await sharedToken(seeded) });
      const waiting = requestBuild(runtime, token, { waitMs: 30_000, pollMs: 30_000 });
      await pushCiFile(seeded, project.id, "only:\n  script: echo\n");
      expect((await waiting)?.build.name).toBe("only");
    });

    it("refuses unknown registration and runner tokens, and a runner that may run nothing", async () => {
      const seeded = await setup();
      const { runtime } = seeded;
      await expect(registerRunner(runtime, { token: "wrong" })).rejects.toMatchObject({ kind: "forbidden" });
      await expect(
        registerRunner(runtime, { token: await sharedToken(seeded), runUntagged: false }),
      ).rejects.toMatchObject({ kind: "not_found" });
      await expect(requestBuild(runtime, "nope", { waitMs: 0 })).rejects.toMatchObject({ kind: "forbidden" });
    });
  });
});

const sharedToken = (seeded: { runtime: OnDisk["runtime"] }): Promise<string> =>
  registrationToken(seeded.runtime);
