import { pageRequest } from "@kiln/domain";
import {
  CreateIssueNoteInput,
  CreateMergeRequestCommentInput,
  CreateMergeRequestNoteInput,
  IssueNoteRefInput,
  ListIssueNotesInput,
  ListMergeRequestCommentsInput,
  ListMergeRequestNotesInput,
  MergeRequestNoteRefInput,
  UpdateIssueNoteInput,
  UpdateMergeRequestNoteInput,
} from "@kiln/schemas";
import { mutation, query } from "../operation.js";
import type { NoteablePath } from "./noteables.js";
import { addNote, editNote, getNote, listNotes, removeNote } from "./use-cases.js";

const onIssue = (input: { id: string | number; issue_id: number }): NoteablePath => ({
  type: "Issue",
  ref: input.id,
  noteableId: input.issue_id,
});

const onMergeRequest = (input: { id: string | number; merge_request_id: number }): NoteablePath => ({
  type: "MergeRequest",
  ref: input.id,
  noteableId: input.merge_request_id,
});

/**
 * Notes (comments) on issues, `/projects/:id/issues/:issue_id/notes`. Reading needs the issue
 * readable (confidential issues of others are 404), writing `create_note`; editing and deleting
 * are for the note's author, masters and administrators.
 */
export const issueNotes = {
  /** The issue's notes, system notes included, oldest first. */
  list: query("signed_in", ListIssueNotesInput, (ctx, input) =>
    listNotes(ctx, onIssue(input), pageRequest(input)),
  ),

  /** One note: `404 Note Not Found` when the issue has no such note. */
  get: query("signed_in", IssueNoteRefInput, (ctx, input) => getNote(ctx, onIssue(input), input.note_id)),

  /** Adds the caller's note. */
  create: mutation("signed_in", CreateIssueNoteInput, (ctx, input) =>
    addNote(ctx, onIssue(input), input.body, input.created_at),
  ),

  /** Changes a note's body. */
  update: mutation("signed_in", UpdateIssueNoteInput, (ctx, input) =>
    editNote(ctx, onIssue(input), input.note_id, input.body),
  ),

  /** Deletes a note; answers it. */
  remove: mutation("signed_in", IssueNoteRefInput, (ctx, input) =>
    removeNote(ctx, onIssue(input), input.note_id),
  ),
};

/** The same on merge requests, `/projects/:id/merge_requests/:merge_request_id/notes`. */
export const mergeRequestNotes = {
  /** The merge request's notes, system notes included, oldest first. */
  list: query("signed_in", ListMergeRequestNotesInput, (ctx, input) =>
    listNotes(ctx, onMergeRequest(input), pageRequest(input)),
  ),

  /** One note. */
  get: query("signed_in", MergeRequestNoteRefInput, (ctx, input) =>
    getNote(ctx, onMergeRequest(input), input.note_id),
  ),

  /** Adds the caller's note. */
  create: mutation("signed_in", CreateMergeRequestNoteInput, (ctx, input) =>
    addNote(ctx, onMergeRequest(input), input.body, input.created_at),
  ),

  /** Changes a note's body. */
  update: mutation("signed_in", UpdateMergeRequestNoteInput, (ctx, input) =>
    editNote(ctx, onMergeRequest(input), input.note_id, input.body),
  ),

  /** Deletes a note; answers it. */
  remove: mutation("signed_in", MergeRequestNoteRefInput, (ctx, input) =>
    removeNote(ctx, onMergeRequest(input), input.note_id),
  ),
};

// The comments are merge request routes: one the caller may not read is 403 there, as GitLab
// 8.13+'s `authorize! :read_merge_request` answers, where the note routes hide it (404).
const commentsOn = (input: { id: string | number; merge_request_id: number }): NoteablePath => ({
  ...onMergeRequest(input),
  unreadable: "forbidden",
});

/**
 * GitLab 8.x's deprecated merge request comments, `…/merge_requests/:merge_request_id/comments`:
 * the same notes (system notes included, oldest first), with the text in `note`.
 */
export const mergeRequestComments = {
  /** The merge request's notes as comments. */
  list: query("signed_in", ListMergeRequestCommentsInput, (ctx, input) =>
    listNotes(ctx, commentsOn(input), pageRequest(input)),
  ),

  /** Adds the caller's note. */
  create: mutation("signed_in", CreateMergeRequestCommentInput, (ctx, input) =>
    addNote(ctx, commentsOn(input), input.note),
  ),
};
