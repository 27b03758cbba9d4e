import { notFound, type Project } from "@kiln/domain";
import { findBranch, findTag } from "@kiln/git";
import { BuildTraceInput, LatestPipelineInput, PipelineRefInput } from "@kiln/schemas";
import type { Context } from "../context.js";
import { query } from "../operation.js";
import { requireProject } from "../projects/access.js";
import { repositoryOf } from "../repositories/access.js";
import { requireBuild } from "./build-access.js";
import { readTrace } from "./runs.js";
import { isFinished, latestBuilds } from "./status.js";
import { type BuildView, buildViews, type PipelineView, pipelineViews } from "./views.js";

/** The commit a branch (or else a tag) of the project points at, or null when it has neither. */
async function headOf(ctx: Context, project: Project, ref: string): Promise<string | null> {
  const gitDir = await repositoryOf(ctx.runtime, project);
  const branch = await findBranch(gitDir, ref).catch(() => undefined);
  if (branch) return branch.commit.id;
  const tag = await findTag(gitDir, ref).catch(() => undefined);
  return tag?.commit?.id ?? null;
}

/**
 * The length of `bytes` without a UTF-8 character cut at its end (a runner may append the rest
 * of it later): a piece of a trace ends on a whole character.
 */
export function wholeCharacters(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needs > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** What following a build's trace answers: the bytes from `offset` on, as text. */
export interface TracePiece {
  build: BuildView["build"];
  offset: number;
  nextOffset: number;
  content: string;
  complete: boolean;
}

/**
 * What an editor follows of a project's CI (the builds of the branch it works on), each read with
 * the same rules as the v3 routes of pipelines and builds.
 */
export const ciFollow = {
  /**
   * The latest pipeline of a branch or tag (8.x's `pipeline_for(ref)`): the newest pipeline of
   * its head commit on that ref; null when the head has none or the ref does not exist.
   */
  latestPipeline: query(
    "signed_in",
    LatestPipelineInput,
    async (ctx, input): Promise<PipelineView | null> => {
      const { project } = await requireProject(ctx, input.id, "read_pipeline");
      const sha = await headOf(ctx, project, input.ref);
      if (!sha) return null;
      const pipeline = (await ctx.runtime.stores.ciPipelines.forSha(project.id, sha)).find(
        (candidate) => candidate.ref === input.ref,
      );
      if (!pipeline) return null;
      const [view] = await pipelineViews(ctx.runtime, [pipeline]);
      return view ?? null;
    },
  ),

  /** A pipeline's builds as `GET …/builds` shows them: the latest of each name, in stage order. */
  pipelineBuilds: query("signed_in", PipelineRefInput, async (ctx, input): Promise<BuildView[]> => {
    const { project } = await requireProject(ctx, input.id, "read_build");
    const pipeline = await ctx.runtime.stores.ciPipelines.findInProject(project.id, input.pipeline_id);
    if (!pipeline) throw notFound("pipeline");
    const jobs = latestBuilds(await ctx.runtime.stores.ciBuilds.ofPipeline(pipeline.id))
      .filter((build) => build.type === "build")
      .sort((a, b) => a.stage_idx - b.stage_idx || a.id - b.id);
    return buildViews(ctx.runtime, project, jobs);
  }),

  /**
   * A build's trace from byte `offset` on, to follow it while it runs (`GET …/trace` answers the
   * whole). From 0 again when the trace is shorter than `offset` (erased meanwhile).
   */
  traceFrom: query("signed_in", BuildTraceInput, async (ctx, input): Promise<TracePiece> => {
    // The build is read before its trace: a trace read after it finished is all there will be.
    const { build } = await requireBuild(ctx, input);
    const trace = await readTrace(ctx.runtime, build);
    const offset = input.offset > trace.length ? 0 : input.offset;
    const complete = isFinished(build.status);
    const rest = trace.subarray(offset);
    const end = complete ? rest.length : wholeCharacters(rest);
    return {
      build,
      offset,
      nextOffset: offset + end,
      content: rest.subarray(0, end).toString("utf8"),
      complete,
    };
  }),
};
