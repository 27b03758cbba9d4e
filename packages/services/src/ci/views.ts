import type { Project, User } from "@kiln/domain";
import { GitError, getCommit, type RawCommit } from "@kiln/git";
import type { CiBuild, CiPipeline, CiRunner } from "@kiln/storage-kysely";
import { repositoryOf } from "../repositories/access.js";
import type { ServiceRuntime } from "../runtime.js";

/** A build as the v3 API shows one: with its commit, the user it runs for, its runner and pipeline. */
export interface BuildView {
  build: CiBuild;
  commit: RawCommit | null;
  user: User | null;
  runner: CiRunner | null;
  pipeline: CiPipeline | null;
}

/** A pipeline as the v3 API shows one, with its user. */
export interface PipelineView {
  pipeline: CiPipeline;
  user: User | null;
}

/** A commit of the project, or null when the repository lacks it (removed by a force push). */
export async function commitOrNull(
  runtime: ServiceRuntime,
  project: Project,
  sha: string,
): Promise<RawCommit | null> {
  try {
    return await getCommit(await repositoryOf(runtime, project), sha);
  } catch (error) {
    if (GitError.is(error, "not_found") || GitError.is(error, "invalid")) return null;
    throw error;
  }
}

/** The views of builds of one project, each commit, user, runner and pipeline read once. */
export async function buildViews(
  runtime: ServiceRuntime,
  project: Project,
  builds: readonly CiBuild[],
): Promise<BuildView[]> {
  const { stores } = runtime;
  const commits = new Map<string, RawCommit | null>();
  for (const sha of new Set(builds.map((build) => build.sha)))
    commits.set(sha, await commitOrNull(runtime, project, sha));
  const users = await stores.users.findByIds(
    builds.flatMap((build) => (build.user_id === null ? [] : [build.user_id])),
  );
  const runners = new Map<number, CiRunner | undefined>();
  const pipelines = new Map<number, CiPipeline | undefined>();
  for (const build of builds) {
    if (build.runner_id !== null && !runners.has(build.runner_id)) {
      runners.set(build.runner_id, await stores.ciRunners.find(build.runner_id));
    }
    if (!pipelines.has(build.pipeline_id))
      pipelines.set(build.pipeline_id, await stores.ciPipelines.find(build.pipeline_id));
  }
  return builds.map((build) => ({
    build,
    commit: commits.get(build.sha) ?? null,
    user: build.user_id === null ? null : (users.get(build.user_id) ?? null),
    runner: build.runner_id === null ? null : (runners.get(build.runner_id) ?? null),
    pipeline: pipelines.get(build.pipeline_id) ?? null,
  }));
}

/** One build's view. */
export async function buildView(
  runtime: ServiceRuntime,
  project: Project,
  build: CiBuild,
): Promise<BuildView> {
  const [view] = await buildViews(runtime, project, [build]);
  if (!view) throw new Error("a build without its view");
  return view;
}

/** The views of pipelines, each user read once. */
export async function pipelineViews(
  runtime: ServiceRuntime,
  pipelines: readonly CiPipeline[],
): Promise<PipelineView[]> {
  const users = await runtime.stores.users.findByIds(
    pipelines.flatMap((pipeline) => (pipeline.user_id === null ? [] : [pipeline.user_id])),
  );
  return pipelines.map((pipeline) => ({
    pipeline,
    user: pipeline.user_id === null ? null : (users.get(pipeline.user_id) ?? null),
  }));
}
