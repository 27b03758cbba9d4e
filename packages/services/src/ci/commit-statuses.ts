import { badRequest, DomainError, type Project } from "@kiln/domain";
import { branchesContaining } from "@kiln/git";
import type { CommitStatusState, CreateCommitStatusInput } from "@kiln/schemas";
import type { CiBuild, CiPipeline, Stores } from "@kiln/storage-kysely";
import { repositoryOf } from "../repositories/access.js";
import type { ServiceRuntime } from "../runtime.js";
import { type CiChanges, ciTransaction } from "./changes.js";
import { type BuildStatus, type PipelineStatus, pipelineStatusOf } from "./contract.js";
import { moveBuild, processPipeline } from "./status.js";

/** The stage 8.x gives external statuses. */
const EXTERNAL_STAGE = "external";
/**
 * Past every stage a `.gitlab-ci.yml` can have: an external status never holds back the builds of
 * its pipeline (8.x leaves its `stage_idx` empty, which no stage comparison matches).
 */
const EXTERNAL_STAGE_INDEX = 1_000_000;

/** A state machine event of 8.x's CommitStatus: its name, the statuses it leaves and where it goes. */
interface StatusEvent {
  name: string;
  from: readonly BuildStatus[];
  to: BuildStatus;
}

const ENQUEUE: StatusEvent = { name: "enqueue", from: ["created"], to: "pending" };
const RUN: StatusEvent = { name: "run", from: ["pending"], to: "running" };
const FINISHING = ["created", "pending", "running"] as const;

/**
 * The events each posted state fires, as 8.x's `POST /statuses/:sha`: `running` enqueues first
 * where it can (and only the run must succeed).
 */
const EVENTS: Record<CommitStatusState, { optional?: StatusEvent; required: StatusEvent }> = {
  pending: { required: ENQUEUE },
  running: { optional: ENQUEUE, required: RUN },
  success: { required: { name: "success", from: FINISHING, to: "success" } },
  failed: { required: { name: "drop", from: FINISHING, to: "failed" } },
  canceled: { required: { name: "cancel", from: FINISHING, to: "canceled" } },
};

/** What a status is posted with, its defaults applied. */
interface PostedStatus {
  project: Project;
  sha: string;
  ref: string;
  name: string;
  state: CommitStatusState;
  userId: number;
  targetUrl: string | null;
  description: string | null;
}

/** The ref a status is for: the one given, else the first branch holding the commit (404 for none). */
export async function refOfStatus(
  runtime: ServiceRuntime,
  project: Project,
  sha: string,
  ref: string | undefined,
): Promise<string> {
  if (ref !== undefined) return ref;
  const [first] = await branchesContaining(await repositoryOf(runtime, project), sha);
  if (first === undefined) throw new DomainError({ kind: "not_found", reason: "commit_refs_not_found" });
  return first;
}

/** 8.x's `ensure_pipeline`: the newest pipeline of the commit for the ref, or a new one (`external`). */
async function ensurePipeline(tx: Stores, posted: PostedStatus): Promise<CiPipeline> {
  const pipelines = await tx.ciPipelines.forSha(posted.project.id, posted.sha);
  const existing = pipelines.find((pipeline) => pipeline.ref === posted.ref);
  if (existing) return existing;
  return tx.ciPipelines.create({
    project_id: posted.project.id,
    ref: posted.ref,
    tag: false,
    sha: posted.sha,
    before_sha: null,
    status: "created",
    source: "external",
    yaml_errors: null,
    user_id: posted.userId,
    trigger_variables: null,
  });
}

/**
 * The status the post moves: a pending or running one of the same name, ref, user, link and
 * description (8.x's `running_or_pending.find_or_initialize_by`), else a new one in `created`,
 * which replaces the older statuses of that name as the pipeline's latest.
 */
async function statusToMove(tx: Stores, pipeline: CiPipeline, posted: PostedStatus): Promise<CiBuild> {
  const sameName = (await tx.ciBuilds.ofPipeline(pipeline.id)).filter(
    (build) => build.type === "generic" && build.name === posted.name && !build.retried,
  );
  const reusable = sameName.find(
    (build) =>
      (build.status === "pending" || build.status === "running") &&
      build.ref === posted.ref &&
      build.user_id === posted.userId &&
      build.target_url === posted.targetUrl &&
      build.description === posted.description,
  );
  if (reusable) return reusable;
  for (const older of sameName) await tx.ciBuilds.update(older.id, { retried: 1 });
  const [made] = await tx.ciBuilds.createMany([
    {
      pipeline_id: pipeline.id,
      project_id: posted.project.id,
      type: "generic",
      name: posted.name,
      stage: EXTERNAL_STAGE,
      stage_idx: EXTERNAL_STAGE_INDEX,
      status: "created",
      allow_failure: false,
      options: {},
      yaml_variables: [],
      tag_list: [],
      ref: posted.ref,
      tag: false,
      sha: posted.sha,
      user_id: posted.userId,
      target_url: posted.targetUrl,
      description: posted.description,
    },
  ]);
  if (!made) throw new Error("a commit status was not stored");
  return made;
}

/** Fires one event on the status: 400 with 8.x's state machine message when it cannot. */
async function fire(tx: Stores, changes: CiChanges, status: CiBuild, event: StatusEvent): Promise<CiBuild> {
  const moved = event.from.includes(status.status as BuildStatus)
    ? await moveBuild(
        tx,
        changes,
        status,
        event.to,
        event.from,
        event.to === "running" ? { started_at: new Date().toISOString() } : {},
      )
    : undefined;
  if (!moved) throw badRequest({ reason: "status_transition", from: status.status, to: event.name });
  return moved;
}

/**
 * `POST /projects/:id/statuses/:sha` (8.x's GenericCommitStatus): creates or moves the status in
 * the pipeline of the commit and ref (made if missing), then sets the pipeline's status from its
 * builds and statuses, in one transaction that records the build and pipeline events.
 */
export function postCommitStatus(runtime: ServiceRuntime, posted: PostedStatus): Promise<CiBuild> {
  return ciTransaction(runtime, async (tx, changes) => {
    const pipeline = await ensurePipeline(tx, posted);
    let status = await statusToMove(tx, pipeline, posted);
    const { optional, required } = EVENTS[posted.state];
    if (optional?.from.includes(status.status as BuildStatus)) {
      status = await fire(tx, changes, status, optional);
    }
    status = await fire(tx, changes, status, required);
    await processPipeline(tx, changes, pipeline);
    return status;
  });
}

/** The posted status of an API call, with 8.x's defaults (`name`, else `context`, else `default`). */
export function postedStatus(
  input: CreateCommitStatusInput,
  project: Project,
  sha: string,
  ref: string,
  userId: number,
): PostedStatus {
  return {
    project,
    sha,
    ref,
    name: input.name ?? input.context ?? "default",
    state: input.state,
    userId,
    targetUrl: input.target_url ?? null,
    description: input.description ?? null,
  };
}

/**
 * 8.x's `commit.status` (RepoCommitDetail, badges): the status formula over the newest pipeline
 * of each ref of the commit, with no allowed failures at that level; null when it has none.
 */
export async function commitStatusOf(
  stores: Stores,
  projectId: number,
  sha: string,
): Promise<PipelineStatus | null> {
  const refs = new Set<string>();
  const newest = (await stores.ciPipelines.forSha(projectId, sha)).filter(
    (pipeline) => !refs.has(pipeline.ref) && refs.add(pipeline.ref),
  );
  if (newest.length === 0) return null;
  return pipelineStatusOf(
    newest.map((pipeline) => ({ status: pipeline.status as BuildStatus, allowFailure: false })),
  );
}
