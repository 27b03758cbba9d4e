import { forbidden, type Note, notFound, type User } from "@kiln/domain";
import type { Context } from "../context.js";
import type { Noteable } from "./noteables.js";

/** The note `noteId` of `noteable`: `404 Note Not Found` when missing or on another issue or merge request. */
export async function requireNoteOf(ctx: Context, noteable: Noteable, noteId: number): Promise<Note> {
  const note = await ctx.runtime.stores.notes.findById(noteId);
  if (!note || note.noteable_type !== noteable.type || note.noteable_id !== noteable.target.id) {
    throw notFound("note");
  }
  return note;
}

/**
 * Throws 403 unless `user` may edit or delete `note`: its author, masters and above
 * (`admin_note`), and administrators, as GitLab 8.x's note policy says.
 */
export function checkMayAdminNote(noteable: Noteable, note: Note, user: User): void {
  if (note.author_id === user.id || noteable.access.allows("admin_note")) return;
  throw forbidden();
}
