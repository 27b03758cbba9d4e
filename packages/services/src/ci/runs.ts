import { notFound } from "@kiln/domain";
import type { CiBuild } from "@kiln/storage-kysely";
import type { ServiceRuntime } from "../runtime.js";
import { requireBuildByToken } from "./build-auth.js";
import { ciTransaction } from "./changes.js";
import { buildFilePath, readUpTo, writeAt } from "./files.js";
import { requireRunner } from "./runners.js";
import { moveBuild, processPipeline } from "./status.js";

/** The largest trace kept, in bytes: what comes past it is dropped (the runner notes the cut). */
export const MAX_TRACE_BYTES = 32 * 1024 * 1024;

/** How often an idle build's trace updates touch it at most: 8.x's 15 minutes. */
const TOUCH_EVERY_MS = 15 * 60 * 1000;

/** Appends and replacements of one build's trace in this process, one at a time. */
const traceLocks = new Map<number, Promise<unknown>>();

function serially<T>(buildId: number, work: () => Promise<T>): Promise<T> {
  const previous = traceLocks.get(buildId) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.catch(() => undefined);
  traceLocks.set(buildId, settled);
  void settled.then(() => {
    if (traceLocks.get(buildId) === settled) traceLocks.delete(buildId);
  });
  return next;
}

/** What a runner reports with `PUT /ci/api/v1/builds/:id`. */
export interface BuildReport {
  /** `success` or `failed` ends the build; anything else only updates the trace. */
  state?: string | undefined;
  /** The whole trace so far, replacing what was kept. */
  trace?: string | undefined;
}

/**
 * A runner's report on a build it runs (8.x's `PUT /builds/:id`): the trace replaced, and on
 * `success` or `failed` the build finished and its pipeline processed (the next stage enqueued,
 * its status updated). 403 for an unknown runner token; 404 unless the build is running on this
 * runner.
 */
export async function reportBuild(
  runtime: ServiceRuntime,
  runnerToken: string | undefined,
  buildId: number,
  report: BuildReport,
): Promise<CiBuild> {
  const runner = await requireRunner(runtime, runnerToken);
  const build = await runtime.stores.ciBuilds.find(buildId);
  if (build?.runner_id !== runner.id || build.status !== "running") throw notFound();
  if (report.trace !== undefined) await replaceTrace(runtime, build, Buffer.from(report.trace, "utf8"));
  if (report.state !== "success" && report.state !== "failed") return build;
  return finishBuild(runtime, build, report.state);
}

/** Ends a running build and processes its pipeline, in one transaction. */
export function finishBuild(
  runtime: ServiceRuntime,
  build: CiBuild,
  to: "success" | "failed",
): Promise<CiBuild> {
  return ciTransaction(runtime, async (tx, changes) => {
    const moved = await moveBuild(tx, changes, build, to, ["running"]);
    if (!moved) return build;
    const pipeline = await tx.ciPipelines.find(moved.pipeline_id);
    if (pipeline) await processPipeline(tx, changes, pipeline);
    return moved;
  });
}

function replaceTrace(runtime: ServiceRuntime, build: CiBuild, bytes: Buffer): Promise<void> {
  return serially(build.id, async () => {
    const current = await runtime.stores.ciBuilds.find(build.id);
    if (!current) return;
    const kept = bytes.subarray(0, MAX_TRACE_BYTES);
    await writeAt(buildFilePath(runtime, build, "trace.log"), 0, kept);
    await runtime.stores.ciBuilds.update(build.id, { trace_size: kept.length });
  });
}

/** The outcome of an append: where the trace ends now, or the range expected instead. */
export type TraceAppend =
  | { appended: true; size: number; status: string }
  | { appended: false; size: number; status: string };

/**
 * Appends to a running build's trace at `start` (8.x's `PATCH /builds/:id/trace.txt`): `start`
 * must be where the trace ends, else nothing is written and the answer says where it ends (416).
 * The build token is required; a build no longer running keeps its trace and says its status (a
 * canceled build's runner learns it so). Past {@link MAX_TRACE_BYTES} the bytes are dropped.
 */
export async function appendTrace(
  runtime: ServiceRuntime,
  buildId: number,
  token: string | undefined,
  start: number,
  bytes: Buffer,
): Promise<TraceAppend> {
  const build = await requireBuildByToken(runtime, buildId, token);
  return serially(build.id, async () => {
    const current = (await runtime.stores.ciBuilds.find(build.id)) ?? build;
    if (start !== current.trace_size)
      return { appended: false, size: current.trace_size, status: current.status };
    if (current.status !== "running")
      return { appended: true, size: current.trace_size, status: current.status };
    const kept = bytes.subarray(0, Math.max(0, MAX_TRACE_BYTES - start));
    if (kept.length === 0) {
      await keepAlive(runtime, current);
      return { appended: true, size: start, status: current.status };
    }
    await writeAt(buildFilePath(runtime, build, "trace.log"), start, kept);
    const moved = await runtime.stores.ciBuilds.moveTraceSize(build.id, start, start + kept.length);
    const size = moved
      ? start + kept.length
      : ((await runtime.stores.ciBuilds.find(build.id))?.trace_size ?? start);
    return { appended: moved, size, status: current.status };
  });
}

/**
 * Adds a line of the server's to the end of a finished build's trace (why it was ended), after
 * whatever its runner sent; nothing when the trace is full.
 */
export function noteInTrace(runtime: ServiceRuntime, buildId: number, line: string): Promise<void> {
  return serially(buildId, async () => {
    const build = await runtime.stores.ciBuilds.find(buildId);
    if (!build || build.status === "running") return;
    const start = build.trace_size;
    const note = Buffer.from(`${start > 0 ? "\n" : ""}${line}\n`, "utf8");
    if (start + note.length > MAX_TRACE_BYTES) return;
    await writeAt(buildFilePath(runtime, build, "trace.log"), start, note);
    await runtime.stores.ciBuilds.moveTraceSize(build.id, start, start + note.length);
  });
}

/**
 * Marks a running build whose runner sends nothing new as alive (an idle job's empty trace
 * updates), at most every {@link TOUCH_EVERY_MS}, so that the janitor does not take it for stuck.
 */
async function keepAlive(runtime: ServiceRuntime, build: CiBuild): Promise<void> {
  if (Date.now() - Date.parse(build.updated_at) < TOUCH_EVERY_MS) return;
  await runtime.stores.ciBuilds.update(build.id, {}, ["running"]);
}

/** A build's trace as recorded (empty when it has none or was erased). */
export async function readTrace(runtime: ServiceRuntime, build: CiBuild): Promise<Buffer> {
  if (build.erased_at !== null || build.trace_size === 0) return Buffer.alloc(0);
  return readUpTo(buildFilePath(runtime, build, "trace.log"), build.trace_size);
}
