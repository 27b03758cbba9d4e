import { commitOrNull } from "../ci/views.js";
import type { BuildEvent, PipelineEvent } from "../domain-events.js";
import type { ServiceRuntime } from "../runtime.js";
import { buildPayload, pipelinePayload } from "./payloads/ci.js";
import { type HookMessage, hookCommitAt, hookProject, userOrNull } from "./sources.js";

/** The build statuses 8.x sends a Build Hook for: started, and each way of finishing. */
const BUILD_HOOK_STATUSES: readonly string[] = ["running", "success", "failed", "canceled"];

/**
 * The Build Hook of a build's status change, built from the build and its pipeline as they are now
 * with the status the event reports; null for statuses 8.x does not announce, for external commit
 * statuses (8.x announces only its own builds), and once the build or its project is gone.
 */
export async function buildMessage(runtime: ServiceRuntime, event: BuildEvent): Promise<HookMessage | null> {
  if (!BUILD_HOOK_STATUSES.includes(event.status)) return null;
  const { stores } = runtime;
  const build = await stores.ciBuilds.find(event.buildId);
  if (build?.type !== "build") return null;
  const pipeline = await stores.ciPipelines.find(build.pipeline_id);
  const where = await hookProject(runtime, build.project_id);
  if (!pipeline || !where) return null;
  const commit = await commitOrNull(runtime, where.project, build.sha);
  const payload = buildPayload({
    build,
    status: event.status,
    pipeline,
    user: await userOrNull(runtime, build.user_id),
    commit,
    where,
    baseUrl: runtime.baseUrl,
  });
  return { eventName: "Build Hook", flag: "build_events", payload };
}

/** The Pipeline Hook of a pipeline's status change, with its builds as they are now; null once it is gone. */
export async function pipelineMessage(
  runtime: ServiceRuntime,
  event: PipelineEvent,
): Promise<HookMessage | null> {
  const { stores } = runtime;
  const pipeline = await stores.ciPipelines.find(event.pipelineId);
  const where = pipeline && (await hookProject(runtime, pipeline.project_id));
  if (!pipeline || !where) return null;
  const builds = (await stores.ciBuilds.ofPipeline(pipeline.id)).filter((build) => build.type === "build");
  const users = await stores.users.findByIds(builds.flatMap((build) => build.user_id ?? []));
  const runners = new Map<number, Awaited<ReturnType<typeof stores.ciRunners.find>>>();
  for (const id of new Set(builds.flatMap((build) => build.runner_id ?? [])))
    runners.set(id, await stores.ciRunners.find(id));
  const payload = pipelinePayload({
    pipeline,
    status: event.status,
    user: await userOrNull(runtime, pipeline.user_id),
    commit: await hookCommitAt(runtime, where, pipeline.sha),
    builds: builds.map((build) => ({
      build,
      user: (build.user_id !== null && users.get(build.user_id)) || null,
      runner: (build.runner_id !== null && runners.get(build.runner_id)) || null,
    })),
    where,
    baseUrl: runtime.baseUrl,
  });
  return { eventName: "Pipeline Hook", flag: "pipeline_events", payload };
}
