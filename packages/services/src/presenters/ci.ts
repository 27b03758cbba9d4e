import type { BuildJson, CiStatus, PipelineJson } from "@kiln/schemas";
import type { BuildView, PipelineView } from "../ci/views.js";
import { presentCommit } from "./commits.js";
import type { PresentContext } from "./present-context.js";
import { presentUser, presentUserBasic } from "./users.js";

// The stores keep statuses as text; only the names of `CiStatus` are ever written to them.
const status = (value: string) => value as CiStatus;

/** 8.x's `Runner` entity, as a build and the runners API show one. */
export function presentRunner(runner: NonNullable<BuildView["runner"]>) {
  return {
    id: runner.id,
    description: runner.description,
    active: runner.active,
    is_shared: runner.is_shared,
    name: runner.name,
  };
}

/** A build's commit: 8.x's `RepoCommit` without the committer. */
function buildCommit(commit: NonNullable<BuildView["commit"]>) {
  const { committer_name: _name, committer_email: _email, ...shown } = presentCommit(commit);
  return shown;
}

/** 8.x's `Build`: with its commit, the user it ran for (extended), its runner and artifacts file. */
export function presentBuild(
  { build, commit, user, runner, pipeline }: BuildView,
  context: PresentContext,
): BuildJson {
  return {
    id: build.id,
    status: status(build.status),
    stage: build.stage,
    name: build.name,
    ref: build.ref,
    tag: build.tag,
    coverage: null,
    created_at: build.created_at,
    started_at: build.started_at,
    finished_at: build.finished_at,
    user: user ? presentUser(user, context) : null,
    ...(build.artifacts_file === null
      ? {}
      : { artifacts_file: { filename: build.artifacts_file, size: build.artifacts_size ?? 0 } }),
    commit: commit && buildCommit(commit),
    runner: runner ? presentRunner(runner) : null,
    pipeline: pipeline && {
      id: pipeline.id,
      sha: pipeline.sha,
      ref: pipeline.ref,
      status: status(pipeline.status),
    },
  };
}

/** 8.x's `Pipeline`. */
export function presentPipeline({ pipeline, user }: PipelineView, context: PresentContext): PipelineJson {
  return {
    id: pipeline.id,
    sha: pipeline.sha,
    ref: pipeline.ref,
    status: status(pipeline.status),
    before_sha: pipeline.before_sha ?? "0".repeat(40),
    tag: pipeline.tag,
    yaml_errors: pipeline.yaml_errors,
    user: user ? presentUserBasic(user, context) : null,
    created_at: pipeline.created_at,
    updated_at: pipeline.updated_at,
    started_at: pipeline.started_at,
    finished_at: pipeline.finished_at,
    committed_at: null,
    duration: pipeline.duration,
    coverage: null,
  };
}
