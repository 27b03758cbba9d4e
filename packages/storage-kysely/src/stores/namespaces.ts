import type { Selectable } from "kysely";
import { type Kysely, sql } from "kysely";
import type { Database, NamespacesTable } from "../database.js";
import { guardUnique } from "../errors.js";
import { now } from "../queries.js";

/** A namespace row as read. */
export type NamespaceRow = Selectable<NamespacesTable>;

/** Namespaces: the path space shared by users and groups. */
export class NamespaceStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** True when a user or group already holds this path, ignoring case. */
  async pathTaken(path: string, exceptId?: number): Promise<boolean> {
    let query = this.db
      .selectFrom("namespaces")
      .select("id")
      .where(sql`lower(path)`, "=", path.toLowerCase());
    if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  /** Creates the personal namespace of a user. */
  async createForUser(userId: number, username: string, name: string): Promise<NamespaceRow> {
    const at = now();
    return guardUnique(() =>
      this.db
        .insertInto("namespaces")
        .values({ name, path: username, kind: "user", owner_id: userId, created_at: at, updated_at: at })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  }

  /** The personal namespace of a user. */
  async findForUser(userId: number): Promise<NamespaceRow | undefined> {
    return this.db
      .selectFrom("namespaces")
      .selectAll()
      .where("owner_id", "=", userId)
      .where("kind", "=", "user")
      .executeTakeFirst();
  }

  /** Follows a username change: the personal namespace takes the new path and name. */
  async renameForUser(userId: number, username: string, name: string): Promise<void> {
    await guardUnique(() =>
      this.db
        .updateTable("namespaces")
        .set({ path: username, name, updated_at: now() })
        .where("owner_id", "=", userId)
        .where("kind", "=", "user")
        .execute(),
    );
  }
}
