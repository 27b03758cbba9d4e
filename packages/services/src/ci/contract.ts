/**
 * The names the server side of CI codes against (see the contract with `@kiln/ci`): the plan of
 * a pipeline from `@kiln/ci`, the statuses and their rules from `@kiln/domain`.
 */

export {
  type JobPlan,
  type PipelineContext,
  type PipelinePlan,
  type PlanResult,
  planPipeline,
  predefinedVariables,
} from "@kiln/ci";
export {
  type BuildStatus,
  buildsToProcess,
  FINISHED_BUILD_STATUSES,
  type JobWhen,
  type PipelineStatus,
  pipelineStatusOf,
} from "@kiln/domain";
