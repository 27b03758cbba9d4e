import { DomainError, notFound } from "@kiln/domain";
import { LiveEventJson } from "@kiln/schemas";
import type { OutboxEvent } from "@kiln/storage-kysely";
import { requireBuild } from "../ci/build-access.js";
import { buildView, pipelineViews } from "../ci/views.js";
import {
  type BuildEvent,
  domainEventOf,
  type MergeRequestEvent,
  type PipelineEvent,
} from "../domain-events.js";
import { requireMergeRequest } from "../issuables/access.js";
import { mergeRequestView } from "../issuables/views.js";
import type { SignedInContext } from "../operation.js";
import { presentBuild, presentPipeline } from "../presenters/ci.js";
import { presentMergeRequest } from "../presenters/issuables.js";
import type { PresentContext } from "../presenters/present-context.js";
import { requireProject } from "../projects/access.js";

/** What one stream carries besides the caller's merge requests. */
export interface LiveFilter {
  /** The projects whose pipelines and builds it carries. */
  projects: ReadonlySet<number>;
}

/** True when the merge request concerns the user: they opened it or are assigned to it. */
const involves = (
  ctx: SignedInContext,
  mergeRequest: { author_id: number | null; assignee_id: number | null },
) => mergeRequest.author_id === ctx.actor.user.id || mergeRequest.assignee_id === ctx.actor.user.id;

const presentContext = (ctx: SignedInContext): PresentContext => ({
  baseUrl: ctx.runtime.baseUrl,
  actor: ctx.actor,
});

async function mergeRequestEvent(ctx: SignedInContext, event: MergeRequestEvent) {
  const found = await ctx.runtime.stores.mergeRequests.findById(event.mergeRequestId);
  if (!found || !involves(ctx, found)) return null;
  const { mergeRequest } = await requireMergeRequest(ctx, event.projectId, event.mergeRequestId);
  const view = await mergeRequestView(ctx, mergeRequest);
  return {
    kind: "merge_request",
    action: event.action,
    merge_request: presentMergeRequest(view, presentContext(ctx)),
  } as const;
}

/** As `GET …/pipelines/:id` reads it. */
async function pipelineEvent(ctx: SignedInContext, event: PipelineEvent) {
  const { project } = await requireProject(ctx, event.projectId, "read_pipeline");
  const pipeline = await ctx.runtime.stores.ciPipelines.findInProject(project.id, event.pipelineId);
  if (!pipeline) throw notFound("pipeline");
  const [view] = await pipelineViews(ctx.runtime, [pipeline]);
  if (!view) throw notFound("pipeline");
  return {
    kind: "pipeline",
    project_id: project.id,
    pipeline: presentPipeline(view, presentContext(ctx)),
  } as const;
}

/** As `GET …/builds/:id` reads it (an external commit status is no build there). */
async function buildEvent(ctx: SignedInContext, event: BuildEvent) {
  const { project, build } = await requireBuild(ctx, { id: event.projectId, build_id: event.buildId });
  const view = await buildView(ctx.runtime, project, build);
  return { kind: "build", project_id: project.id, build: presentBuild(view, presentContext(ctx)) } as const;
}

/**
 * What the caller is told of an outbox event, or null when it does not concern them or they may
 * not see it: the same read rule as the GET of what it names (what the caller may not read is
 * never mentioned), answered as that route answers it now.
 */
export async function liveEventOf(
  ctx: SignedInContext,
  row: OutboxEvent,
  filter: LiveFilter,
): Promise<LiveEventJson | null> {
  const event = domainEventOf(row);
  let answer: LiveEventJson | null;
  try {
    if (event.kind === "merge_request") answer = await mergeRequestEvent(ctx, event);
    else if (event.kind === "pipeline" && filter.projects.has(event.projectId))
      answer = await pipelineEvent(ctx, event);
    else if (event.kind === "build" && filter.projects.has(event.projectId))
      answer = await buildEvent(ctx, event);
    else return null;
  } catch (error) {
    if (DomainError.is(error)) return null; // unreadable, or gone meanwhile
    throw error;
  }
  // Parsed as the other procedures' answers are: the public shape and nothing else.
  return answer && LiveEventJson.parse(answer);
}
