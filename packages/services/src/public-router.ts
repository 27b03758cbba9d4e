import { mapPage, nextPageOf, type Page } from "@kiln/domain";
import {
  BlobContentJson,
  BuildJson,
  BuildTraceJson,
  IssueJson,
  LatestPipelineJson,
  LiveEventsInput,
  MergeRequestChangesJson,
  MergeRequestJson,
  OAuthRedirectJson,
  type PageJson,
  PipelineBuildsJson,
  PipelineJson,
  ProjectJson,
  pageOf,
  TodoJson,
  TodosMarkedDoneJson,
  UserPublic,
} from "@kiln/schemas";
import { builds } from "./ci/builds.operations.js";
import { ciFollow } from "./ci/follow.operations.js";
import { pipelines } from "./ci/pipelines.operations.js";
import type { Context } from "./context.js";
import { issues } from "./issues/operations.js";
import { liveStream } from "./live/stream.js";
import { mergeRequests } from "./merge-requests/operations.js";
import { oauth } from "./oauth/authorize.operations.js";
import {
  type PresentContext,
  presentBuild,
  presentIssue,
  presentMergeRequest,
  presentMergeRequestChanges,
  presentPipeline,
  presentProject,
  presentTodo,
  presentUserPublic,
} from "./presenters/index.js";
import { projects } from "./projects/operations.js";
import { repository } from "./repositories/operations.js";
import { todos } from "./todos/operations.js";
import { presentedProcedure, router, signedInSubscription } from "./trpc.js";
import { users } from "./users/operations.js";

/** What the presenters need of a call's context: the server's public URL and the caller. */
const presentContext = (ctx: Context): PresentContext => ({ baseUrl: ctx.runtime.baseUrl, actor: ctx.actor });

/** Presents one result with a presenter of the shared shapes. */
const one =
  <T, J>(present: (item: T, context: PresentContext) => J) =>
  (item: T, ctx: Context): J =>
    present(item, presentContext(ctx));

/** Presents a page: each item as `present` does, with where the list goes on. */
const page =
  <T, J>(present: (item: T, context: PresentContext) => J) =>
  (result: Page<T>, ctx: Context): PageJson<J> => {
    const context = presentContext(ctx);
    const { items, perPage, total } = mapPage(result, (item) => present(item, context));
    return { items, page: result.page, per_page: perPage, total, next_page: nextPageOf(result) };
  };

const IssuePage = pageOf(IssueJson);
const MergeRequestPage = pageOf(MergeRequestJson);
const ProjectPage = pageOf(ProjectJson);
const TodoPage = pageOf(TodoJson);

/**
 * The procedures served over HTTP at `/api/trpc`, for clients outside the process (`@kiln/client`,
 * the editor extension): each runs the same operation as its v3 route, with the same permissions,
 * and answers the same public shape (output schemas of `@kiln/schemas`, presented by the same
 * presenters), never an internal view. Inputs are the operations' own. The whole
 * {@link appRouter} stays in process: a use case joins this router once it has a public shape.
 */
export const publicRouter = router({
  users: router({
    /** The signed-in user (`GET /user`). */
    me: presentedProcedure(users.me, UserPublic, ({ user }, ctx) =>
      presentUserPublic(user, presentContext(ctx)),
    ),
  }),
  oauth: router({
    /**
     * The signed-in user approves an OAuth authorization request (the query of `/oauth/authorize`):
     * where to send the browser, with the code or an error for the client (as the consent page does).
     */
    approve: presentedProcedure(oauth.approve, OAuthRedirectJson, (answer) => answer),
    /** The signed-in user denies it: where to send the browser, with `error=access_denied`. */
    deny: presentedProcedure(oauth.deny, OAuthRedirectJson, (answer) => answer),
  }),
  todos: router({
    /** A page of the caller's todos, newest first; pending ones unless `state` says (`GET /todos`). */
    list: presentedProcedure(todos.list, TodoPage, page(presentTodo)),
    /** Marks one of the caller's todos done (`DELETE /todos/:id`). */
    markDone: presentedProcedure(todos.markDone, TodoJson, one(presentTodo)),
    /** Marks all the caller's pending todos done; answers how many (`DELETE /todos`). */
    markAllDone: presentedProcedure(todos.markAllDone, TodosMarkedDoneJson, (count) => count),
  }),
  mergeRequests: router({
    /** The caller's merge requests across projects, opened by them or assigned to them. */
    mine: presentedProcedure(mergeRequests.listMine, MergeRequestPage, page(presentMergeRequest)),
    /** A project's merge requests (`GET /projects/:id/merge_requests`). */
    list: presentedProcedure(mergeRequests.list, MergeRequestPage, page(presentMergeRequest)),
    /** One merge request, its `merge_status` checked first (`GET …/merge_requests/:id`). */
    get: presentedProcedure(mergeRequests.get, MergeRequestJson, one(presentMergeRequest)),
    /** One merge request with the diff of each file it changes (`GET …/changes`). */
    changes: presentedProcedure(
      mergeRequests.changes,
      MergeRequestChangesJson,
      one(presentMergeRequestChanges),
    ),
    /** Accepts (merges) a merge request, refused when the source moved past `sha` (`PUT …/merge`). */
    accept: presentedProcedure(mergeRequests.accept, MergeRequestJson, one(presentMergeRequest)),
  }),
  projects: router({
    /** The projects the caller is a member of (`GET /projects`). */
    list: presentedProcedure(projects.list, ProjectPage, page(presentProject)),
    /** Every project the caller may read (`GET /projects/visible`). */
    visible: presentedProcedure(projects.visible, ProjectPage, page(presentProject)),
    /** One project (`GET /projects/:id`). */
    get: presentedProcedure(projects.get, ProjectJson, one(presentProject)),
  }),
  repository: router({
    /** The file at `filepath` in the commit `sha` names, as base64 (`GET …/repository/blobs/:sha`). */
    blob: presentedProcedure(repository.blobAtCommit, BlobContentJson, (blob) => ({
      id: blob.id,
      size: blob.size,
      encoding: "base64" as const,
      content: blob.content.toString("base64"),
    })),
  }),
  issues: router({
    /** The issues the caller opened, across projects (`GET /issues`). */
    mine: presentedProcedure(issues.listMine, IssuePage, page(presentIssue)),
    /** A project's issues (`GET /projects/:id/issues`). */
    list: presentedProcedure(issues.listForProject, IssuePage, page(presentIssue)),
  }),
  pipelines: router({
    /** The latest pipeline of a branch or tag: its head's newest one, or null (`pipeline_for(ref)`). */
    latest: presentedProcedure(ciFollow.latestPipeline, LatestPipelineJson, (view, ctx) =>
      view ? presentPipeline(view, presentContext(ctx)) : null,
    ),
    /** One pipeline (`GET /projects/:id/pipelines/:pipeline_id`). */
    get: presentedProcedure(pipelines.get, PipelineJson, one(presentPipeline)),
    /** A pipeline's builds, the latest of each name, in stage order (as `GET …/builds` shows each). */
    builds: presentedProcedure(ciFollow.pipelineBuilds, PipelineBuildsJson, (views, ctx) => {
      const context = presentContext(ctx);
      return views.map((view) => presentBuild(view, context));
    }),
  }),
  builds: router({
    /** One build (`GET /projects/:id/builds/:build_id`). */
    get: presentedProcedure(builds.get, BuildJson, one(presentBuild)),
    /** A build's trace from a byte offset on, to follow it while it runs (`GET …/trace` from there). */
    trace: presentedProcedure(ciFollow.traceFrom, BuildTraceJson, (piece) => ({
      id: piece.build.id,
      status: piece.build.status as BuildTraceJson["status"],
      offset: piece.offset,
      next_offset: piece.nextOffset,
      content: piece.content,
      complete: piece.complete,
    })),
    /** Retries a finished build; answers the new build (`POST …/builds/:build_id/retry`). */
    retry: presentedProcedure(builds.retry, BuildJson, one(presentBuild)),
    /** Cancels a build that has not finished (`POST …/builds/:build_id/cancel`). */
    cancel: presentedProcedure(builds.cancel, BuildJson, one(presentBuild)),
  }),
  live: router({
    /**
     * The caller's live stream (server-sent events): changes to merge requests they opened or are
     * assigned to and may read (their head moved by a push, their source branch's pipelines), and
     * status changes of the pipelines and builds of the `projects` they follow and may read the
     * builds of; resumable with `lastEventId`.
     */
    events: signedInSubscription(LiveEventsInput, liveStream),
  }),
});

/** The type of {@link publicRouter}: what `@kiln/client` imports, as a type only. */
export type PublicRouter = typeof publicRouter;
