import { DomainError, notFound } from "@kiln/domain";
import type { CiBuild, Stores } from "@kiln/storage-kysely";
import type { ServiceRuntime } from "../runtime.js";
import { removeArtifacts } from "./artifacts.js";
import { type CiChanges, ciTransaction } from "./changes.js";
import { buildFilePath, removeFile } from "./files.js";
import { isFinished, moveBuild, processPipeline } from "./status.js";

/** The statuses a cancel moves from (8.x's `cancel` event). */
const CANCELABLE = ["created", "pending", "running"] as const;

/** Processes a build's pipeline in `tx` (its status follows the build's change). */
async function processOf(tx: Stores, changes: CiChanges, build: CiBuild): Promise<void> {
  const pipeline = await tx.ciPipelines.find(build.pipeline_id);
  if (pipeline) await processPipeline(tx, changes, pipeline);
}

/** Cancels a build that has not finished; one that has is answered as it is (8.x). */
export function cancelBuild(runtime: ServiceRuntime, build: CiBuild): Promise<CiBuild> {
  return ciTransaction(runtime, async (tx, changes) => {
    const moved = await moveBuild(tx, changes, build, "canceled", CANCELABLE);
    if (!moved) return build;
    await processOf(tx, changes, moved);
    return moved;
  });
}

/**
 * Retries a finished build (8.x's `Ci::Build.retry`): a new build, copied from it, `pending` for
 * the user who retried; the old one stays, hidden as retried; the later stages' skipped builds go
 * back to `created` to be decided again. 403 `Build is not retryable` unless it succeeded, failed
 * or was canceled, and is a build (not an external status) with commands.
 */
export function retryBuild(runtime: ServiceRuntime, build: CiBuild, userId: number): Promise<CiBuild> {
  return ciTransaction(runtime, (tx, changes) => retryIn(tx, changes, build, userId));
}

/** {@link retryBuild} in a transaction (a pipeline retry retries several). */
export async function retryIn(
  tx: Stores,
  changes: CiChanges,
  build: CiBuild,
  userId: number,
): Promise<CiBuild> {
  const retryable = ["success", "failed", "canceled"].includes(build.status) && build.type === "build";
  if (!retryable || build.retried)
    throw new DomainError({ kind: "forbidden", reason: "build_not_retryable" });
  await tx.ciBuilds.update(build.id, { retried: 1 });
  const [copy] = await tx.ciBuilds.createMany([
    {
      pipeline_id: build.pipeline_id,
      project_id: build.project_id,
      name: build.name,
      stage: build.stage,
      stage_idx: build.stage_idx,
      status: "created",
      when: build.when,
      allow_failure: build.allow_failure,
      commands: build.commands,
      options: build.options,
      yaml_variables: build.yaml_variables,
      tag_list: build.tag_list,
      ref: build.ref,
      tag: build.tag,
      sha: build.sha,
      user_id: userId,
    },
  ]);
  if (!copy) throw new Error("the retried build was not written");
  const enqueued = await moveBuild(tx, changes, copy, "pending", ["created"]);
  for (const later of await tx.ciBuilds.ofPipeline(build.pipeline_id)) {
    if (!later.retried && later.stage_idx > build.stage_idx && later.status === "skipped") {
      await tx.ciBuilds.update(later.id, { status: "created", finished_at: null }, ["skipped"]);
    }
  }
  await processOf(tx, changes, copy);
  return enqueued ?? copy;
}

/** Plays a manual build: `pending`, for the user who played it; 400 `Unplayable Build` otherwise. */
export function playBuild(runtime: ServiceRuntime, build: CiBuild, userId: number): Promise<CiBuild> {
  return ciTransaction(runtime, async (tx, changes) => {
    const moved = await moveBuild(tx, changes, build, "pending", ["manual"], { user_id: userId });
    if (!moved) throw new DomainError({ kind: "bad_request", reason: "build_not_playable" });
    await processOf(tx, changes, moved);
    return moved;
  });
}

/**
 * Erases a finished build's trace and artifacts, recording who (8.x's `erase`); 403 `Build is not
 * erasable!` for a build still running or with nothing to erase.
 */
export async function eraseBuild(runtime: ServiceRuntime, build: CiBuild, userId: number): Promise<CiBuild> {
  const erasable = isFinished(build.status) && (build.trace_size > 0 || build.artifacts_file !== null);
  if (!erasable || build.erased_at !== null)
    throw new DomainError({ kind: "forbidden", reason: "build_not_erasable" });
  const erased = await runtime.stores.ciBuilds.update(build.id, {
    trace_size: 0,
    erased_at: new Date().toISOString(),
    erased_by_id: userId,
  });
  await removeFile(buildFilePath(runtime, build, "trace.log"));
  return removeArtifacts(runtime, erased ?? build);
}

/** Keeps a build's artifacts from expiring; 404 when it has none. */
export async function keepArtifacts(runtime: ServiceRuntime, build: CiBuild): Promise<CiBuild> {
  if (build.artifacts_file === null) throw notFound();
  return (await runtime.stores.ciBuilds.update(build.id, { artifacts_expire_at: null })) ?? build;
}
