import { AccessLevel, type Visibility } from "@kiln/domain";
import type { ExpressionBuilder, Kysely, SelectQueryBuilder } from "kysely";
import type { Database } from "../database.js";

// Which projects a list draws from and who may read them, as SQL conditions: shared by the
// project lists (`inScope`) and by every list that spans projects (issues, merge requests, todos).

/** Which projects a list draws from. */
export type ProjectScope =
  | { kind: "all" }
  /** Projects the user is a member of, in any way (GitLab's "authorized projects"). */
  | { kind: "member"; userId: number }
  /** Projects in the user's namespace or in groups the user owns. */
  | { kind: "owned"; userId: number }
  /** Projects the user starred, as far as they may still read them. */
  | { kind: "starred"; userId: number; external: boolean }
  /** Everything the user may read: authorized, internal (unless external) and public projects. */
  | { kind: "visible"; userId: number; external: boolean }
  /** A namespace's projects, as far as the viewer may read them (null viewer: administrators). */
  | { kind: "namespace"; namespaceId: number; viewer: { userId: number; external: boolean } | null }
  /** Projects shared with a group, as far as the viewer may read them (null viewer: administrators). */
  | { kind: "sharedWith"; groupId: number; viewer: { userId: number; external: boolean } | null };

/** Filters every project list accepts. */
export interface ProjectFilter {
  archived?: boolean | undefined;
  visibility?: Visibility | undefined;
  /** Matches name, path or description, ignoring case. */
  search?: string | undefined;
  /** Matches the name only, ignoring case (`/projects/search/:query`). */
  name?: string | undefined;
}

/** Columns a project list may be ordered by. */
export type ProjectOrderColumn = "id" | "name" | "path" | "created_at" | "updated_at" | "last_activity_at";

/** How a project list is ordered. */
export interface ProjectOrder {
  by: ProjectOrderColumn;
  direction: "asc" | "desc";
  /** Projects with builds enabled first (`ci_enabled_first`). */
  buildsFirst?: boolean | undefined;
}

type ProjectsEb = ExpressionBuilder<Database, "projects">;

/** The query in the list order, ties broken by id in the same direction. */
export function ordered<O>(
  query: SelectQueryBuilder<Database, "projects", O>,
  order: ProjectOrder,
): SelectQueryBuilder<Database, "projects", O> {
  let result = query;
  if (order.buildsFirst) result = result.orderBy("builds_enabled", "desc");
  result = result.orderBy(order.by, order.direction);
  if (order.by !== "id") result = result.orderBy("id", order.direction);
  return result;
}

/**
 * The ids of the projects a user is a member of, through any source, at `minLevel` or above (a
 * share counts at the lower of the member's level and the share's). An id may come more than once
 * (a member of a project in their own group): it is only ever used with `in`, so `union all`
 * spares the deduplication (a temporary B-tree per branch on SQLite, a hash on PostgreSQL); every
 * branch stays an index search.
 */
export function memberProjectIds(eb: ProjectsEb, userId: number, minLevel = 0) {
  return eb
    .selectFrom("project_members")
    .select("project_members.project_id as id")
    .where("project_members.user_id", "=", userId)
    .where("project_members.access_level", ">=", minLevel)
    .unionAll(
      // Owners of a personal namespace hold every level on its projects.
      eb
        .selectFrom("projects as p")
        .innerJoin("namespaces as n", "n.id", "p.namespace_id")
        .select("p.id as id")
        .where("n.owner_id", "=", userId)
        .where("n.kind", "=", "user"),
    )
    .unionAll(
      eb
        .selectFrom("projects as p")
        .innerJoin("group_members as gm", "gm.group_id", "p.namespace_id")
        .select("p.id as id")
        .where("gm.user_id", "=", userId)
        .where("gm.access_level", ">=", minLevel),
    )
    .unionAll(
      eb
        .selectFrom("project_group_links as l")
        .innerJoin("group_members as gm", "gm.group_id", "l.group_id")
        .select("l.project_id as id")
        .where("gm.user_id", "=", userId)
        .where("gm.access_level", ">=", minLevel)
        .where("l.group_access", ">=", minLevel),
    );
}

/** A signed-in user reading lists drawn from many projects. */
export interface ProjectReader {
  userId: number;
  /** External users read internal projects only as members. */
  external: boolean;
}

/**
 * The ids of the projects `reader` may read, as a subquery: public ones, internal ones unless the
 * reader is external, and those they are a member of at `minLevel` or above (the `visible` scope
 * of project lists, with any level).
 */
export function readableProjectIds(db: Kysely<Database>, reader: ProjectReader, minLevel = 0) {
  return db
    .selectFrom("projects")
    .select("projects.id")
    .where((eb) => readableBy(eb, reader, minLevel));
}

/**
 * The condition that `reader` may read a project: it is public, internal and the reader is not
 * external, or the reader is a member of it (at `minLevel` or above). Every list that hides what
 * its reader may not see uses it.
 */
export function readableBy(eb: ProjectsEb, reader: ProjectReader, minLevel = 0) {
  return eb.or([
    eb("visibility_level", ">=", reader.external ? 20 : 10),
    eb("id", "in", memberProjectIds(eb, reader.userId, minLevel)),
  ]);
}

/** `query` of projects narrowed to those `scope` draws from (as far as its reader may read them). */
export function inScope<O>(
  query: SelectQueryBuilder<Database, "projects", O>,
  scope: ProjectScope,
): SelectQueryBuilder<Database, "projects", O> {
  let scoped = query;
  switch (scope.kind) {
    case "all":
      break;
    case "member":
      scoped = scoped.where("id", "in", (eb) => memberProjectIds(eb, scope.userId));
      break;
    case "owned":
      scoped = scoped.where("namespace_id", "in", (eb) =>
        eb
          .selectFrom("namespaces")
          .select("id")
          .where("owner_id", "=", scope.userId)
          .where("kind", "=", "user")
          .unionAll(
            eb
              .selectFrom("group_members")
              .select("group_id as id")
              .where("user_id", "=", scope.userId)
              .where("access_level", "=", AccessLevel.OWNER),
          ),
      );
      break;
    case "starred":
      scoped = scoped
        .where("id", "in", (eb) =>
          eb.selectFrom("project_stars").select("project_id").where("user_id", "=", scope.userId),
        )
        .where((eb) => readableBy(eb, scope));
      break;
    case "visible":
      scoped = scoped.where((eb) => readableBy(eb, scope));
      break;
    case "namespace":
    case "sharedWith": {
      scoped =
        scope.kind === "namespace"
          ? scoped.where("namespace_id", "=", scope.namespaceId)
          : scoped.where("id", "in", (eb) =>
              eb.selectFrom("project_group_links").select("project_id").where("group_id", "=", scope.groupId),
            );
      const viewer = scope.viewer;
      if (viewer) scoped = scoped.where((eb) => readableBy(eb, viewer));
      break;
    }
  }
  return scoped;
}
