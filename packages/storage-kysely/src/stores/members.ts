import type { AccessLevel, Membership, Page, PageRequest, User } from "@kiln/domain";
import { type Kysely, sql } from "kysely";
import type { Database } from "../database.js";
import { guardUnique } from "../errors.js";
import { containsIgnoringCase, now, paginate } from "../queries.js";
import { toUser, USER_COLUMNS } from "./users.js";

/** Which membership table: a project's or a group's. */
type Source = { table: "project_members"; key: "project_id" } | { table: "group_members"; key: "group_id" };

const SOURCES = {
  project: { table: "project_members", key: "project_id" },
  group: { table: "group_members", key: "group_id" },
} as const satisfies Record<string, Source>;

/** A member: the user and their membership. */
export interface Member {
  user: User;
  membership: Membership;
}

/** Memberships of projects or of groups (one store per kind: `stores.projectMembers`, `stores.groupMembers`). */
export class MemberStore {
  readonly #source: Source;

  constructor(
    private readonly db: Kysely<Database>,
    kind: keyof typeof SOURCES,
  ) {
    this.#source = SOURCES[kind];
  }

  // The two tables have the same shape; Kysely cannot see that through a union of table names.
  private get table() {
    return this.#source.table as "project_members";
  }

  private get key() {
    return this.#source.key as "project_id";
  }

  private toMembership(
    row: { access_level: number; created_at: string; user_id: number } & Record<string, unknown>,
  ): Membership {
    return {
      source_id: row[this.#source.key] as number,
      user_id: row.user_id,
      access_level: row.access_level as AccessLevel,
      created_at: row.created_at,
    };
  }

  /** The membership of one user, or undefined. */
  async find(sourceId: number, userId: number): Promise<Membership | undefined> {
    const row = await this.db
      .selectFrom(this.table)
      .selectAll()
      .where(this.key, "=", sourceId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row && this.toMembership(row);
  }

  /** One member with their user. */
  async findMember(sourceId: number, userId: number): Promise<Member | undefined> {
    const page = await this.list(sourceId, { userId }, { page: 1, perPage: 1 });
    return page.items[0];
  }

  /** One page of members by user id, with their users; `query` matches username or name. */
  async list(
    sourceId: number,
    filter: { query?: string | undefined; userId?: number | undefined },
    page: PageRequest,
  ): Promise<Page<Member>> {
    let query = this.db
      .selectFrom(`${this.table} as m`)
      .innerJoin("users", "users.id", "m.user_id")
      .select(USER_COLUMNS.map((column) => `users.${column}` as const))
      .select(["m.access_level as m_access_level", "m.created_at as m_created_at"])
      .where(`m.${this.key}`, "=", sourceId)
      .orderBy("m.user_id", "asc");
    if (filter.userId !== undefined) query = query.where("m.user_id", "=", filter.userId);
    if (filter.query) {
      const text = filter.query;
      query = query.where((eb) =>
        eb.or([
          containsIgnoringCase(this.db, sql.ref("users.username"), text),
          containsIgnoringCase(this.db, sql.ref("users.name"), text),
        ]),
      );
    }
    const { rows, total } = await paginate(this.db, query, page, "exact");
    const items = rows.map(({ m_access_level, m_created_at, ...user }) => ({
      user: toUser(user),
      membership: {
        source_id: sourceId,
        user_id: user.id,
        access_level: m_access_level as AccessLevel,
        created_at: m_created_at,
      },
    }));
    return { items, page: page.page, perPage: page.perPage, total };
  }

  /** Adds a membership; raises UniqueViolation when the user is a member already. */
  async add(sourceId: number, userId: number, accessLevel: AccessLevel): Promise<Membership> {
    const at = now();
    const row = await guardUnique(() =>
      this.db
        .insertInto(this.table)
        .values({
          [this.key]: sourceId,
          user_id: userId,
          access_level: accessLevel,
          created_at: at,
          updated_at: at,
        } as never)
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return this.toMembership(row);
  }

  /** Changes a member's level; undefined if they are not a member. */
  async setLevel(
    sourceId: number,
    userId: number,
    accessLevel: AccessLevel,
  ): Promise<Membership | undefined> {
    const row = await this.db
      .updateTable(this.table)
      .set({ access_level: accessLevel, updated_at: now() })
      .where(this.key, "=", sourceId)
      .where("user_id", "=", userId)
      .returningAll()
      .executeTakeFirst();
    return row && this.toMembership(row);
  }

  /** Removes a membership. True if there was one. */
  async remove(sourceId: number, userId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom(this.table)
      .where(this.key, "=", sourceId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** How many members hold exactly this level (to keep the last owner of a group). */
  async countAtLevel(sourceId: number, accessLevel: AccessLevel): Promise<number> {
    const row = await this.db
      .selectFrom(this.table)
      .select(sql<number | string>`count(*)`.as("n"))
      .where(this.key, "=", sourceId)
      .where("access_level", "=", accessLevel)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The user's levels in many sources at once: source id → level. */
  async levelsOf(userId: number, sourceIds: readonly number[]): Promise<Map<number, AccessLevel>> {
    if (sourceIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom(this.table)
      .select([`${this.key} as source_id`, "access_level"])
      .where("user_id", "=", userId)
      .where(this.key, "in", [...new Set(sourceIds)])
      .execute();
    return new Map(rows.map((row) => [row.source_id as number, row.access_level as AccessLevel]));
  }
}
