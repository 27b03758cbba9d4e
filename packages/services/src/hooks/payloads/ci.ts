import { nameWithNamespace, type User } from "@kiln/domain";
import type { CiBuild, CiPipeline, CiRunner } from "@kiln/storage-kysely";
import { fullRepository, type HookProject, hookUser, projectHookAttrs } from "./common.js";
import type { HookCommit } from "./merge-request.js";

/** Seconds between two times, as 8.x's `duration` (a float), or null when either is missing. */
function secondsBetween(from: string | null, to: string | null): number | null {
  if (from === null || to === null) return null;
  return (Date.parse(to) - Date.parse(from)) / 1000;
}

/** What a build payload is built from. */
export interface BuildPayloadSource {
  build: CiBuild;
  /** The status the event reports (the build may have moved on since). */
  status: string;
  pipeline: CiPipeline;
  /** Who the build runs for; null when unknown or deleted. */
  user: Pick<User, "id" | "name" | "email"> | null;
  /** The build's commit, or null when the repository lacks it. */
  commit: { message: string; author_name: string; author_email: string } | null;
  where: HookProject;
  baseUrl: string;
}

/**
 * The build payload of GitLab 8.x (`Gitlab::DataBuilder::Build`), flat, keys in its order; its
 * `commit` describes the pipeline (8.x's `Ci::Pipeline` was once `Ci::Commit`).
 */
export function buildPayload(source: BuildPayloadSource) {
  const { build, pipeline, where, baseUrl } = source;
  return {
    object_kind: "build",
    ref: build.ref,
    tag: build.tag,
    before_sha: pipeline.before_sha,
    sha: build.sha,
    build_id: build.id,
    build_name: build.name,
    build_stage: build.stage,
    build_status: source.status,
    build_started_at: build.started_at,
    build_finished_at: build.finished_at,
    build_duration: secondsBetween(build.started_at, build.finished_at),
    build_allow_failure: build.allow_failure,
    project_id: where.project.id,
    project_name: nameWithNamespace(where.namespace, where.project),
    user: { id: source.user?.id ?? null, name: source.user?.name ?? null, email: source.user?.email ?? null },
    commit: {
      id: pipeline.id,
      sha: pipeline.sha,
      message: source.commit?.message ?? null,
      author_name: source.commit?.author_name ?? null,
      author_email: source.commit?.author_email ?? null,
      status: pipeline.status,
      duration: pipeline.duration,
      started_at: pipeline.started_at,
      finished_at: pipeline.finished_at,
    },
    repository: fullRepository(where, baseUrl),
  };
}

/** One of a pipeline's builds, as its payload lists them (8.15's `build_hook_attrs`). */
export interface PipelineBuildSource {
  build: CiBuild;
  user: Pick<User, "name" | "username"> | null;
  runner: CiRunner | null;
}

/** What a pipeline payload is built from. */
export interface PipelinePayloadSource {
  pipeline: CiPipeline;
  /** The status the event reports (the pipeline may have moved on since). */
  status: string;
  user: Pick<User, "name" | "username"> | null;
  commit: HookCommit | null;
  builds: readonly PipelineBuildSource[];
  where: HookProject;
  baseUrl: string;
}

/** The pipeline's stage names in their order. */
function stagesOf(builds: readonly PipelineBuildSource[]): string[] {
  const ordered = [...builds].sort((a, b) => a.build.stage_idx - b.build.stage_idx);
  return [...new Set(ordered.map(({ build }) => build.stage))];
}

function pipelineBuild({ build, user, runner }: PipelineBuildSource) {
  return {
    id: build.id,
    stage: build.stage,
    name: build.name,
    status: build.status,
    created_at: build.created_at,
    started_at: build.started_at,
    finished_at: build.finished_at,
    when: build.when,
    manual: build.when === "manual",
    user: user && hookUser(user),
    runner: runner && {
      id: runner.id,
      description: runner.description,
      active: runner.active,
      is_shared: runner.is_shared,
    },
    artifacts_file: { filename: build.artifacts_file, size: build.artifacts_size },
  };
}

/**
 * The pipeline payload of GitLab 8.x (`Gitlab::DataBuilder::Pipeline`): the pipeline's attributes,
 * who it is for, the project without its backward-compatible keys, its commit, and its builds.
 */
export function pipelinePayload(source: PipelinePayloadSource) {
  const { pipeline, where, baseUrl } = source;
  return {
    object_kind: "pipeline",
    object_attributes: {
      id: pipeline.id,
      ref: pipeline.ref,
      tag: pipeline.tag,
      sha: pipeline.sha,
      before_sha: pipeline.before_sha,
      status: source.status,
      stages: stagesOf(source.builds),
      created_at: pipeline.created_at,
      finished_at: pipeline.finished_at,
      duration: pipeline.duration,
    },
    user: source.user && hookUser(source.user),
    project: projectHookAttrs(where, baseUrl, false),
    commit: source.commit,
    builds: source.builds.map(pipelineBuild),
  };
}
