import { z } from "zod";
import { TimeParam } from "./issuables.js";
import { PaginationParams } from "./pagination.js";
import { Id, Timestamp } from "./primitives.js";
import { ProjectRef } from "./projects.js";
import { UserBasic } from "./users.js";

// Notes hang under `/projects/:id/issues/:issue_id/notes` and
// `/projects/:id/merge_requests/:merge_request_id/notes`: the route table names a path parameter
// the same way at the same place, so each family has its own inputs (and its own operations).

// ---------------------------------------------------------------------------------------- input

/** The text of a note: not blank (slash commands and award emoji bodies are the operation's). */
const NoteBody = z.string().refine((body) => body.trim().length > 0, { error: "can't be blank" });

/** `GET /projects/:id/issues/:issue_id/notes`: system notes included, in creation order. */
export const ListIssueNotesInput = PaginationParams.extend({ id: ProjectRef, issue_id: Id });
export type ListIssueNotesInput = z.infer<typeof ListIssueNotesInput>;

/** Routes that name one note of an issue. */
export const IssueNoteRefInput = z.object({ id: ProjectRef, issue_id: Id, note_id: Id });
export type IssueNoteRefInput = z.infer<typeof IssueNoteRefInput>;

/** `POST /projects/:id/issues/:issue_id/notes`. */
export const CreateIssueNoteInput = z.object({
  id: ProjectRef,
  issue_id: Id,
  body: NoteBody,
  /** Honoured for administrators and project owners only. */
  created_at: TimeParam.optional(),
});
export type CreateIssueNoteInput = z.infer<typeof CreateIssueNoteInput>;

/** `PUT /projects/:id/issues/:issue_id/notes/:note_id` (the note's author, or masters). */
export const UpdateIssueNoteInput = z.object({ id: ProjectRef, issue_id: Id, note_id: Id, body: NoteBody });
export type UpdateIssueNoteInput = z.infer<typeof UpdateIssueNoteInput>;

/** `GET /projects/:id/merge_requests/:merge_request_id/notes`. */
export const ListMergeRequestNotesInput = PaginationParams.extend({ id: ProjectRef, merge_request_id: Id });
export type ListMergeRequestNotesInput = z.infer<typeof ListMergeRequestNotesInput>;

/** Routes that name one note of a merge request. */
export const MergeRequestNoteRefInput = z.object({ id: ProjectRef, merge_request_id: Id, note_id: Id });
export type MergeRequestNoteRefInput = z.infer<typeof MergeRequestNoteRefInput>;

/** `POST /projects/:id/merge_requests/:merge_request_id/notes`. */
export const CreateMergeRequestNoteInput = z.object({
  id: ProjectRef,
  merge_request_id: Id,
  body: NoteBody,
  /** Honoured for administrators and project owners only. */
  created_at: TimeParam.optional(),
});
export type CreateMergeRequestNoteInput = z.infer<typeof CreateMergeRequestNoteInput>;

/** `PUT /projects/:id/merge_requests/:merge_request_id/notes/:note_id`. */
export const UpdateMergeRequestNoteInput = z.object({
  id: ProjectRef,
  merge_request_id: Id,
  note_id: Id,
  body: NoteBody,
});
export type UpdateMergeRequestNoteInput = z.infer<typeof UpdateMergeRequestNoteInput>;

// --------------------------------------------------------------------------------------- output

/** What a note is attached to, by GitLab's class name. */
export const NoteableType = z.enum(["Issue", "MergeRequest"]);
export type NoteableType = z.infer<typeof NoteableType>;

/**
 * A note (comment), in GitLab 8.15's order; it is also the `note` of a comment event. `noteable_id`
 * is the issue's or merge request's global id; `upvote` and `downvote` are always false since
 * votes became award emoji.
 */
export const NoteJson = z.object({
  id: Id,
  body: z.string(),
  /** The uploaded file's name, or null. */
  attachment: z.string().nullable(),
  author: UserBasic,
  created_at: Timestamp,
  updated_at: Timestamp,
  /** True for the notes Kiln writes itself ("closed", "assigned to @x", ...). */
  system: z.boolean(),
  noteable_id: Id,
  noteable_type: NoteableType,
  upvote: z.boolean(),
  downvote: z.boolean(),
});
export type NoteJson = z.infer<typeof NoteJson>;
