import { BUILD_STATUSES } from "@kiln/domain";
import { z } from "zod";
import { Id, Timestamp } from "./primitives.js";
import { CommitJson } from "./repository.js";
import { User, UserBasic } from "./users.js";

/** The status of a build or pipeline (8.x's, plus `manual`). */
export const CiStatus = z.enum(BUILD_STATUSES);
export type CiStatus = z.infer<typeof CiStatus>;

/** The commit a build ran on, as 8.x's `Build` entity shows it. */
export const BuildCommitJson = CommitJson.omit({ committer_name: true, committer_email: true });

/** The runner that took a build. */
export const BuildRunnerJson = z.object({
  id: Id,
  description: z.string().nullable(),
  active: z.boolean(),
  is_shared: z.boolean(),
  name: z.string().nullable(),
});

/** 8.x's `Build` (`GET /projects/:id/builds/:build_id`). */
export const BuildJson = z.object({
  id: Id,
  status: CiStatus,
  stage: z.string(),
  name: z.string(),
  ref: z.string(),
  tag: z.boolean(),
  coverage: z.null(),
  created_at: Timestamp,
  started_at: Timestamp.nullable(),
  finished_at: Timestamp.nullable(),
  user: User.nullable(),
  artifacts_file: z.object({ filename: z.string(), size: z.number().int().min(0) }).optional(),
  commit: BuildCommitJson.nullable(),
  runner: BuildRunnerJson.nullable(),
  pipeline: z.object({ id: Id, sha: z.string(), ref: z.string(), status: CiStatus }).nullable(),
});
export type BuildJson = z.infer<typeof BuildJson>;

/** A pipeline's builds, the latest of each name (retried ones left out), in stage order. */
export const PipelineBuildsJson = z.array(BuildJson);
export type PipelineBuildsJson = z.infer<typeof PipelineBuildsJson>;

/** 8.x's `Pipeline` (`GET /projects/:id/pipelines/:pipeline_id`). */
export const PipelineJson = z.object({
  id: Id,
  sha: z.string(),
  ref: z.string(),
  status: CiStatus,
  before_sha: z.string(),
  tag: z.boolean(),
  yaml_errors: z.string().nullable(),
  user: UserBasic.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  started_at: Timestamp.nullable(),
  finished_at: Timestamp.nullable(),
  committed_at: z.null(),
  duration: z.number().int().min(0).nullable(),
  coverage: z.null(),
});
export type PipelineJson = z.infer<typeof PipelineJson>;

/** The latest pipeline of a ref, or null when its head has none (or the ref is gone). */
export const LatestPipelineJson = PipelineJson.nullable();
export type LatestPipelineJson = z.infer<typeof LatestPipelineJson>;

/**
 * A piece of a build's trace: the bytes from `offset` to `next_offset` as text (a character cut
 * by the end of the trace written so far waits for the next piece), and whether more may come.
 */
export const BuildTraceJson = z.object({
  id: Id,
  status: CiStatus,
  offset: z.number().int().min(0),
  next_offset: z.number().int().min(0),
  content: z.string(),
  /** True once the build finished: the trace will not grow. */
  complete: z.boolean(),
});
export type BuildTraceJson = z.infer<typeof BuildTraceJson>;
