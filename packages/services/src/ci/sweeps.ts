import type { CiBuild } from "@kiln/storage-kysely";
import type { ServiceRuntime } from "../runtime.js";
import { ciTransaction } from "./changes.js";
import type { BuildStatus } from "./contract.js";
import { buildFilePath, removeFile } from "./files.js";
import { noteInTrace } from "./runs.js";
import { moveBuild, processPipeline } from "./status.js";

// The janitor's sweeps of 8.x's cron workers. Each end is a compare and swap, so that several
// server processes sweeping one PostgreSQL database at once end a build (or remove its artifacts)
// once: the second finds it already moved and does nothing.

/** How many builds one sweep looks at, at most: the next sweep takes the rest. */
const SWEEP_BATCH = 100;

const isoBefore = (at: number, seconds: number): string => new Date(at - seconds * 1000).toISOString();

/**
 * Fails a build still in the status it was seen in, and processes its pipeline (later stages
 * decided, its status updated), with the events of both. True when this call failed it.
 */
async function failBuild(runtime: ServiceRuntime, build: CiBuild): Promise<boolean> {
  return ciTransaction(runtime, async (tx, changes) => {
    const moved = await moveBuild(tx, changes, build, "failed", [build.status as BuildStatus]);
    if (!moved) return false;
    const pipeline = await tx.ciPipelines.find(moved.pipeline_id);
    if (pipeline) await processPipeline(tx, changes, pipeline);
    return true;
  });
}

/**
 * 8.x's `StuckCiBuildsWorker`: fails the pending and running builds not updated for
 * `stuckSeconds` (a runner that died with its build, a build no runner ever took). A running
 * build's runner touches it while it sends its trace. Answers the ids of the builds it failed.
 */
export async function failStuckBuilds(
  runtime: ServiceRuntime,
  stuckSeconds: number,
  at = Date.now(),
): Promise<number[]> {
  const stuck = await runtime.stores.ciBuilds.notUpdatedSince(
    ["pending", "running"],
    isoBefore(at, stuckSeconds),
    SWEEP_BATCH,
  );
  const failed: number[] = [];
  for (const build of stuck) {
    if (!(await failBuild(runtime, build))) continue;
    await noteInTrace(
      runtime,
      build.id,
      `ERROR: Build failed: not updated for ${stuckSeconds} seconds (stuck)`,
    );
    failed.push(build.id);
  }
  return failed;
}

/**
 * Fails the running builds that have run longer than their project's `build_timeout`. The runner
 * learns it at its next trace update (its build token stopped working: 403) and kills the job.
 * Answers the ids of the builds it failed.
 */
export async function failTimedOutBuilds(runtime: ServiceRuntime, at = Date.now()): Promise<number[]> {
  const failed: number[] = [];
  for (const { build, timeoutSeconds } of await runtime.stores.ciBuilds.runningWithTimeout()) {
    const started = Date.parse(build.started_at ?? build.updated_at);
    if (started + timeoutSeconds * 1000 > at) continue;
    if (!(await failBuild(runtime, build))) continue;
    // The runner's own words when it times a build out, which it cannot write once refused.
    await noteInTrace(
      runtime,
      build.id,
      `ERROR: Build failed: execution took longer than ${timeoutSeconds} seconds`,
    );
    failed.push(build.id);
  }
  return failed;
}

/**
 * 8.x's `ExpireBuildArtifactsWorker`: forgets the artifacts whose `expire_in` has passed and
 * removes their files. Answers the ids of the builds whose artifacts it removed.
 */
export async function removeExpiredArtifacts(runtime: ServiceRuntime, at = Date.now()): Promise<number[]> {
  const stamp = new Date(at).toISOString();
  const removed: number[] = [];
  for (const build of await runtime.stores.ciBuilds.artifactsExpiredBefore(stamp, SWEEP_BATCH)) {
    if (!(await runtime.stores.ciBuilds.dropExpiredArtifacts(build.id, stamp))) continue;
    await removeFile(buildFilePath(runtime, build, "artifacts.zip"));
    removed.push(build.id);
  }
  return removed;
}
