import { TODO_STATES, TODO_TARGET_TYPES } from "@kiln/domain";
import { z } from "zod";
import { IssueJson } from "./issues.js";
import { MergeRequestJson } from "./merge-requests.js";
import { PaginationParams } from "./pagination.js";
import { Id, Timestamp } from "./primitives.js";
import { BasicProjectDetails } from "./project-entities.js";
import { UserBasic } from "./users.js";

// ---------------------------------------------------------------------------------------- input

/**
 * Why a todo exists, by GitLab's name. `approval_required` is GitLab EE's; it is accepted as a
 * filter (the spec lists it) and matches nothing.
 */
export const TodoAction = z.enum(["assigned", "mentioned", "build_failed", "marked", "approval_required"]);
export type TodoAction = z.infer<typeof TodoAction>;

/** A todo's state: `pending` until done (by the user, or when its target is closed or merged). */
export const TodoState = z.enum(TODO_STATES);
export type TodoState = z.infer<typeof TodoState>;

/** What a todo is about, by GitLab's class name. */
export const TodoTargetType = z.enum(TODO_TARGET_TYPES);
export type TodoTargetType = z.infer<typeof TodoTargetType>;

/** `GET /todos`: the caller's todos, newest first; with no filter, the pending ones. */
export const ListTodosInput = PaginationParams.extend({
  action: TodoAction.optional(),
  /** GitLab's stored number of `action` (1 assigned, 2 mentioned, 3 build_failed, 4 marked, 5 approval_required). */
  action_id: z.number().int().optional(),
  author_id: Id.optional(),
  project_id: Id.optional(),
  state: TodoState.default("pending"),
  type: TodoTargetType.optional(),
});
export type ListTodosInput = z.infer<typeof ListTodosInput>;

/** `DELETE /todos/:id`: marks one of the caller's todos done. */
export const TodoRefInput = z.object({ id: Id });
export type TodoRefInput = z.infer<typeof TodoRefInput>;

// --------------------------------------------------------------------------------------- output

/** Builds one todo shape per target type, so that `target` follows `target_type`. */
function todoOf<T extends "Issue" | "MergeRequest", S extends z.ZodType>(type: T, target: S) {
  return z.object({
    id: Id,
    project: BasicProjectDetails,
    author: UserBasic,
    action_name: TodoAction,
    target_type: z.literal(type),
    target: target,
    /** The target's page, with `#note_<id>` when a note mentioned the user. */
    target_url: z.string(),
    /** The mentioning note's text, else the target's title. */
    body: z.string(),
    state: TodoState,
    created_at: Timestamp,
  });
}

/** A todo about an issue. */
export const IssueTodoJson = todoOf("Issue", IssueJson);
export type IssueTodoJson = z.infer<typeof IssueTodoJson>;

/** A todo about a merge request. */
export const MergeRequestTodoJson = todoOf("MergeRequest", MergeRequestJson);
export type MergeRequestTodoJson = z.infer<typeof MergeRequestTodoJson>;

/**
 * A todo, in GitLab 8.15's order: `project` is the short project form, `target` the full issue or
 * merge request as the caller would see it.
 */
export const TodoJson = z.discriminatedUnion("target_type", [IssueTodoJson, MergeRequestTodoJson]);
export type TodoJson = z.infer<typeof TodoJson>;

/** What `DELETE /todos` answers: a bare number, how many todos it marked done. */
export const TodosMarkedDoneJson = z.number().int().min(0);
export type TodosMarkedDoneJson = z.infer<typeof TodosMarkedDoneJson>;
