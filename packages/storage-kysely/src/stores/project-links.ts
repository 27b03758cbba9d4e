import type { AccessLevel, ProjectShare } from "@kiln/domain";
import { type Kysely, sql } from "kysely";
import type { Database } from "../database.js";
import { guardConstraints, guardUnique } from "../errors.js";
import { now } from "../queries.js";

/** Stars: which user starred which project. The project's `star_count` is kept by the caller. */
export class StarStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stars a project; false when it was starred already. */
  async add(userId: number, projectId: number): Promise<boolean> {
    const result = await this.db
      .insertInto("project_stars")
      .values({ user_id: userId, project_id: projectId, created_at: now() })
      .onConflict((oc) => oc.columns(["user_id", "project_id"]).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Unstars a project; false when it was not starred. */
  async remove(userId: number, projectId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom("project_stars")
      .where("user_id", "=", userId)
      .where("project_id", "=", projectId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

/** Fork relations: which project was forked from which. */
export class ForkStore {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Records that `forkId` is a fork of `sourceId`; raises UniqueViolation if it already is a fork,
   * ForeignKeyViolation if either project does not exist (deleted meanwhile).
   */
  async link(forkId: number, sourceId: number): Promise<void> {
    await guardConstraints(() =>
      this.db
        .insertInto("forked_project_links")
        .values({ forked_to_project_id: forkId, forked_from_project_id: sourceId, created_at: now() })
        .execute(),
    );
  }

  /** Forgets where a fork came from; false when it was not a fork. */
  async unlink(forkId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom("forked_project_links")
      .where("forked_to_project_id", "=", forkId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** For each given fork, the project it was forked from. */
  async sourcesOf(projectIds: readonly number[]): Promise<Map<number, number>> {
    if (projectIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("forked_project_links")
      .select(["forked_to_project_id", "forked_from_project_id"])
      .where("forked_to_project_id", "in", [...new Set(projectIds)])
      .execute();
    return new Map(rows.map((row) => [row.forked_to_project_id, row.forked_from_project_id]));
  }

  /** How many forks each given project has. */
  async countForks(projectIds: readonly number[]): Promise<Map<number, number>> {
    if (projectIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("forked_project_links")
      .select(["forked_from_project_id as id", sql<number | string>`count(*)`.as("n")])
      .where("forked_from_project_id", "in", [...new Set(projectIds)])
      .groupBy("forked_from_project_id")
      .execute();
    return new Map(rows.map((row) => [row.id, Number(row.n)]));
  }
}

/** A share as presented with a project. */
export interface ShareWithGroup {
  group_id: number;
  group_name: string;
  group_access_level: AccessLevel;
}

/** Shares of projects with groups. */
export class ShareStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Shares a project with a group; raises UniqueViolation when it is shared with it already. */
  async add(projectId: number, groupId: number, groupAccess: AccessLevel): Promise<ProjectShare> {
    const row = await guardUnique(() =>
      this.db
        .insertInto("project_group_links")
        .values({ project_id: projectId, group_id: groupId, group_access: groupAccess, created_at: now() })
        .returning(["project_id", "group_id", "group_access", "created_at"])
        .executeTakeFirstOrThrow(),
    );
    return { ...row, group_access: row.group_access as AccessLevel };
  }

  /** Stops sharing; false when it was not shared. */
  async remove(projectId: number, groupId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom("project_group_links")
      .where("project_id", "=", projectId)
      .where("group_id", "=", groupId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** For each given project, the groups it is shared with, by group name. */
  async forProjects(projectIds: readonly number[]): Promise<Map<number, ShareWithGroup[]>> {
    const shares = new Map<number, ShareWithGroup[]>();
    if (projectIds.length === 0) return shares;
    const rows = await this.db
      .selectFrom("project_group_links as l")
      .innerJoin("namespaces as n", "n.id", "l.group_id")
      .select(["l.project_id", "l.group_id", "n.name as group_name", "l.group_access"])
      .where("l.project_id", "in", [...new Set(projectIds)])
      .orderBy("n.name")
      .execute();
    for (const row of rows) {
      const list = shares.get(row.project_id) ?? [];
      list.push({
        group_id: row.group_id,
        group_name: row.group_name,
        group_access_level: row.group_access as AccessLevel,
      });
      shares.set(row.project_id, list);
    }
    return shares;
  }

  /** The ids of the projects shared with a group. */
  async projectsSharedWith(groupId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom("project_group_links")
      .select("project_id")
      .where("group_id", "=", groupId)
      .execute();
    return rows.map((row) => row.project_id);
  }
}
