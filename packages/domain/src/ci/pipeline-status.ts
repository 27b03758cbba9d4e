import type { BuildStatus, PipelineStatus } from "./statuses.js";

/** A build as the status of its pipeline sees it. */
export interface StatusOfBuild {
  status: BuildStatus;
  allowFailure: boolean;
}

/**
 * The status of a pipeline (or of a commit) from its latest builds, by 8.x's formula
 * (`HasStatus.status_sql`, gitlab-8x.md §7.4). Builds that may fail and failed or were canceled do
 * not count; a manual build counts as skipped (8.x kept it in `skipped` until played), so the
 * answer is never `manual`. In order: no builds or all skipped → skipped; all success → success;
 * all created → created; success and skipped → success; success, skipped and canceled → canceled;
 * created, skipped and pending → pending; any created, pending or running → running; else failed.
 */
export function pipelineStatusOf(builds: readonly StatusOfBuild[]): PipelineStatus {
  const counted = builds
    .filter((build) => !(build.allowFailure && (build.status === "failed" || build.status === "canceled")))
    .map((build) => (build.status === "manual" ? "skipped" : build.status));
  const count = (...statuses: BuildStatus[]) => counted.filter((status) => statuses.includes(status)).length;
  const all = counted.length;
  if (all === count("skipped")) return "skipped";
  if (all === count("success")) return "success";
  if (all === count("created")) return "created";
  if (all === count("success", "skipped")) return "success";
  if (all === count("success", "skipped", "canceled")) return "canceled";
  if (all === count("created", "skipped", "pending")) return "pending";
  if (count("running", "pending", "created") > 0) return "running";
  return "failed";
}
