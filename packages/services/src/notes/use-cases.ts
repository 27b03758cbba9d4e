import type { Page, PageRequest } from "@kiln/domain";
import { maySetTimestamps, timestampOf } from "../issuables/timestamps.js";
import type { SignedInContext } from "../operation.js";
import { createNote, deleteNote, updateNote } from "./changes.js";
import { checkMayAdminNote, requireNoteOf } from "./find.js";
import { type NoteablePath, requireNoteable } from "./noteables.js";
import { type NoteView, noteView, noteViews } from "./views.js";

// The steps shared by every family of note routes (issue notes, merge request notes and the
// deprecated merge request comments); the operations only name their parameters.

/** One page of a noteable's notes, system notes included, oldest first. */
export async function listNotes(
  ctx: SignedInContext,
  path: NoteablePath,
  page: PageRequest,
): Promise<Page<NoteView>> {
  const noteable = await requireNoteable(ctx, path);
  const notes = await ctx.runtime.stores.notes.list({ type: noteable.type, id: noteable.target.id }, page);
  return { ...notes, items: await noteViews(ctx.runtime.stores, notes.items) };
}

/** One note of a readable noteable. */
export async function getNote(ctx: SignedInContext, path: NoteablePath, noteId: number): Promise<NoteView> {
  const noteable = await requireNoteable(ctx, path);
  return noteView(ctx.runtime.stores, await requireNoteOf(ctx, noteable, noteId));
}

/**
 * Adds the caller's note (`create_note`: guests and up, anyone signed in on public and internal
 * projects). `createdAt` is honoured for administrators and the project's owner only.
 */
export async function addNote(
  ctx: SignedInContext,
  path: NoteablePath,
  body: string,
  createdAt?: string,
): Promise<NoteView> {
  const noteable = await requireNoteable(ctx, path, "create_note");
  const { user } = ctx.actor;
  const dated = createdAt !== undefined && maySetTimestamps(noteable.access);
  return createNote(ctx, noteable, user, { body, createdAt: dated ? timestampOf(createdAt) : undefined });
}

/** Changes a note's body: its author, masters and administrators; others 403. */
export async function editNote(
  ctx: SignedInContext,
  path: NoteablePath,
  noteId: number,
  body: string,
): Promise<NoteView> {
  const { noteable, note } = await requireAdministrableNote(ctx, path, noteId);
  return updateNote(ctx, noteable, note, ctx.actor.user, body);
}

/** Deletes a note (the same people as {@link editNote}); answers it as it was. */
export async function removeNote(
  ctx: SignedInContext,
  path: NoteablePath,
  noteId: number,
): Promise<NoteView> {
  const { noteable, note } = await requireAdministrableNote(ctx, path, noteId);
  return deleteNote(ctx, noteable, note);
}

/** A note the caller may edit or delete (its author, masters and administrators), with what it is on. */
async function requireAdministrableNote(ctx: SignedInContext, path: NoteablePath, noteId: number) {
  const noteable = await requireNoteable(ctx, path);
  const note = await requireNoteOf(ctx, noteable, noteId);
  checkMayAdminNote(noteable, note, ctx.actor.user);
  return { noteable, note };
}
