import type { Note, NoteableType, Page, PageRequest } from "@kiln/domain";
import { type Kysely, type Selectable, sql } from "kysely";
import type { Database, NotesTable } from "../database.js";
import { flag, now, paginate } from "../queries.js";

const toNote = (row: Selectable<NotesTable>): Note => ({
  ...row,
  noteable_type: row.noteable_type as NoteableType,
  system: row.system === 1,
});

/** An issue or merge request, as notes point at it. */
export interface Noteable {
  type: NoteableType;
  id: number;
}

/**
 * What a new note is made of. `created_at` is for the administrators and owners GitLab lets set it
 * (the update time is still now, as in GitLab) and for notes a move copies with their dates; both
 * default to now.
 */
export type NewNote = Omit<Note, "id" | "created_at" | "updated_at"> & {
  created_at?: string | undefined;
  updated_at?: string | undefined;
};

/** Notes (comments and system notes) on issues and merge requests. */
export class NoteStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** A note by id. */
  async findById(id: number): Promise<Note | undefined> {
    const row = await this.db.selectFrom("notes").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toNote(row);
  }

  /** Notes by id. */
  async findByIds(ids: readonly number[]): Promise<Map<number, Note>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("notes")
      .selectAll()
      .where("id", "in", [...new Set(ids)])
      .execute();
    return new Map(rows.map((row) => [row.id, toNote(row)]));
  }

  /** Adds a note. */
  async create(note: NewNote): Promise<Note> {
    const at = now();
    const row = await this.db
      .insertInto("notes")
      .values({
        ...note,
        system: flag(note.system),
        created_at: note.created_at ?? at,
        updated_at: note.updated_at ?? at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toNote(row);
  }

  /** Changes a note's body (and attachment); undefined when there is no such note. */
  async update(
    id: number,
    patch: { body?: string | undefined; attachment?: string | null | undefined },
  ): Promise<Note | undefined> {
    const values: { body?: string; attachment?: string | null; updated_at: string } = { updated_at: now() };
    if (patch.body !== undefined) values.body = patch.body;
    if (patch.attachment !== undefined) values.attachment = patch.attachment;
    const row = await this.db
      .updateTable("notes")
      .set(values)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    return row && toNote(row);
  }

  /** Deletes a note (and the todos that point at it). True if it existed. */
  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom("notes").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** One page of the notes of an issue or merge request, system notes included, oldest first. */
  async list(noteable: Noteable, page: PageRequest): Promise<Page<Note>> {
    const query = this.db
      .selectFrom("notes")
      .selectAll()
      .where("noteable_type", "=", noteable.type)
      .where("noteable_id", "=", noteable.id)
      .orderBy("id", "asc");
    const { rows, total } = await paginate(this.db, query, page, "capped");
    return { items: rows.map(toNote), page: page.page, perPage: page.perPage, total };
  }

  /** The users who wrote notes (not system notes) on an issue or merge request, in order of first note. */
  async authors(noteable: Noteable): Promise<number[]> {
    const rows = await this.db
      .selectFrom("notes")
      .select(["author_id", sql<number>`min(id)`.as("first")])
      .where("noteable_type", "=", noteable.type)
      .where("noteable_id", "=", noteable.id)
      .where("system", "=", 0)
      .where("author_id", "is not", null)
      .groupBy("author_id")
      .orderBy("first")
      .execute();
    return rows.map((row) => row.author_id as number);
  }
}
