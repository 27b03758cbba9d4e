import { type StateMachine, transition } from "../state-machine.js";

/**
 * The statuses of a build as GitLab 8.x reports them, plus `manual`: a `when: manual` build waiting
 * for a user to play it (8.x kept it in `skipped` and called it playable; Kiln names the wait).
 */
export const BUILD_STATUSES = [
  "created",
  "pending",
  "running",
  "success",
  "failed",
  "canceled",
  "skipped",
  "manual",
] as const;

/** One of {@link BUILD_STATUSES}. */
export type BuildStatus = (typeof BUILD_STATUSES)[number];

/** The statuses of a pipeline (and of a commit): the same names as a build's. */
export const PIPELINE_STATUSES = BUILD_STATUSES;

/** One of {@link PIPELINE_STATUSES}. */
export type PipelineStatus = (typeof PIPELINE_STATUSES)[number];

/** When a job runs, given how the earlier stages ended (the `when` key of `.gitlab-ci.yml`). */
export const JOB_WHENS = ["on_success", "on_failure", "always", "manual"] as const;

/** One of {@link JOB_WHENS}. */
export type JobWhen = (typeof JOB_WHENS)[number];

/** The statuses a build ends in (8.x's `COMPLETED_STATUSES`); a manual build has not ended yet. */
export const FINISHED_BUILD_STATUSES: readonly BuildStatus[] = ["success", "failed", "canceled", "skipped"];

/** 8.x's `StuckCiBuildsWorker`: a pending or running build not updated for a day is failed. */
export const STUCK_BUILD_SECONDS = 86_400;

/** Whether `status` is one a build ends in ({@link FINISHED_BUILD_STATUSES}). */
export function isFinishedBuildStatus(status: BuildStatus): boolean {
  return FINISHED_BUILD_STATUSES.includes(status);
}

/**
 * What moves a build, by 8.x's `CommitStatus` event names: `enqueue` (ready for a runner), `run`
 * (a runner took it), `success`, `drop` (failed), `cancel`, `skip` (its `when` ruled it out),
 * `process` (back to `created` so a retry of an earlier build re-decides it), plus `actionize`
 * (wait for a play) and `play` (a user starts a manual build).
 */
export const BUILD_STATUS_EVENTS = [
  "enqueue",
  "run",
  "success",
  "drop",
  "cancel",
  "skip",
  "process",
  "actionize",
  "play",
] as const;

/** One of {@link BUILD_STATUS_EVENTS}. */
export type BuildStatusEvent = (typeof BUILD_STATUS_EVENTS)[number];

/**
 * The build state machine of 8.x (`app/models/commit_status.rb`): created → pending → running →
 * success | failed | canceled, with success, drop and cancel also allowed before a runner took it
 * (an external status or a stuck build), skip from created or pending, and a skipped build sent back
 * to pending or to created. A `manual` build is decided from `created` and started by `play`;
 * cancel leaves it alone, as 8.x left its skipped manual builds.
 */
export const BUILD_STATE_MACHINE: StateMachine<BuildStatus, BuildStatusEvent> = {
  created: {
    enqueue: "pending",
    success: "success",
    drop: "failed",
    cancel: "canceled",
    skip: "skipped",
    actionize: "manual",
  },
  pending: { run: "running", success: "success", drop: "failed", cancel: "canceled", skip: "skipped" },
  running: { success: "success", drop: "failed", cancel: "canceled" },
  success: {},
  failed: {},
  canceled: {},
  skipped: { enqueue: "pending", process: "created" },
  manual: { play: "pending", process: "created" },
};

/** Whether some event of {@link BUILD_STATE_MACHINE} moves a build from `from` to `to`. */
export function canTransitionBuild(from: BuildStatus, to: BuildStatus): boolean {
  return BUILD_STATUS_EVENTS.some((event) => transition(BUILD_STATE_MACHINE, from, event) === to);
}
