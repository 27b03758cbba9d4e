import type { Note, ProjectEvent, User } from "@kiln/domain";
import type { Stores } from "@kiln/storage-kysely";

/** A note with its author (null once the account is deleted, presented as GitLab's ghost user). */
export interface NoteView {
  note: Note;
  author: User | null;
}

/** The views of many notes, with one query for their authors, in the order given. */
export async function noteViews(stores: Stores, notes: readonly Note[]): Promise<NoteView[]> {
  const authors = await stores.users.findByIds(notes.flatMap((note) => note.author_id ?? []));
  return notes.map((note) => ({
    note,
    author: note.author_id === null ? null : (authors.get(note.author_id) ?? null),
  }));
}

/** The view of one note. */
export async function noteView(stores: Stores, note: Note): Promise<NoteView> {
  const [view] = await noteViews(stores, [note]);
  return view as NoteView;
}

/**
 * The notes that comment events point at (`target_type` "Note"), by event id, for the `note`
 * those events show. Events whose note was deleted since have none.
 */
export async function eventNotes(
  stores: Stores,
  events: readonly Pick<ProjectEvent, "id" | "target_type" | "target_id">[],
): Promise<Map<number, NoteView>> {
  const noteIdOf = (event: (typeof events)[number]) =>
    event.target_type === "Note" && event.target_id !== null ? event.target_id : null;
  const notes = await stores.notes.findByIds(events.flatMap((event) => noteIdOf(event) ?? []));
  const views = new Map((await noteViews(stores, [...notes.values()])).map((view) => [view.note.id, view]));
  const byEvent = new Map<number, NoteView>();
  for (const event of events) {
    const view = views.get(noteIdOf(event) ?? 0);
    if (view) byEvent.set(event.id, view);
  }
  return byEvent;
}
