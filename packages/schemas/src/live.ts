import { z } from "zod";
import { BuildJson, PipelineJson } from "./ci-json.js";
import { MergeRequestJson } from "./merge-requests.js";
import { Id } from "./primitives.js";
import { TodoJson } from "./todos.js";

/** The most projects one stream follows the pipelines and builds of. */
export const MAX_FOLLOWED_PROJECTS = 100;

/**
 * `live.events`: from just after the event named by `lastEventId` (a reconnect), else from now on;
 * with the pipelines and builds of the `projects` named (those the editor works on).
 */
export const LiveEventsInput = z
  .object({
    lastEventId: z
      .string()
      .regex(/^\d{1,15}$/)
      .nullish(),
    projects: z.array(Id).max(MAX_FOLLOWED_PROJECTS).optional(),
  })
  .optional();
export type LiveEventsInput = z.infer<typeof LiveEventsInput>;

/** What was done to a merge request. */
export const MergeRequestAction = z.enum(["open", "update", "close", "reopen", "merge"]);

/** What became of a todo: made for the user, or marked done (by them, or as its target closed). */
export const TodoChange = z.enum(["created", "done"]);

/**
 * One change on the live stream: a merge request the user opened, is assigned to or watches was
 * opened, changed (its `merge_status` too), closed, reopened or merged, with the merge request as
 * `GET …/merge_requests/:id` shows it to them now; one of their todos was created or marked done,
 * as `GET /todos` shows it; or a pipeline or build of a followed project changed status, with the
 * pipeline or build as `GET …/pipelines/:id` or `GET …/builds/:id` shows it to them now.
 */
export const LiveEventJson = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("merge_request"), action: MergeRequestAction, merge_request: MergeRequestJson }),
  z.object({ kind: z.literal("todo"), action: TodoChange, todo: TodoJson }),
  z.object({ kind: z.literal("pipeline"), project_id: Id, pipeline: PipelineJson }),
  z.object({ kind: z.literal("build"), project_id: Id, build: BuildJson }),
]);
export type LiveEventJson = z.infer<typeof LiveEventJson>;
