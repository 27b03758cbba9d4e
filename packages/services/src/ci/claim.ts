import { notFound, type Project } from "@kiln/domain";
import type { CiBuild, CiPipeline, CiRunner } from "@kiln/storage-kysely";
import type { ServiceRuntime } from "../runtime.js";
import { generateToken, tokenDigest } from "../security/tokens.js";
import { ciTransaction } from "./changes.js";
import { buildQueue } from "./queue.js";
import { type RunnerInfo, requireRunner, touchRunner } from "./runners.js";
import { processPipeline } from "./status.js";
import { buildVariables } from "./variables.js";

/** A build handed to a runner, with everything the runner API's BuildDetails shows. */
export interface ClaimedBuild {
  build: CiBuild;
  /** The build's token, shown this once (only its digest is kept). */
  token: string;
  project: Project;
  /** `namespace/project`. */
  projectPath: string;
  pipeline: CiPipeline;
  variables: { key: string; value: string; public: boolean }[];
  /** The latest builds of earlier stages, whose artifacts the runner may fetch. */
  dependsOn: CiBuild[];
  /** Seconds the build may run: its project's `build_timeout`, as 8.x hands it to the runner. */
  timeout: number;
}

/** How long a runner's request for a build may wait, and how often it looks meanwhile. */
export interface WaitOptions {
  /** The longest wait for a build, in ms (0: answer at once). */
  waitMs: number;
  /** How often a waiting request looks again when nothing woke it (builds made by another process). */
  pollMs?: number;
  /** Aborted when the runner went away: the request stops waiting and claims nothing more. */
  signal?: AbortSignal | undefined;
  info?: RunnerInfo | undefined;
}

/** How often `contacted_at` is written at most: a runner polling every second writes once a minute. */
const CONTACT_EVERY_MS = 60_000;

/**
 * A runner's request for a build (`POST /ci/api/v1/builds/register`): the oldest pending build it
 * may run, now `running` on it with a new token; or null when none came within `waitMs` (the
 * request waits, woken as soon as a build becomes pending in this process, and looking again every
 * `pollMs` for other processes' builds). 403 for an unknown token, 404 for a paused runner.
 */
export async function requestBuild(
  runtime: ServiceRuntime,
  runnerToken: string | undefined,
  options: WaitOptions,
): Promise<ClaimedBuild | null> {
  const runner = await requireRunner(runtime, runnerToken);
  if (!runner.active) throw notFound();
  const contacted = runner.contacted_at === null ? 0 : Date.parse(runner.contacted_at);
  if (Date.now() - contacted > CONTACT_EVERY_MS) await touchRunner(runtime, runner, options.info);
  const deadline = Date.now() + options.waitMs;
  const queue = buildQueue(runtime);
  for (;;) {
    if (options.signal?.aborted) return null;
    const claimed = await claimOnce(runtime, runner);
    if (claimed) return claimed;
    const left = deadline - Date.now();
    if (left <= 0) return null;
    await queue.sleep(Math.min(left, options.pollMs ?? 1000));
  }
}

/** Claims one build for the runner and marks its pipeline running, in one transaction. */
async function claimOnce(runtime: ServiceRuntime, runner: CiRunner): Promise<ClaimedBuild | null> {
  const token = generateToken(20);
  const claimed = await ciTransaction(runtime, async (tx, changes) => {
    const match = {
      id: runner.id,
      isShared: runner.is_shared,
      tags: runner.tag_list,
      runUntagged: runner.run_untagged,
    };
    const build = await tx.ciBuilds.claim(match, tokenDigest(token));
    if (!build) return null;
    await changes.record(tx, {
      kind: "build",
      projectId: build.project_id,
      pipelineId: build.pipeline_id,
      buildId: build.id,
      status: "running",
      userId: build.user_id,
    });
    const pipeline = await tx.ciPipelines.find(build.pipeline_id);
    if (!pipeline) return null;
    // A build starting in a running pipeline changes neither its status nor its stages: the
    // pipeline's builds need not be read again, which a pipeline of many jobs would pay per claim.
    if (pipeline.status === "running") return { build, pipeline };
    return { build, pipeline: await processPipeline(tx, changes, pipeline) };
  });
  return claimed && detailsOf(runtime, claimed.build, claimed.pipeline, token);
}

/** What the runner is handed with a build. */
async function detailsOf(
  runtime: ServiceRuntime,
  build: CiBuild,
  pipeline: CiPipeline,
  token: string,
): Promise<ClaimedBuild | null> {
  const { stores } = runtime;
  const project = await stores.projects.findById(build.project_id);
  const namespace = project && (await stores.namespaces.findById(project.namespace_id));
  if (!project || !namespace) return null;
  const projectPath = `${namespace.path}/${project.path}`;
  // A first stage's build depends on nothing: no need to read its pipeline's builds.
  const earlier = build.stage_idx === 0 ? [] : await stores.ciBuilds.ofPipeline(pipeline.id);
  const dependsOn = earlier.filter(
    (other) => !other.retried && other.type === "build" && other.stage_idx < build.stage_idx,
  );
  const variables = await buildVariables(runtime, { build, pipeline, project, projectPath, token });
  return {
    build,
    token,
    project,
    projectPath,
    pipeline,
    variables,
    dependsOn,
    timeout: project.build_timeout,
  };
}
