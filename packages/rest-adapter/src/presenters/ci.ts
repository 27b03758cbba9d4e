import type { BuildView, CommitStatusView, PipelineView } from "@kiln/services";
import type { PresentContext } from "../route.js";
import { commitTitle } from "./commits.js";
import { presentUser, presentUserBasic } from "./users.js";

/** A runner as a build shows it (8.x's `Runner` entity). */
function presentBuildRunner(runner: NonNullable<BuildView["runner"]>) {
  return {
    id: runner.id,
    description: runner.description,
    active: runner.active,
    is_shared: runner.is_shared,
    name: runner.name,
  };
}

/** 8.x's `Build`: with its commit, the user it ran for (extended), its runner and artifacts file. */
export function presentBuild({ build, commit, user, runner, pipeline }: BuildView, context: PresentContext) {
  return {
    id: build.id,
    status: build.status,
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
    commit: commit && {
      id: commit.id,
      short_id: commit.id.slice(0, 11),
      title: commitTitle(commit.message),
      author_name: commit.author_name,
      author_email: commit.author_email,
      created_at: commit.committed_date,
      message: commit.message,
    },
    runner: runner ? presentBuildRunner(runner) : null,
    pipeline: pipeline && { id: pipeline.id, sha: pipeline.sha, ref: pipeline.ref, status: pipeline.status },
  };
}

/** The build of an erase or keep answer: `download_url` (null) in place of `artifacts_file`, as the spec shows. */
export function presentBuildWithDownload(view: BuildView, context: PresentContext) {
  const { artifacts_file: _file, ...rest } = presentBuild(view, context) as ReturnType<
    typeof presentBuild
  > & {
    artifacts_file?: unknown;
  };
  return { ...rest, download_url: null };
}

/** 8.x's `CommitStatus`: an external status or a build, as the commit statuses API shows it. */
export function presentCommitStatus({ status, author }: CommitStatusView, context: PresentContext) {
  return {
    id: status.id,
    sha: status.sha,
    ref: status.ref,
    status: status.status,
    name: status.name,
    target_url: status.target_url,
    description: status.description,
    created_at: status.created_at,
    started_at: status.started_at,
    finished_at: status.finished_at,
    allow_failure: status.allow_failure,
    author: author ? presentUserBasic(author, context) : null,
  };
}

/** 8.x's `Pipeline`. */
export function presentPipeline({ pipeline, user }: PipelineView, context: PresentContext) {
  return {
    id: pipeline.id,
    sha: pipeline.sha,
    ref: pipeline.ref,
    status: pipeline.status,
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
