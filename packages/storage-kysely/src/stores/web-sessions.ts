import type { Kysely } from "kysely";
import type { Database, WebSessionsTable } from "../database.js";
import { now } from "../queries.js";

/** A signed-in browser, as its store answers it (the cookie's digest stays in the table). */
export type WebSession = Omit<WebSessionsTable, "id" | "session_digest"> & { id: number };

/** What a new session is made of. */
export type NewWebSession = Omit<WebSessionsTable, "id" | "created_at" | "last_seen_at">;

const COLUMNS = [
  "id",
  "user_id",
  "csrf_token",
  "address",
  "user_agent",
  "created_at",
  "last_seen_at",
] as const;

/** Web sessions: created at sign-in, found by the cookie's digest, ended one by one or all at once. */
export class WebSessionStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a new session, seen now. */
  async create(session: NewWebSession): Promise<WebSession> {
    const at = now();
    return this.db
      .insertInto("web_sessions")
      .values({ ...session, created_at: at, last_seen_at: at })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
  }

  /** The session whose cookie has this digest, or undefined. */
  async findByDigest(digest: string): Promise<WebSession | undefined> {
    return this.db
      .selectFrom("web_sessions")
      .select(COLUMNS)
      .where("session_digest", "=", digest)
      .executeTakeFirst();
  }

  /** Records that the session was used at `at` (ISO 8601). */
  async touch(id: number, at: string): Promise<void> {
    await this.db.updateTable("web_sessions").set({ last_seen_at: at }).where("id", "=", id).execute();
  }

  /** The sessions of a user used since `activeSince` (ISO 8601), most recently used first. */
  async listForUser(userId: number, activeSince: string): Promise<WebSession[]> {
    return this.db
      .selectFrom("web_sessions")
      .select(COLUMNS)
      .where("user_id", "=", userId)
      .where("last_seen_at", ">=", activeSince)
      .orderBy("last_seen_at", "desc")
      .orderBy("id", "desc")
      .execute();
  }

  /** Ends one session of a user (another user's is left alone). True if it existed. */
  async delete(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom("web_sessions")
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Ends every session of a user but `exceptId`, if given; answers how many ended. */
  async deleteForUser(userId: number, exceptId?: number): Promise<number> {
    let query = this.db.deleteFrom("web_sessions").where("user_id", "=", userId);
    if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Removes the sessions last used before `cutoff` (ISO 8601); answers how many. */
  async deleteIdleSince(cutoff: string): Promise<number> {
    const result = await this.db
      .deleteFrom("web_sessions")
      .where("last_seen_at", "<", cutoff)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
