import type { AccessLevel, AccessSources, Project } from "@kiln/domain";
import { type Kysely, sql } from "kysely";
import type { Database } from "../database.js";
import { ReusedStatement } from "../queries.js";

// Where a user's access to projects comes from, read in one query: the project store's
// `accessSources` and `accessSourcesOfMany`.

/** A user's levels on projects, as {@link levelColumns} reads them. */
interface AccessLevelsRow {
  project_level: number | null;
  group_level: number | null;
  shared_level: number | null;
}

/**
 * A user's levels on a project (its id and namespace id: values or columns) as three columns: as
 * its member, as a member of its group, and through the groups it is shared with (capped by each
 * share's level).
 */
const levelColumns = (userId: number, projectId: unknown, namespaceId: unknown) => sql`
  (select access_level from project_members where project_id = ${projectId} and user_id = ${userId}) as project_level,
  (select access_level from group_members where group_id = ${namespaceId} and user_id = ${userId}) as group_level,
  (select max(case when gm.access_level < l.group_access then gm.access_level else l.group_access end)
     from project_group_links l join group_members gm on gm.group_id = l.group_id
    where l.project_id = ${projectId} and gm.user_id = ${userId}) as shared_level`;

/** A user's levels on one project: on the path of every project route. */
const ACCESS_LEVELS = new ReusedStatement(
  (db, userId: number, project: Pick<Project, "id" | "namespace_id">) =>
    sql<AccessLevelsRow>`select ${levelColumns(userId, project.id, project.namespace_id)}`.compile(db),
  (userId, project) => [project.id, userId, project.namespace_id, userId, project.id, userId],
);

/** A user's levels on many projects, by project id. */
const accessLevelsOf = (userId: number, projectIds: readonly number[]) =>
  sql<AccessLevelsRow & { id: number }>`
    select p.id, ${levelColumns(userId, sql.ref("p.id"), sql.ref("p.namespace_id"))}
    from projects p where p.id in (${sql.join([...new Set(projectIds)])})`;

/** Where access comes from, from the levels {@link levelColumns} reads. */
function accessSourcesFrom(levels: AccessLevelsRow | undefined, ownsNamespace: boolean): AccessSources {
  const shared = levels?.shared_level ?? null;
  return {
    ownsNamespace,
    projectMember: (levels?.project_level ?? null) as AccessLevel | null,
    groupMember: (levels?.group_level ?? null) as AccessLevel | null,
    // The share is already capped in SQL: report it as a share of itself.
    shares:
      shared === null ? [] : [{ memberLevel: shared as AccessLevel, groupAccess: shared as AccessLevel }],
  };
}

/** A user's access sources on one project (see `ProjectStore.accessSources`). */
export async function accessSourcesOf(
  db: Kysely<Database>,
  userId: number,
  project: Pick<Project, "id" | "namespace_id">,
  ownsNamespace: boolean,
): Promise<AccessSources> {
  const [levels] = (await db.executeQuery(ACCESS_LEVELS.compile(db, userId, project))).rows;
  return accessSourcesFrom(levels, ownsNamespace);
}

/** A user's access sources on many projects, by project id (see `ProjectStore.accessSourcesOfMany`). */
export async function accessSourcesOfMany(
  db: Kysely<Database>,
  userId: number,
  projectIds: readonly number[],
  ownsNamespace: (projectId: number) => boolean,
): Promise<Map<number, AccessSources>> {
  if (projectIds.length === 0) return new Map();
  const { rows } = await accessLevelsOf(userId, projectIds).execute(db);
  return new Map(rows.map((row) => [row.id, accessSourcesFrom(row, ownsNamespace(row.id))]));
}
