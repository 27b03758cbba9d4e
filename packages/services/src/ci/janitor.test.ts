import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, statSync } from "node:fs";
import { join } from "node:path";
import { UploadedFile } from "@kiln/schemas";
import { describe, expect, it } from "vitest";
import { pushCiFile } from "../__tests__/ci.js";
import { onDisk, scratchDataDirs, seededProject } from "../__tests__/disk.js";
import { forEachDialect } from "../__tests__/harness.js";
import type { DomainEvent } from "../domain-events.js";
import { keepArtifacts } from "./actions.js";
import { storeArtifacts } from "./artifacts.js";
import { requestBuild } from "./claim.js";
import { buildFilePath } from "./files.js";
import { CiJanitor } from "./janitor.js";
import { registerRunner, registrationToken } from "./runners.js";
import { appendTrace, readTrace } from "./runs.js";

const ONE_JOB = "slow:\n  script: sleep 600\n";
const TWO_STAGES = "compile:\n  stage: build\n  script: make\nship:\n  stage: deploy\n  script: make ship\n";

const failedBuildEvents = (events: DomainEvent[], buildId: number) =>
  events.filter((e) => e.kind === "build" && e.buildId === buildId && e.status === "failed");

/** A zip holding one small file, as a runner uploads it, in a temp dir of `dataDir`. */
function artifactsZip(dataDir: string) {
  const dir = mkdtempSync(join(dataDir, "upload-"));
  const path = join(dir, "a.zip");
  const script =
    "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z: z.writestr('out.txt', 'hi')";
  execFileSync("python3", ["-c", script, path]);
  return new UploadedFile({
    tempPath: path,
    filename: "artifacts.zip",
    size: statSync(path).size,
    mimeType: "application/zip",
  });
}

describe("the CI janitor", () => {
  const dataDir = scratchDataDirs("kiln-ci-janitor");
  forEachDialect((h) => {
    /** A project whose pipeline of `file` was made, and a shared runner that may take its builds. */
    async function withPipeline(file: string) {
      const seeded = await seededProject(h(), dataDir());
      await pushCiFile(seeded, seeded.project.id, file);
      const { token } = await registerRunner(seeded.runtime, {
        token: await registrationToken(seeded.runtime),
      });
      const [pipeline] = (
        await seeded.runtime.stores.ciPipelines.list(seeded.project.id, null, { page: 1, perPage: 1 })
      ).items;
      if (!pipeline) throw new Error("no pipeline");
      return { ...seeded, runnerToken: token, pipeline };
    }

    it("fails a build running past its project's build_timeout, with its pipeline, and stops its runner", async () => {
      const seeded = await withPipeline(TWO_STAGES);
      const { runtime, project, pipeline } = seeded;
      const claimed = await requestBuild(runtime, seeded.runnerToken, { waitMs: 0 });
      if (!claimed) throw new Error("no build claimed");
      expect(claimed.timeout).toBe(3600);
      await seeded.as(seeded.owner).projects.update({ id: project.id, build_timeout: 60 });
      const janitor = new CiJanitor(runtime);
      const started = Date.parse(claimed.build.started_at ?? "");
      expect((await janitor.sweep(started + 59_000)).timedOut).toEqual([]);
      expect((await runtime.stores.ciBuilds.find(claimed.build.id))?.status).toBe("running");

      await appendTrace(runtime, claimed.build.id, claimed.token, 0, Buffer.from("compiling"));
      expect((await janitor.sweep(started + 61_000)).timedOut).toEqual([claimed.build.id]);
      const failed = await runtime.stores.ciBuilds.find(claimed.build.id);
      expect(failed).toMatchObject({ status: "failed", token_digest: null });
      expect((await readTrace(runtime, failed ?? claimed.build)).toString()).toBe(
        "compiling\nERROR: Build failed: execution took longer than 60 seconds\n",
      );
      const builds = await runtime.stores.ciBuilds.ofPipeline(pipeline.id);
      expect(builds.map((b) => [b.name, b.status])).toEqual([
        ["compile", "failed"],
        ["ship", "skipped"],
      ]);
      expect((await runtime.stores.ciPipelines.find(pipeline.id))?.status).toBe("failed");
      expect(failedBuildEvents(seeded.events, claimed.build.id)).toHaveLength(1);
      // The runner's next trace update is refused: it kills the job.
      await expect(
        appendTrace(runtime, claimed.build.id, claimed.token, 0, Buffer.alloc(0)),
      ).rejects.toMatchObject({ kind: "forbidden" });
    });

    it("fails a stuck build once, even with two sweepers at once", async () => {
      const seeded = await withPipeline(ONE_JOB);
      const { runtime, pipeline } = seeded;
      const [build] = await runtime.stores.ciBuilds.ofPipeline(pipeline.id);
      if (!build) throw new Error("no build");
      expect(build.status).toBe("pending");
      const other = onDisk(h(), dataDir());
      const sweepers = [
        new CiJanitor(runtime, { stuckSeconds: 60 }),
        new CiJanitor(other.runtime, { stuckSeconds: 60 }),
      ];
      const updated = Date.parse(build.updated_at);

      const early = await Promise.all(sweepers.map((s) => s.sweep(updated + 59_000)));
      expect(early.flatMap((s) => s.stuck)).toEqual([]);
      const late = await Promise.all(sweepers.map((s) => s.sweep(updated + 61_000)));
      expect(late.flatMap((s) => s.stuck)).toEqual([build.id]);
      const failed = await runtime.stores.ciBuilds.find(build.id);
      expect(failed?.status).toBe("failed");
      expect((await readTrace(runtime, failed ?? build)).toString()).toBe(
        "ERROR: Build failed: not updated for 60 seconds (stuck)\n",
      );
      expect((await runtime.stores.ciPipelines.find(pipeline.id))?.status).toBe("failed");
      expect(failedBuildEvents([...seeded.events, ...other.events], build.id)).toHaveLength(1);
    });

    it("keeps a running build whose idle runner still asks, and fails one whose runner went quiet", async () => {
      const seeded = await withPipeline(ONE_JOB);
      const { runtime } = seeded;
      const claimed = await requestBuild(runtime, seeded.runnerToken, { waitMs: 0 });
      if (!claimed) throw new Error("no build claimed");
      // An idle job's empty trace update, once the build looks old, marks it alive.
      const stale = new Date(Date.now() - 3_600_000).toISOString();
      const setUpdatedAt = (at: string) =>
        runtime.stores.db
          .updateTable("ci_builds")
          .set({ updated_at: at })
          .where("id", "=", claimed.build.id)
          .execute();
      const janitor = new CiJanitor(runtime, { stuckSeconds: 1800 });
      await setUpdatedAt(stale);
      await appendTrace(runtime, claimed.build.id, claimed.token, 0, Buffer.alloc(0));
      expect((await janitor.sweep()).stuck).toEqual([]);

      await setUpdatedAt(stale);
      expect((await janitor.sweep()).stuck).toEqual([claimed.build.id]);
      expect((await runtime.stores.ciBuilds.find(claimed.build.id))?.status).toBe("failed");
    });

    it("removes expired artifacts from disk, and answers 404 for them; kept ones stay", async () => {
      const seeded = await withPipeline("a:\n  script: make\nb:\n  script: make\n");
      const { runtime, project } = seeded;
      const stored = [];
      for (const expireIn of ["1 hour", "1 hour"]) {
        const claimed = await requestBuild(runtime, seeded.runnerToken, { waitMs: 0 });
        if (!claimed) throw new Error("no build claimed");
        const upload = artifactsZip(dataDir());
        stored.push(await storeArtifacts(runtime, claimed.build.id, claimed.token, upload, expireIn));
      }
      const [expiring, kept] = stored;
      if (!expiring || !kept) throw new Error("no artifacts");
      expect(Date.parse(expiring.artifacts_expire_at ?? "")).toBeGreaterThan(Date.now() + 3_500_000);
      await keepArtifacts(runtime, kept);
      const janitor = new CiJanitor(runtime);
      const file = buildFilePath(runtime, expiring, "artifacts.zip");
      expect(existsSync(file)).toBe(true);

      expect((await janitor.sweep(Date.now() + 3_700_000)).artifactsExpired).toEqual([expiring.id]);
      expect(existsSync(file)).toBe(false);
      expect(await runtime.stores.ciBuilds.find(expiring.id)).toMatchObject({
        artifacts_file: null,
        artifacts_size: null,
        artifacts_expire_at: null,
      });
      const owner = seeded.as(seeded.owner);
      await expect(owner.builds.artifacts({ id: project.id, build_id: expiring.id })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
      expect(existsSync(buildFilePath(runtime, kept, "artifacts.zip"))).toBe(true);
      await expect(owner.builds.artifacts({ id: project.id, build_id: kept.id })).resolves.toMatchObject({
        filename: "artifacts.zip",
      });
    });
  });
});
