import { presentBasicProject, presentRunner, type RunnerDetailsView, type TriggerView } from "@kiln/services";
import type { PresentContext } from "../route.js";

export { presentRunner };

/** 8.x's `RunnerDetails`: `token` only to those allowed (administrators, or for a specific runner). */
export function presentRunnerDetails(
  { runner, token, projects }: RunnerDetailsView,
  context: PresentContext,
) {
  return {
    ...presentRunner(runner),
    tag_list: runner.tag_list,
    run_untagged: runner.run_untagged,
    locked: runner.locked,
    version: runner.version,
    revision: runner.revision,
    platform: runner.platform,
    architecture: runner.architecture,
    contacted_at: runner.contacted_at,
    ...(token === null ? {} : { token }),
    projects: projects.map(({ project, namespace }) => presentBasicProject(project, namespace, context)),
  };
}

/** 8.x's `Trigger`: the token in full (only masters reach it). */
export function presentTrigger({ trigger, token }: TriggerView) {
  return {
    token,
    created_at: trigger.created_at,
    updated_at: trigger.updated_at,
    deleted_at: trigger.deleted_at,
    last_used: trigger.last_used_at,
  };
}
