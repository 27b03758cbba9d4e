import type { AccessSources, Page, PageRequest, Project, Visibility } from "@kiln/domain";
import { type Insertable, type Kysely, sql } from "kysely";
import type { Database, ProjectsTable } from "../database.js";
import { guardConstraints, guardUnique } from "../errors.js";
import {
  containsIgnoringCase,
  DEFERRED_JOIN_OFFSET,
  definedOnly,
  flag,
  lowered,
  now,
  paginate,
  ReusedStatement,
  withBooleans,
} from "../queries.js";
import { accessSourcesOf, accessSourcesOfMany } from "./project-access.js";
import {
  inScope,
  ordered,
  type ProjectFilter,
  type ProjectOrder,
  type ProjectScope,
} from "./project-scopes.js";

const BOOLEANS = [
  "archived",
  "issues_enabled",
  "merge_requests_enabled",
  "builds_enabled",
  "wiki_enabled",
  "snippets_enabled",
  "container_registry_enabled",
  "shared_runners_enabled",
  "lfs_enabled",
  "request_access_enabled",
  "public_builds",
  "only_allow_merge_if_build_succeeds",
] as const satisfies readonly (keyof Project)[];

/** Every column of a project but the runners token and the import URL (secrets). */
const PROJECT_COLUMNS = [
  "id",
  "namespace_id",
  "name",
  "path",
  "description",
  "default_branch",
  "visibility_level",
  "creator_id",
  "star_count",
  "open_issues_count",
  "public_open_issues_count",
  "created_at",
  "updated_at",
  "last_activity_at",
  "build_timeout",
  ...BOOLEANS,
] as const satisfies readonly (keyof Project)[];

type Unselected = Exclude<keyof Project, (typeof PROJECT_COLUMNS)[number]>;
const allSelected: Unselected extends never ? true : never = true;
void allSelected;

const toProject = (row: Record<string, unknown>): Project => withBooleans<Project>(row, BOOLEANS);

/** A project by id: on the path of every project route, so compiled once (see ReusedStatement). */
const PROJECT_BY_ID = new ReusedStatement(
  (db, id: number) => db.selectFrom("projects").select(PROJECT_COLUMNS).where("id", "=", id).compile(),
  (id) => [id],
);

/** What a new project is made of. */
export type NewProject = Omit<
  Project,
  | "id"
  | "star_count"
  | "open_issues_count"
  | "public_open_issues_count"
  | "created_at"
  | "updated_at"
  | "last_activity_at"
  | "build_timeout"
> & {
  /** Seconds; the column's default (8.x's hour) when not given. */
  build_timeout?: number;
  runners_token_digest: string;
  runners_token_sealed: string;
  /** The import URL, sealed (see the server's secret box); null when not imported. */
  import_url_sealed: string | null;
};

/** Fields an update may change; undefined fields stay. */
export type ProjectPatch = {
  [K in keyof Omit<
    Project,
    "id" | "created_at" | "star_count" | "open_issues_count" | "public_open_issues_count"
  >]?: Project[K] | undefined;
};

/** Projects: rows, lookups, and lists drawn from a scope, filtered and ordered in SQL. */
export class ProjectStore {
  constructor(private readonly db: Kysely<Database>) {}

  private select() {
    return this.db.selectFrom("projects").select(PROJECT_COLUMNS);
  }

  /** A project by id. */
  async findById(id: number): Promise<Project | undefined> {
    const [row] = (await this.db.executeQuery(PROJECT_BY_ID.compile(this.db, id))).rows;
    return row && toProject(row);
  }

  /** The project whose runners token has this digest (a runner registering for it), or undefined. */
  async findByRunnersTokenDigest(digest: string): Promise<Project | undefined> {
    const row = await this.select().where("runners_token_digest", "=", digest).executeTakeFirst();
    return row && toProject(row);
  }

  /** Projects by id. */
  async findByIds(ids: readonly number[]): Promise<Map<number, Project>> {
    if (ids.length === 0) return new Map();
    const rows = await this.select()
      .where("id", "in", [...new Set(ids)])
      .execute();
    return new Map(rows.map((row) => [row.id, toProject(row)]));
  }

  /** A project by `namespace/project`, ignoring case but preferring an exact match. */
  async findByFullPath(namespacePath: string, projectPath: string): Promise<Project | undefined> {
    const rows = await this.db
      .selectFrom("projects")
      .innerJoin("namespaces", "namespaces.id", "projects.namespace_id")
      .select(PROJECT_COLUMNS.map((column) => `projects.${column}` as const))
      .select(["namespaces.path as namespace_path"])
      .where(sql`lower(namespaces.path)`, "=", lowered(namespacePath))
      .where(sql`lower(projects.path)`, "=", lowered(projectPath))
      .execute();
    const exact =
      rows.find((row) => row.namespace_path === namespacePath && row.path === projectPath) ?? rows[0];
    if (!exact) return undefined;
    const { namespace_path: _, ...project } = exact;
    return toProject(project);
  }

  /** The sealed runners tokens of some projects. */
  async sealedRunnersTokens(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("projects")
      .select(["id", "runners_token_sealed"])
      .where("id", "in", [...new Set(ids)])
      .execute();
    return new Map(rows.map((row) => [row.id, row.runners_token_sealed]));
  }

  /** A project's sealed import URL, or null when it has none (or no such project). */
  async sealedImportUrl(id: number): Promise<string | null> {
    const row = await this.db
      .selectFrom("projects")
      .select("import_url_sealed")
      .where("id", "=", id)
      .executeTakeFirst();
    return row?.import_url_sealed ?? null;
  }

  /** The import URLs still stored in the clear (from before they were sealed), by project id. */
  async clearImportUrls(): Promise<Map<number, string>> {
    const rows = await this.db
      .selectFrom("projects")
      .select(["id", "import_url"])
      .where("import_url", "is not", null)
      .execute();
    return new Map(rows.map((row) => [row.id, row.import_url as string]));
  }

  /**
   * Stores `sealed` in place of the project's clear import URL `clear`, which is erased; false when
   * the project no longer holds `clear` (another process sealed it first).
   */
  async sealImportUrl(id: number, clear: string, sealed: string): Promise<boolean> {
    const result = await this.db
      .updateTable("projects")
      .set({ import_url_sealed: sealed, import_url: null })
      .where("id", "=", id)
      .where("import_url", "=", clear)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** True when the namespace holds a project with this name (or path), ignoring case. */
  async taken(
    namespaceId: number,
    field: "name" | "path",
    value: string,
    exceptId?: number,
  ): Promise<boolean> {
    let query = this.db
      .selectFrom("projects")
      .select("id")
      .where("namespace_id", "=", namespaceId)
      .where(sql`lower(${sql.ref(field)})`, "=", lowered(value));
    if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  /** How many projects a namespace holds (a user's against their projects limit). */
  async countInNamespace(namespaceId: number): Promise<number> {
    const row = await this.db
      .selectFrom("projects")
      .select(sql<number | string>`count(*)`.as("n"))
      .where("namespace_id", "=", namespaceId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The ids of a namespace's projects. */
  async idsInNamespace(namespaceId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom("projects")
      .select("id")
      .where("namespace_id", "=", namespaceId)
      .execute();
    return rows.map((row) => row.id);
  }

  /** The highest visibility among a namespace's projects, or null when it holds none. */
  async highestVisibilityInNamespace(namespaceId: number): Promise<Visibility | null> {
    const row = await this.db
      .selectFrom("projects")
      .select((eb) => eb.fn.max("visibility_level").as("highest"))
      .where("namespace_id", "=", namespaceId)
      .executeTakeFirst();
    return row?.highest === null || row?.highest === undefined ? null : (Number(row.highest) as Visibility);
  }

  /**
   * Creates a project; raises UniqueViolation when the name or path is taken in the namespace,
   * ForeignKeyViolation when the namespace or the creator does not exist (deleted meanwhile).
   */
  async create(project: NewProject): Promise<Project> {
    const at = now();
    const flags = Object.fromEntries(BOOLEANS.map((key) => [key, flag(project[key])]));
    const values = {
      ...project,
      ...flags,
      created_at: at,
      updated_at: at,
      last_activity_at: at,
    } as unknown as Insertable<ProjectsTable>;
    const row = await guardConstraints(() =>
      this.db.insertInto("projects").values(values).returning(PROJECT_COLUMNS).executeTakeFirstOrThrow(),
    );
    return toProject(row);
  }

  /** Applies a patch; undefined when there is no such project. */
  async update(id: number, patch: ProjectPatch): Promise<Project | undefined> {
    const values: Record<string, unknown> = { ...definedOnly(patch), updated_at: now() };
    for (const key of BOOLEANS)
      if (typeof values[key] === "boolean") values[key] = flag(values[key] as boolean);
    const row = await guardUnique(() =>
      this.db
        .updateTable("projects")
        .set(values)
        .where("id", "=", id)
        .returning(PROJECT_COLUMNS)
        .executeTakeFirst(),
    );
    return row && toProject(row);
  }

  /**
   * Makes `branch` the default branch of a project that has none yet; false when it already has
   * one (set by a concurrent first push, say), which is then left as it is.
   */
  async claimDefaultBranch(id: number, branch: string): Promise<boolean> {
    const result = await this.db
      .updateTable("projects")
      .set({ default_branch: branch, updated_at: now() })
      .where("id", "=", id)
      .where("default_branch", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Adds `delta` to the star count. */
  async addStars(id: number, delta: number): Promise<void> {
    await this.db
      .updateTable("projects")
      .set({ star_count: sql`star_count + ${delta}` })
      .where("id", "=", id)
      .execute();
  }

  /** Deletes a project and, through the database, everything that hangs off it. True if it existed. */
  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom("projects").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Where a user's access to a project comes from, in one query: their project membership, their
   * membership of the project's group, and their levels in groups the project is shared with,
   * each capped at the share.
   */
  accessSources(
    userId: number,
    project: Pick<Project, "id" | "namespace_id">,
    ownsNamespace: boolean,
  ): Promise<AccessSources> {
    return accessSourcesOf(this.db, userId, project, ownsNamespace);
  }

  /**
   * {@link accessSources} for many projects in one query; `ownsNamespace` says which of them are
   * in the user's own namespace.
   */
  accessSourcesOfMany(
    userId: number,
    projectIds: readonly number[],
    ownsNamespace: (projectId: number) => boolean,
  ): Promise<Map<number, AccessSources>> {
    return accessSourcesOfMany(this.db, userId, projectIds, ownsNamespace);
  }

  /** One page of projects from a scope, filtered and ordered. */
  async list(
    scope: ProjectScope,
    filter: ProjectFilter,
    order: ProjectOrder,
    page: PageRequest,
  ): Promise<Page<Project>> {
    let query = inScope(this.select(), scope);
    if (filter.archived !== undefined) query = query.where("archived", "=", flag(filter.archived));
    if (filter.visibility !== undefined) query = query.where("visibility_level", "=", filter.visibility);
    if (filter.search) {
      const search = filter.search;
      query = query.where((eb) =>
        eb.or(
          (["name", "path", "description"] as const).map((column) =>
            containsIgnoringCase(this.db, sql.ref(column), search),
          ),
        ),
      );
    }
    if (filter.name) {
      query = query.where(containsIgnoringCase(this.db, sql.ref("name"), filter.name));
    }
    query = ordered(query, order);
    const filtered = scope.kind === "all" || Boolean(filter.search) || Boolean(filter.name);
    const unfiltered =
      scope.kind === "all" &&
      filter.archived === undefined &&
      filter.visibility === undefined &&
      !filter.search &&
      !filter.name;
    const { rows, total } = await paginate(this.db, query, page, filtered ? "capped" : "exact", {
      wholeTable: unfiltered ? "projects" : undefined,
      rows: (limit, offset) =>
        offset < DEFERRED_JOIN_OFFSET
          ? query.limit(limit).offset(offset).execute()
          : // The page's ids first, over the index of the order when the filters allow it, then
            // their rows; the outer query has no filter of its own, so its plan is always by id.
            ordered(
              this.select().where("id", "in", query.clearSelect().select("id").limit(limit).offset(offset)),
              order,
            ).execute(),
    });
    return { items: rows.map(toProject), page: page.page, perPage: page.perPage, total };
  }
}
