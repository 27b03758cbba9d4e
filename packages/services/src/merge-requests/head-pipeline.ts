import type { MergeRequest } from "@kiln/domain";
import type { CiPipeline } from "@kiln/storage-kysely";
import type { ServiceRuntime } from "../runtime.js";

/** The statuses of a pipeline still to finish: a merge asked for now waits for it. */
const ACTIVE = ["created", "pending", "running"];

/** True when the pipeline has not finished yet. */
export const isActivePipeline = (pipeline: CiPipeline): boolean => ACTIVE.includes(pipeline.status);

/**
 * The head pipeline of a merge request at source head `sha` (8.x's `merge_request.pipeline`): the
 * newest pipeline of that commit for the source branch, in the source project; null for none.
 */
export async function headPipeline(
  runtime: ServiceRuntime,
  mr: Pick<MergeRequest, "project_id" | "source_project_id" | "source_branch">,
  sha: string,
): Promise<CiPipeline | null> {
  const sourceProjectId = mr.source_project_id ?? mr.project_id;
  const pipelines = await runtime.stores.ciPipelines.forSha(sourceProjectId, sha);
  return pipelines.find((pipeline) => !pipeline.tag && pipeline.ref === mr.source_branch) ?? null;
}
