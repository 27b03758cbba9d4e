import type { Project } from "@kiln/domain";
import { findBranch, findTag, GitError, getCommit, readFile } from "@kiln/git";
import type { CiPipeline } from "@kiln/storage-kysely";
import { repositoryOf } from "../repositories/access.js";
import type { ServiceRuntime } from "../runtime.js";
import { ciTransaction } from "./changes.js";
import { type PipelineContext, type PipelinePlan, planPipeline } from "./contract.js";
import { processPipeline } from "./status.js";

/** The file pipelines are planned from. */
export const CI_CONFIG_PATH = ".gitlab-ci.yml";

/** What a pipeline is asked for. */
export interface PipelineRequest {
  project: Project;
  /** The short ref name (`main`, `v1.0`). */
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha: string | null;
  userId: number | null;
  source: PipelineContext["source"];
  /** A trigger's variables, handed to its builds. */
  triggerVariables?: { key: string; value: string }[];
}

/**
 * Why no pipeline was made (8.x's CreatePipelineService errors): the commit has no
 * `.gitlab-ci.yml`, or no job runs for the ref.
 */
export type PipelineRefusal = "missing_file" | "no_builds";

/** 8.x's words for each refusal, as its pipeline's `base` errors. */
export const PIPELINE_REFUSAL_MESSAGES = {
  missing_file: "Missing .gitlab-ci.yml file",
  no_builds: "No builds for this pipeline.",
  ref_not_found: "Reference not found",
} as const;

/** A pipeline made, or why none was. */
export type PipelineOutcome = { pipeline: CiPipeline } | { refused: PipelineRefusal };

/** `[ci skip]` or `[skip ci]` in a commit message, in any case, skips its push's pipeline. */
export const skipsCi = (message: string): boolean => /\[(ci skip|skip ci)\]/i.test(message);

/** The commit's `.gitlab-ci.yml`, or null when it has none. */
async function ciConfigAt(gitDir: string, sha: string): Promise<string | null> {
  try {
    return (await readFile(gitDir, sha, CI_CONFIG_PATH)).content.toString("utf8");
  } catch (error) {
    if (GitError.is(error, "not_found")) return null;
    throw error;
  }
}

/**
 * Makes the pipeline of a commit for a ref, as 8.x's CreatePipelineService: from the commit's
 * `.gitlab-ci.yml`, planned for the ref; the pipeline and all its builds (in `created`) in one
 * transaction, then processed (the first stage pending). A file that does not plan gives a
 * `failed` pipeline with the reason in `yaml_errors`. A push whose head commit says `[ci skip]`
 * gives a `skipped` pipeline without builds.
 */
export async function createPipeline(
  runtime: ServiceRuntime,
  request: PipelineRequest,
): Promise<PipelineOutcome> {
  const gitDir = await repositoryOf(runtime, request.project);
  const yaml = await ciConfigAt(gitDir, request.sha);
  if (yaml === null) return { refused: "missing_file" };
  if (request.source === "push" && skipsCi((await getCommit(gitDir, request.sha)).message)) {
    return { pipeline: await savePipeline(runtime, request, { kind: "skipped" }) };
  }
  const planned = planPipeline(yaml, { ref: request.ref, tag: request.tag, source: request.source });
  if (!planned.ok) {
    return { pipeline: await savePipeline(runtime, request, { kind: "invalid", error: planned.error }) };
  }
  if (planned.plan.jobs.length === 0) return { refused: "no_builds" };
  return { pipeline: await savePipeline(runtime, request, { kind: "plan", plan: planned.plan }) };
}

/** A pipeline asked for a branch or tag by name, whose head commit is built. */
export type RefPipelineRequest = Omit<PipelineRequest, "tag" | "sha" | "beforeSha">;

/**
 * Makes the pipeline of the head commit of a branch (or, failing that, a tag) named `ref`, as 8.x
 * does for `POST /projects/:id/pipeline` and for triggers; a ref that is neither is refused.
 */
export async function createPipelineForRef(
  runtime: ServiceRuntime,
  request: RefPipelineRequest,
): Promise<PipelineOutcome | { refused: "ref_not_found" }> {
  const gitDir = await repositoryOf(runtime, request.project);
  const branch = await findBranch(gitDir, request.ref).catch(() => undefined);
  const tag = branch ? undefined : await findTag(gitDir, request.ref).catch(() => undefined);
  const sha = branch?.commit.id ?? tag?.commit?.id;
  if (!sha) return { refused: "ref_not_found" };
  return createPipeline(runtime, { ...request, tag: !branch, sha, beforeSha: null });
}

type Contents =
  | { kind: "plan"; plan: PipelinePlan }
  | { kind: "invalid"; error: string }
  | { kind: "skipped" };

/** Stores the pipeline and its builds, and processes it, in one transaction. */
function savePipeline(
  runtime: ServiceRuntime,
  request: PipelineRequest,
  contents: Contents,
): Promise<CiPipeline> {
  return ciTransaction(runtime, async (tx, changes) => {
    const pipeline = await tx.ciPipelines.create({
      project_id: request.project.id,
      ref: request.ref,
      tag: request.tag,
      sha: request.sha,
      before_sha: request.beforeSha,
      status: contents.kind === "skipped" ? "skipped" : "created",
      source: request.source,
      yaml_errors: contents.kind === "invalid" ? `yaml invalid: ${contents.error}` : null,
      user_id: request.userId,
      trigger_variables: request.triggerVariables ? JSON.stringify(request.triggerVariables) : null,
    });
    if (contents.kind === "skipped") return pipeline;
    if (contents.kind === "plan") {
      await tx.ciBuilds.createMany(
        contents.plan.jobs.map((job) => ({
          pipeline_id: pipeline.id,
          project_id: request.project.id,
          name: job.name,
          stage: job.stage,
          stage_idx: job.stageIndex,
          status: "created",
          when: job.when,
          allow_failure: job.allowFailure,
          commands: job.commands,
          options: { ...job.options },
          yaml_variables: job.variables,
          tag_list: job.tags,
          ref: request.ref,
          tag: request.tag,
          sha: request.sha,
          user_id: request.userId,
        })),
      );
    }
    return processPipeline(tx, changes, pipeline);
  });
}
