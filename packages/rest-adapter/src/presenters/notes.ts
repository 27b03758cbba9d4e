import type { MergeRequestCommentJson, NoteJson } from "@kiln/schemas";
import type { NoteView } from "@kiln/services";
import type { PresentContext } from "../route.js";
import { presentAuthor } from "./issuables.js";

/** A note, alone, in lists and inside comment events. Votes are award emoji now: always false. */
export function presentNote({ note, author }: NoteView, context: PresentContext): NoteJson {
  return {
    id: note.id,
    body: note.body,
    attachment: note.attachment,
    author: presentAuthor(author, context),
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: note.system,
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    upvote: false,
    downvote: false,
  };
}

/** A note as GitLab 8.x's deprecated merge request comments show it: the text and the author. */
export function presentMergeRequestComment(
  { note, author }: NoteView,
  context: PresentContext,
): MergeRequestCommentJson {
  return { note: note.body, author: presentAuthor(author, context) };
}
