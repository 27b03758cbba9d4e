/**
 * @module @kiln/ci
 * GitLab 8.x CI, pure: `.gitlab-ci.yml` parsed and validated into the plan of a pipeline (the jobs
 * that run for a ref, in stage order, with what the runner needs), and the `CI_*` variables of a
 * build. No I/O. The build and pipeline statuses are tables in `@kiln/domain`.
 */
export { durationSeconds } from "./duration.js";
export { MAX_CONFIG_LENGTH } from "./load.js";
export { planPipeline } from "./plan.js";
export type {
  BuildVariable,
  JobOptions,
  JobPlan,
  PipelineContext,
  PipelinePlan,
  PlanResult,
} from "./types.js";
export { type BuildForVariables, predefinedVariables, refSlug } from "./variables.js";
