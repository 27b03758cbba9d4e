import type { Group, Namespace, Page, PageRequest } from "@kiln/domain";
import { type Kysely, sql } from "kysely";
import type { Database } from "../database.js";
import { guardUnique } from "../errors.js";
import {
  containsIgnoringCase,
  definedOnly,
  flag,
  lowered,
  now,
  paginate,
  ReusedStatement,
  withBooleans,
} from "../queries.js";

const toNamespace = (row: Record<string, unknown>): Namespace =>
  withBooleans<Namespace>(row, ["share_with_group_lock"]);

/** A namespace by id: on the path of every project route (see ReusedStatement). */
const NAMESPACE_BY_ID = new ReusedStatement(
  (db, id: number) => db.selectFrom("namespaces").selectAll().where("id", "=", id).compile(),
  (id) => [id],
);

/** Fields of a group that can be set. */
export interface GroupFields {
  name: string;
  path: string;
  description: string;
  visibility_level: number;
}

/** Namespaces: the path space shared by users' personal namespaces and groups. */
export class NamespaceStore {
  constructor(private readonly db: Kysely<Database>) {}

  private select() {
    return this.db.selectFrom("namespaces").selectAll();
  }

  /** True when a user or group already holds this path, ignoring case. */
  async pathTaken(path: string, exceptId?: number): Promise<boolean> {
    let query = this.db.selectFrom("namespaces").select("id").where(sql`lower(path)`, "=", lowered(path));
    if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  /** Creates the personal namespace of a user. */
  async createForUser(userId: number, username: string, name: string): Promise<Namespace> {
    const at = now();
    const row = await guardUnique(() =>
      this.db
        .insertInto("namespaces")
        .values({ name, path: username, kind: "user", owner_id: userId, created_at: at, updated_at: at })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return toNamespace(row);
  }

  /** The personal namespace of a user. */
  async findForUser(userId: number): Promise<Namespace | undefined> {
    const row = await this.select()
      .where("owner_id", "=", userId)
      .where("kind", "=", "user")
      .executeTakeFirst();
    return row && toNamespace(row);
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

  /** A namespace by id. */
  async findById(id: number): Promise<Namespace | undefined> {
    const [row] = (await this.db.executeQuery(NAMESPACE_BY_ID.compile(this.db, id))).rows;
    return row && toNamespace(row);
  }

  /** A namespace by path, ignoring case. */
  async findByPath(path: string): Promise<Namespace | undefined> {
    const row = await this.select().where(sql`lower(path)`, "=", lowered(path)).executeTakeFirst();
    return row && toNamespace(row);
  }

  /** Namespaces by id, for presenting a page of projects. */
  async findByIds(ids: readonly number[]): Promise<Map<number, Namespace>> {
    if (ids.length === 0) return new Map();
    const rows = await this.select()
      .where("id", "in", [...new Set(ids)])
      .execute();
    return new Map(rows.map((row) => [row.id, toNamespace(row)]));
  }

  /** Creates a group; raises UniqueViolation when the path is taken. */
  async createGroup(fields: GroupFields): Promise<Group> {
    const at = now();
    const row = await guardUnique(() =>
      this.db
        .insertInto("namespaces")
        .values({ ...fields, kind: "group", owner_id: null, created_at: at, updated_at: at })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return toNamespace(row) as Group;
  }

  /** Changes a group; undefined fields stay. */
  async updateGroup(
    id: number,
    patch: {
      [K in keyof GroupFields | "share_with_group_lock"]?:
        | (GroupFields & { share_with_group_lock: boolean })[K]
        | undefined;
    },
  ): Promise<Group | undefined> {
    const { share_with_group_lock, ...rest } = patch;
    const values = { ...definedOnly(rest), updated_at: now() } as Record<string, unknown>;
    if (share_with_group_lock !== undefined) values["share_with_group_lock"] = flag(share_with_group_lock);
    const row = await guardUnique(() =>
      this.db
        .updateTable("namespaces")
        .set(values)
        .where("id", "=", id)
        .where("kind", "=", "group")
        .returningAll()
        .executeTakeFirst(),
    );
    return row && (toNamespace(row) as Group);
  }

  /**
   * Locks a namespace row until the transaction ends (a write that changes nothing), so that
   * transactions reading and changing what hangs off it, such as a group's memberships, run one
   * after the other on every dialect. Use inside `Stores.transaction`.
   */
  async lock(id: number): Promise<void> {
    await this.db
      .updateTable("namespaces")
      .set((eb) => ({ updated_at: eb.ref("updated_at") }))
      .where("id", "=", id)
      .execute();
  }

  /** Deletes a group (its projects, members and shares go with it). True if it existed. */
  async deleteGroup(id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom("namespaces")
      .where("id", "=", id)
      .where("kind", "=", "group")
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * One page of namespaces by id: all of them, or only the user's own namespace and the groups
   * they belong to; `kind` narrows to groups; `search` matches name or path.
   */
  async list(
    filter: { memberId?: number | undefined; kind?: "group" | undefined; search?: string | undefined },
    page: PageRequest,
  ): Promise<Page<Namespace>> {
    let query = this.select().orderBy("id", "asc");
    if (filter.kind) query = query.where("kind", "=", filter.kind);
    if (filter.memberId !== undefined) {
      const userId = filter.memberId;
      query = query.where((eb) =>
        eb.or([
          eb.and([eb("kind", "=", "user"), eb("owner_id", "=", userId)]),
          eb("id", "in", eb.selectFrom("group_members").select("group_id").where("user_id", "=", userId)),
        ]),
      );
    }
    if (filter.search) {
      const search = filter.search;
      query = query.where((eb) =>
        eb.or([
          containsIgnoringCase(this.db, sql.ref("name"), search),
          containsIgnoringCase(this.db, sql.ref("path"), search),
        ]),
      );
    }
    const { rows, total } = await paginate(this.db, query, page, filter.search ? "capped" : "exact");
    return { items: rows.map(toNamespace), page: page.page, perPage: page.perPage, total };
  }
}
