import { pipelineStatusOf } from "./pipeline-status.js";
import { type BuildStatus, isFinishedBuildStatus, type JobWhen } from "./statuses.js";

/** A build of a pipeline as stage processing sees it (the latest build of each name). */
export interface BuildToProcess {
  id: number;
  stageIndex: number;
  status: BuildStatus;
  when: JobWhen;
  allowFailure: boolean;
}

/** A build that moves out of `created`, and where to. */
export interface ProcessedBuild {
  id: number;
  status: "pending" | "skipped" | "manual";
}

/**
 * The statuses of the earlier stages under which a build with each `when` runs (8.x's
 * `ProcessPipelineService#valid_statuses_for_when`): skipped counts as success, because a stage
 * with nothing to run (or only skipped and manual builds) must not block the ones after it.
 */
const RUNS_AFTER: Readonly<Record<Exclude<JobWhen, "manual">, readonly BuildStatus[]>> = {
  on_success: ["success", "skipped"],
  on_failure: ["failed"],
  always: ["success", "failed", "skipped"],
};

/**
 * 8.x's `ProcessPipelineService`: the builds still in `created` that now move, and where to.
 * Stages are decided in order, each once every earlier stage has finished (their status, by
 * {@link pipelineStatusOf}, is success, failed, canceled or skipped): a build runs (`pending`) if
 * its `when` accepts that status and is `skipped` otherwise; a `manual` build waits for a play
 * (`manual`). Decisions made for one stage count for the next in the same call, as 8.x's
 * sequential updates do, so a stage of skipped builds lets the next one start at once.
 */
export function buildsToProcess(builds: readonly BuildToProcess[]): ProcessedBuild[] {
  const current = builds.map((build) => ({ ...build }));
  const stageIndexes = [
    ...new Set(current.filter((build) => build.status === "created").map((build) => build.stageIndex)),
  ].sort((a, b) => a - b);
  const moved: ProcessedBuild[] = [];
  for (const stageIndex of stageIndexes) {
    const prior = pipelineStatusOf(current.filter((build) => build.stageIndex < stageIndex));
    if (!isFinishedBuildStatus(prior)) continue;
    for (const build of current) {
      if (build.stageIndex !== stageIndex || build.status !== "created") continue;
      const next = decide(build.when, prior);
      build.status = next;
      moved.push({ id: build.id, status: next });
    }
  }
  return moved;
}

function decide(when: JobWhen, prior: BuildStatus): ProcessedBuild["status"] {
  if (when === "manual") return "manual";
  return RUNS_AFTER[when].includes(prior) ? "pending" : "skipped";
}
