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
import { SharedReads } from "./shared-reads.js";

/** What one stream carries besides the caller's merge requests. */
export interface LiveFilter {
  /** The projects whose pipelines and builds it carries. */
  projects: ReadonlySet<number>;
}

/** What a stream works out of one event: its caller, what it follows, and the reads all streams share. */
interface Reading {
  ctx: SignedInContext;
  filter: LiveFilter;
  shared: SharedReads;
}

/** True when the merge request concerns the caller: they opened it, are assigned to it or watch it. */
async function involves(
  { ctx, shared }: Reading,
  mergeRequest: { id: number; author_id: number | null; assignee_id: number | null },
): Promise<boolean> {
  const { id } = ctx.actor.user;
  if (mergeRequest.author_id === id || mergeRequest.assignee_id === id) return true;
  return (await shared.watchers(mergeRequest.id)).has(id);
}

const presentContext = (ctx: SignedInContext): PresentContext => ({
  baseUrl: ctx.runtime.baseUrl,
  actor: ctx.actor,
});

/** A merge request as `GET …/merge_requests/:id` reads it, when it concerns the caller. */
async function mergeRequestChange(
  reading: Reading,
  projectId: number,
  mergeRequestId: number,
  action: MergeRequestEvent["action"],
) {
  const { ctx } = reading;
  const found = await reading.shared.mergeRequest(mergeRequestId);
  if (!found || !(await involves(reading, found))) return null;
  const { mergeRequest } = await requireMergeRequest(ctx, projectId, mergeRequestId);
  const view = await mergeRequestView(ctx, mergeRequest);
  return {
    kind: "merge_request",
    action,
    merge_request: presentMergeRequest(view, presentContext(ctx)),
  } as const;
}

/** The open merge requests from a branch of a project that concern the caller. */
async function involvedFrom(reading: Reading, projectId: number, branch: string) {
  const open = await reading.shared.openFromBranch(projectId, branch);
  const concerned = await Promise.all(open.map((mergeRequest) => involves(reading, mergeRequest)));
  return open.filter((_, index) => concerned[index]);
}

/** A push moved the head of the caller's merge requests from that branch: each, as it is now. */
async function pushEvents(reading: Reading, event: PushEvent) {
  if (!event.ref.startsWith("refs/heads/")) return [];
  const moved = await involvedFrom(reading, event.projectId, event.ref.slice("refs/heads/".length));
  const changes: LiveEventJson[] = [];
  for (const mergeRequest of moved) {
    const change = await readable(() =>
      mergeRequestChange(reading, mergeRequest.project_id, mergeRequest.id, "update"),
    );
    if (change) changes.push(change);
  }
  return changes;
}

/**
 * As `GET …/pipelines/:id` reads it: of a project the stream follows, or of the source branch of
 * a merge request that concerns the caller (its pipeline status).
 */
async function pipelineEvent(reading: Reading, event: PipelineEvent) {
  const { ctx } = reading;
  const pipeline = await reading.shared.pipeline(event.projectId, event.pipelineId);
  if (!pipeline) return null;
  if (!reading.filter.projects.has(event.projectId)) {
    if ((await involvedFrom(reading, event.projectId, pipeline.ref)).length === 0) return null;
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
  // Their target was deleted with them: as the owner saw them then, all that is left of them.
  if (event.gone) return event.gone.map((todo) => ({ kind: "todo", action: event.action, todo }));
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
async function changesOf(reading: Reading, row: OutboxEvent): Promise<unknown[]> {
  const { ctx, filter } = reading;
  const event = domainEventOf(row);
  const one = async <T>(read: () => Promise<T | null>) => {
    const answer = await readable(read);
    return answer ? [answer] : [];
  };
  switch (event.kind) {
    case "merge_request":
      return one(() => mergeRequestChange(reading, event.projectId, event.mergeRequestId, event.action));
    case "merge_status":
      return one(() => mergeRequestChange(reading, event.projectId, event.mergeRequestId, "update"));
    case "todo":
      return todoEvents(ctx, event);
    case "push":
      return pushEvents(reading, event);
    case "pipeline":
      return one(() => pipelineEvent(reading, event));
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
 * answered as that route answers it now. `shared` holds what the streams of the process read of
 * this event whoever they serve (the hub's, for the events it keeps in memory).
 */
export async function liveEventsOf(
  ctx: SignedInContext,
  row: OutboxEvent,
  filter: LiveFilter,
  shared: SharedReads = new SharedReads(ctx.runtime.stores),
): Promise<LiveEventJson[]> {
  // Parsed as the other procedures' answers are: the public shape and nothing else.
  return (await changesOf({ ctx, filter, shared }, row)).map((change) => LiveEventJson.parse(change));
}
