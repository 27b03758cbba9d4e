import type { CiBuild, CiBuildPatch, CiPipeline, Stores } from "@kiln/storage-kysely";
import type { CiChanges } from "./changes.js";
import {
  type BuildStatus,
  buildsToProcess,
  FINISHED_BUILD_STATUSES,
  type JobWhen,
  type PipelineStatus,
  pipelineStatusOf,
} from "./contract.js";

/** The statuses a build leaves only by being retried. */
export const isFinished = (status: string): boolean =>
  (FINISHED_BUILD_STATUSES as readonly string[]).includes(status);

/** The latest build of each name in a pipeline (retried ones hidden), as 8.x's `latest`. */
export const latestBuilds = (builds: readonly CiBuild[]): CiBuild[] =>
  builds.filter((build) => !build.retried);

/**
 * Moves a build to `to` in the transaction `tx`, if it is still in one of `from` (a compare and
 * swap), with the times 8.x sets on the way, and records the build event. Answers the build as
 * it is now, or undefined when another writer moved it first.
 */
export async function moveBuild(
  tx: Stores,
  changes: CiChanges,
  build: Pick<CiBuild, "id" | "project_id" | "pipeline_id" | "user_id" | "started_at">,
  to: BuildStatus,
  from: readonly BuildStatus[],
  extra: CiBuildPatch = {},
): Promise<CiBuild | undefined> {
  const stamp = new Date().toISOString();
  const patch: CiBuildPatch = { status: to, ...extra };
  if (to === "pending") patch.queued_at = stamp;
  if (isFinished(to)) {
    patch.finished_at = stamp;
    // A finished build's token stops working.
    patch.token_digest = null;
  }
  const moved = await tx.ciBuilds.update(build.id, patch, from);
  if (moved) {
    await changes.record(tx, {
      kind: "build",
      projectId: moved.project_id,
      pipelineId: moved.pipeline_id,
      buildId: moved.id,
      status: to,
      userId: moved.user_id,
    });
  }
  return moved;
}

/**
 * 8.x's ProcessPipelineService and `update_status`, in `tx`: moves the `created` builds whose
 * earlier stages finished (pending, skipped or manual per their `when`), then sets the pipeline's
 * status from its latest builds, with `started_at`, `finished_at` and `duration`, recording the
 * events of every change.
 */
export async function processPipeline(
  tx: Stores,
  changes: CiChanges,
  pipeline: CiPipeline,
): Promise<CiPipeline> {
  let builds = latestBuilds(await tx.ciBuilds.ofPipeline(pipeline.id));
  const moves = buildsToProcess(
    builds.map((build) => ({
      id: build.id,
      stageIndex: build.stage_idx,
      status: build.status as BuildStatus,
      when: build.when as JobWhen,
      allowFailure: build.allow_failure,
    })),
  );
  for (const move of moves) {
    const build = builds.find((candidate) => candidate.id === move.id);
    if (build) await moveBuild(tx, changes, build, move.status, ["created"]);
  }
  if (moves.length > 0) builds = latestBuilds(await tx.ciBuilds.ofPipeline(pipeline.id));
  const status =
    pipeline.yaml_errors !== null
      ? "failed"
      : pipelineStatusOf(
          builds.map((build) => ({ status: build.status as BuildStatus, allowFailure: build.allow_failure })),
        );
  return setPipelineStatus(tx, changes, pipeline, status);
}

/** Sets a pipeline's status with 8.x's times, recording the event; nothing when it is unchanged. */
async function setPipelineStatus(
  tx: Stores,
  changes: CiChanges,
  pipeline: CiPipeline,
  status: PipelineStatus,
): Promise<CiPipeline> {
  if (pipeline.status === status) return pipeline;
  const stamp = new Date().toISOString();
  const started_at = pipeline.started_at ?? (status === "running" ? stamp : null);
  const finished = isFinished(status);
  const finished_at = finished ? stamp : null;
  const duration =
    finished && started_at !== null
      ? Math.round((Date.parse(stamp) - Date.parse(started_at)) / 1000)
      : pipeline.duration;
  const updated = await tx.ciPipelines.update(pipeline.id, { status, started_at, finished_at, duration });
  await changes.record(tx, {
    kind: "pipeline",
    projectId: pipeline.project_id,
    pipelineId: pipeline.id,
    status,
    userId: pipeline.user_id,
  });
  return updated ?? pipeline;
}
