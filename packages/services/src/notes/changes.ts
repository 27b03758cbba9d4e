import { EventAction, type Note, type User } from "@kiln/domain";
import type { Context } from "../context.js";
import { type NoteEvent, recordDomainEvent } from "../domain-events.js";
import { recordEvent } from "../events.js";
import { mentionTodos } from "../issuables/todos.js";
import { finishTodos } from "../todos/changes.js";
import { type Noteable, touchNoteable } from "./noteables.js";
import { type NoteView, noteView } from "./views.js";

/** What a new note says, and when it was written if the caller may backdate it. */
export interface NewNoteText {
  body: string;
  createdAt?: string | undefined;
}

/**
 * Writes a user's note on `noteable`, with what GitLab 8.x does alongside, all in one transaction:
 * a "commented on" entry in the project's feed, "mentioned" todos for the `@users` it names, the
 * writer's own pending todos on the noteable done, the noteable's `updated_at` touched, and the
 * NoteEvent in the outbox (announced in-process once committed).
 */
export async function createNote(
  ctx: Context,
  noteable: Noteable,
  user: User,
  text: NewNoteText,
): Promise<NoteView> {
  const { stores } = ctx.runtime;
  const note = await stores.transaction(async (tx) => {
    const created = await tx.notes.create({
      project_id: noteable.target.project_id,
      noteable_type: noteable.type,
      noteable_id: noteable.target.id,
      author_id: user.id,
      body: text.body,
      attachment: null,
      system: false,
      created_at: text.createdAt,
    });
    await recordEvent(tx, {
      projectId: created.project_id,
      authorId: user.id,
      action: EventAction.COMMENTED,
      // GitLab's feed shows a note's own title there, which notes do not have.
      target: { type: "Note", id: created.id, title: null },
    });
    await finishTodos(tx, { type: noteable.type, id: noteable.target.id }, { userIds: [user.id] });
    await mentionTodos(tx, noteable, user, created.body, { noteId: created.id });
    await touchNoteable(tx, noteable);
    await recordDomainEvent(tx, noteEvent(created, user));
    return created;
  });
  ctx.runtime.events.emit(noteEvent(note, user));
  return noteView(stores, note);
}

/**
 * Changes a note's body; people it newly mentions get todos, and the noteable is touched. System
 * notes are not editable: GitLab 8.x answers them unchanged.
 */
export async function updateNote(
  ctx: Context,
  noteable: Noteable,
  note: Note,
  user: User,
  body: string,
): Promise<NoteView> {
  const { stores } = ctx.runtime;
  if (note.system) return noteView(stores, note);
  const updated = await stores.transaction(async (tx) => {
    const changed = (await tx.notes.update(note.id, { body })) ?? note;
    await mentionTodos(tx, noteable, user, body, { previousText: note.body, noteId: note.id });
    await touchNoteable(tx, noteable);
    return changed;
  });
  return noteView(stores, updated);
}

/** Deletes a note (its todos go with it) and touches the noteable; answers the note as it was. */
export async function deleteNote(ctx: Context, noteable: Noteable, note: Note): Promise<NoteView> {
  const { stores } = ctx.runtime;
  const view = await noteView(stores, note);
  await stores.transaction(async (tx) => {
    await tx.notes.delete(note.id);
    await touchNoteable(tx, noteable);
  });
  return view;
}

/** The domain event of a new user note. */
function noteEvent(note: Note, user: User): NoteEvent {
  return {
    kind: "note",
    projectId: note.project_id,
    userId: user.id,
    noteId: note.id,
    noteableType: note.noteable_type,
    noteableId: note.noteable_id,
  };
}
