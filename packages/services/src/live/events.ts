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
  type PushEvent,
  type TodoEvent,
} from "../domain-events.js";
import { requireMergeRequest } from "../issuables/access.js";
import { mergeRequestView } from "../issuables/views.js";
import type { SignedInContext } from "../operation.js";
import { presentBuild, presentPipeline } from "../presenters/ci.js";
import { presentMergeRequest } from "../presenters/issuables.js";
import type { PresentContext } from "../presenters/present-context.js";
import { presentTodo } from "../presenters/todos.js";
import { requireProject } from "../projects/access.js";
import { readableTodoViews } from "../todos/readability.js";

/** What one stream carries besides the caller's merge requests. */
export interface LiveFilter {
  /** The projects whose pipelines and builds it carries. */
  projects: ReadonlySet<number>;
}

/** True when the merge request concerns the user: they opened it, are assigned to it or watch it. */
async function involves(
  ctx: SignedInContext,
  mergeRequest: { id: number; author_id: number | null; assignee_id: number | null },
): Promise<boolean> {
  const { id } = ctx.actor.user;
  if (mergeRequest.author_id === id || mergeRequest.assignee_id === id) return true;
  return (
    (await ctx.runtime.stores.subscriptions.get(id, { type: "MergeRequest", id: mergeRequest.id })) === true
  );
}

const presentContext = (ctx: SignedInContext): PresentContext => ({
  baseUrl: ctx.runtime.baseUrl,
  actor: ctx.actor,
});

/** A merge request as `GET …/merge_requests/:id` reads it, when it concerns the caller. */
async function mergeRequestChange(
  ctx: SignedInContext,
  projectId: number,
  mergeRequestId: number,
  action: MergeRequestEvent["action"],
) {
  const found = await ctx.runtime.stores.mergeRequests.findById(mergeRequestId);
  if (!found || !(await involves(ctx, found))) return null;
  const { mergeRequest } = await requireMergeRequest(ctx, projectId, mergeRequestId);
  const view = await mergeRequestView(ctx, mergeRequest);
  return {
    kind: "merge_request",
    action,
    merge_request: presentMergeRequest(view, presentContext(ctx)),
  } as const;
}

/** The open merge requests from a branch of a project that concern the caller. */
async function involvedFrom(ctx: SignedInContext, projectId: number, branch: string) {
  const open = await ctx.runtime.stores.mergeRequests.openFromBranch(projectId, branch);
  const concerned = await Promise.all(open.map((mergeRequest) => involves(ctx, mergeRequest)));
  return open.filter((_, index) => concerned[index]);
}

/** A push moved the head of the caller's merge requests from that branch: each, as it is now. */
async function pushEvents(ctx: SignedInContext, event: PushEvent) {
  if (!event.ref.startsWith("refs/heads/")) return [];
  const moved = await involvedFrom(ctx, event.projectId, event.ref.slice("refs/heads/".length));
  const changes: LiveEventJson[] = [];
  for (const mergeRequest of moved) {
    const change = await readable(() =>
      mergeRequestChange(ctx, mergeRequest.project_id, mergeRequest.id, "update"),
    );
    if (change) changes.push(change);
  }
  return changes;
}

/**
 * As `GET …/pipelines/:id` reads it: of a project the stream follows, or of the source branch of
 * a merge request that concerns the caller (its pipeline status).
 */
async function pipelineEvent(ctx: SignedInContext, event: PipelineEvent, filter: LiveFilter) {
  const pipeline = await ctx.runtime.stores.ciPipelines.findInProject(event.projectId, event.pipelineId);
  if (!pipeline) return null;
  if (!filter.projects.has(event.projectId)) {
    if ((await involvedFrom(ctx, event.projectId, pipeline.ref)).length === 0) return null;
  }
  const { project } = await requireProject(ctx, event.projectId, "read_pipeline");
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

/** The caller's own todos an event names, as `GET /todos` shows them (those they may still read). */
async function todoEvents(ctx: SignedInContext, event: TodoEvent) {
  const { user } = ctx.actor;
  if (event.userId !== user.id) return [];
  const todos = await ctx.runtime.stores.todos.findOwnByIds(user.id, event.todoIds);
  const views = await readableTodoViews(ctx, user, todos);
  return views.map((view) => ({
    kind: "todo",
    action: event.action,
    todo: presentTodo(view, presentContext(ctx)),
  }));
}

/** What `read` answers, or null when the caller may not read it (or it is gone meanwhile). */
async function readable<T>(read: () => Promise<T | null>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (DomainError.is(error)) return null;
    throw error;
  }
}

/** The changes an outbox event makes to what the caller sees (see {@link liveEventsOf}). */
async function changesOf(ctx: SignedInContext, row: OutboxEvent, filter: LiveFilter): Promise<unknown[]> {
  const event = domainEventOf(row);
  const one = async <T>(read: () => Promise<T | null>) => {
    const answer = await readable(read);
    return answer ? [answer] : [];
  };
  switch (event.kind) {
    case "merge_request":
      return one(() => mergeRequestChange(ctx, event.projectId, event.mergeRequestId, event.action));
    case "merge_status":
      return one(() => mergeRequestChange(ctx, event.projectId, event.mergeRequestId, "update"));
    case "todo":
      return todoEvents(ctx, event);
    case "push":
      return pushEvents(ctx, event);
    case "pipeline":
      return one(() => pipelineEvent(ctx, event, filter));
    case "build":
      return filter.projects.has(event.projectId) ? one(() => buildEvent(ctx, event)) : [];
    default:
      return [];
  }
}

/**
 * What the caller is told of an outbox event (usually one change, none when it does not concern
 * them or they may not see it; a push tells of each of their merge requests from its branch): the
 * same read rule as the GET of what it names (what the caller may not read is never mentioned),
 * answered as that route answers it now.
 */
export async function liveEventsOf(
  ctx: SignedInContext,
  row: OutboxEvent,
  filter: LiveFilter,
): Promise<LiveEventJson[]> {
  // Parsed as the other procedures' answers are: the public shape and nothing else.
  return (await changesOf(ctx, row, filter)).map((change) => LiveEventJson.parse(change));
}
