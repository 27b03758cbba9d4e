import { invalid, notFound, type Page, pageRequest } from "@kiln/domain";
import { CreatePipelineInput, ListPipelinesInput, PipelineRefInput } from "@kiln/schemas";
import type { CiPipeline } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { mutation, query } from "../operation.js";
import { requireProject } from "../projects/access.js";
import { retryIn } from "./actions.js";
import { ciTransaction } from "./changes.js";
import { createPipelineForRef, PIPELINE_REFUSAL_MESSAGES } from "./create.js";
import { latestBuilds, moveBuild, processPipeline } from "./status.js";
import { type PipelineView, pipelineViews } from "./views.js";

async function requirePipeline(
  ctx: Context,
  input: PipelineRefInput,
  ability: "read_pipeline" | "update_build",
): Promise<CiPipeline> {
  const { project } = await requireProject(ctx, input.id, ability);
  const pipeline = await ctx.runtime.stores.ciPipelines.findInProject(project.id, input.pipeline_id);
  if (!pipeline) throw notFound("pipeline");
  return pipeline;
}

async function viewOf(ctx: Context, pipeline: CiPipeline): Promise<PipelineView> {
  const [view] = await pipelineViews(ctx.runtime, [pipeline]);
  if (!view) throw new Error("a pipeline without its view");
  return view;
}

/**
 * A project's pipelines (8.x's `/projects/:id/pipelines`): read by whoever reads its pipelines,
 * retried, canceled and created by developers and above.
 */
export const pipelines = {
  /** The project's pipelines, newest first, in the `scope` when given. */
  list: query("signed_in", ListPipelinesInput, async (ctx, input): Promise<Page<PipelineView>> => {
    const { project } = await requireProject(ctx, input.id, "read_pipeline");
    const page = await ctx.runtime.stores.ciPipelines.list(
      project.id,
      input.scope ?? null,
      pageRequest(input),
    );
    return { ...page, items: await pipelineViews(ctx.runtime, page.items) };
  }),

  /** One pipeline. */
  get: query("signed_in", PipelineRefInput, async (ctx, input) =>
    viewOf(ctx, await requirePipeline(ctx, input, "read_pipeline")),
  ),

  /** Retries the latest failed or canceled builds of a pipeline. */
  retry: mutation("signed_in", PipelineRefInput, async (ctx, input) => {
    const pipeline = await requirePipeline(ctx, input, "update_build");
    const updated = await ciTransaction(ctx.runtime, async (tx, changes) => {
      const failed = latestBuilds(await tx.ciBuilds.ofPipeline(pipeline.id)).filter(
        (build) => build.type === "build" && (build.status === "failed" || build.status === "canceled"),
      );
      for (const build of failed) await retryIn(tx, changes, build, ctx.actor.user.id);
      return (await tx.ciPipelines.find(pipeline.id)) ?? pipeline;
    });
    return viewOf(ctx, updated);
  }),

  /** Cancels every build and status of a pipeline that has not finished. */
  cancel: mutation("signed_in", PipelineRefInput, async (ctx, input) => {
    const pipeline = await requirePipeline(ctx, input, "update_build");
    const updated = await ciTransaction(ctx.runtime, async (tx, changes) => {
      for (const build of latestBuilds(await tx.ciBuilds.ofPipeline(pipeline.id))) {
        await moveBuild(tx, changes, build, "canceled", ["created", "pending", "running"]);
      }
      const current = (await tx.ciPipelines.find(pipeline.id)) ?? pipeline;
      return processPipeline(tx, changes, current);
    });
    return viewOf(ctx, updated);
  }),

  /** Makes a pipeline for the head of a branch or tag (`[ci skip]` does not apply). */
  create: mutation("signed_in", CreatePipelineInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "create_pipeline");
    const outcome = await createPipelineForRef(ctx.runtime, {
      project,
      ref: input.ref,
      userId: ctx.actor.user.id,
      source: "api",
    });
    // 8.x answers the unsaved pipeline's errors: `{"message": {"base": [...]}}`.
    if ("refused" in outcome) throw invalid({ base: [PIPELINE_REFUSAL_MESSAGES[outcome.refused]] });
    return viewOf(ctx, outcome.pipeline);
  }),
};
