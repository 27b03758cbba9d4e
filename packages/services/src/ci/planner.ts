import type { PlanPipeline } from "./contract.js";

/**
 * The planner of pipelines: `@kiln/ci`'s `planPipeline` once that package is merged; until then
 * whatever the host sets with {@link usePlanner} (a server without one refuses every file).
 */
let planner: PlanPipeline = () => ({ ok: false, error: "no pipeline planner is configured" });

/** Sets the planner of pipelines (process-wide). */
export function usePlanner(plan: PlanPipeline): void {
  planner = plan;
}

/** Plans a pipeline with the configured planner. */
export const planPipeline: PlanPipeline = (yamlText, context) => planner(yamlText, context);
