import { expect, it } from "vitest";
import { forEachDialect } from "../__tests__/harness.js";
import type { DomainEvent } from "../domain-events.js";

forEachDialect((h) => {
  it("raises a NoteEvent once the note is committed, none for a refused note or an edit", async () => {
    const alice = await h().user("alice");
    const me = h().as(alice);
    const { project } = await me.projects.create({ name: "noted" });
    const issue = await me.issues.create({ id: project.id, title: "Talk" });
    const seen: { event: DomainEvent; stored: boolean }[] = [];
    h().runtime.events.subscribe(async (event) => {
      if (event.kind !== "note") return;
      seen.push({ event, stored: (await h().runtime.stores.notes.findById(event.noteId)) !== undefined });
    });

    const { note } = await me.issueNotes.create({ id: project.id, issue_id: issue.issue.id, body: "Hello" });
    await expect
      .poll(() => seen)
      .toEqual([
        {
          event: {
            kind: "note",
            projectId: project.id,
            userId: alice.id,
            noteId: note.id,
            noteableType: "Issue",
            noteableId: issue.issue.id,
          },
          stored: true,
        },
      ]);

    await expect(me.issueNotes.create({ id: project.id, issue_id: 999_999, body: "Lost" })).rejects.toThrow();
    await me.issueNotes.update({
      id: project.id,
      issue_id: issue.issue.id,
      note_id: note.id,
      body: "Edited",
    });
    expect(seen).toHaveLength(1);
  });
});
