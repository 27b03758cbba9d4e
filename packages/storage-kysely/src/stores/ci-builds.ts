import type { Page, PageRequest } from "@kiln/domain";
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { CiBuildsTable, Database } from "../database.js";
import { atomically, flag, now, onSqlite, paginate } from "../queries.js";

/** A variable of a build as `.gitlab-ci.yml` gave it. */
export interface CiYamlVariable {
  key: string;
  value: string;
  public: boolean;
}

/** A build (or an external commit status) as stored, with its JSON columns read. */
export type CiBuild = Omit<
  Selectable<CiBuildsTable>,
  "tag" | "allow_failure" | "retried" | "options" | "yaml_variables" | "tag_list"
> & {
  tag: boolean;
  allow_failure: boolean;
  retried: boolean;
  options: Record<string, unknown>;
  yaml_variables: CiYamlVariable[];
  tag_list: string[];
};

/** What a new build is made of (JSON columns as values); times come with the write. */
export type NewCiBuild = Omit<
  Insertable<CiBuildsTable>,
  | "id"
  | "created_at"
  | "updated_at"
  | "tag"
  | "allow_failure"
  | "retried"
  | "options"
  | "yaml_variables"
  | "tag_list"
> & {
  tag: boolean;
  allow_failure: boolean;
  options: Record<string, unknown>;
  yaml_variables: CiYamlVariable[];
  tag_list: string[];
};

/** What an update may change (status, times, runner, token, trace and artifact facts). */
export type CiBuildPatch = Omit<
  Updateable<CiBuildsTable>,
  "id" | "project_id" | "pipeline_id" | "created_at" | "options" | "yaml_variables" | "tag_list"
>;

/** A runner as the queue matches it against builds. */
export interface RunnerMatch {
  id: number;
  isShared: boolean;
  tags: readonly string[];
  runUntagged: boolean;
}

/** How many pending builds a claim looks at before giving up on a runner whose tags match none. */
const CLAIM_WINDOW = 100;

function toBuild(row: Selectable<CiBuildsTable>): CiBuild {
  return {
    ...row,
    tag: row.tag === 1,
    allow_failure: row.allow_failure === 1,
    retried: row.retried === 1,
    options: JSON.parse(row.options) as Record<string, unknown>,
    yaml_variables: JSON.parse(row.yaml_variables) as CiYamlVariable[],
    tag_list: JSON.parse(row.tag_list) as string[],
  };
}

/** 8.x's rule: a runner takes a build whose tags it all has, and an untagged one only if it runs untagged builds. */
export function runnerCanPick(runner: RunnerMatch, buildTags: readonly string[]): boolean {
  if (buildTags.length === 0) return runner.runUntagged;
  return buildTags.every((tag) => runner.tags.includes(tag));
}

/** CI builds and external commit statuses; ids are global. */
export class CiBuildStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores new builds, in order; answers them with their ids. */
  async createMany(builds: readonly NewCiBuild[]): Promise<CiBuild[]> {
    const created: CiBuild[] = [];
    for (const build of builds) {
      const stamp = now();
      const row = await this.db
        .insertInto("ci_builds")
        .values({
          ...build,
          tag: flag(build.tag),
          allow_failure: flag(build.allow_failure),
          options: JSON.stringify(build.options),
          yaml_variables: JSON.stringify(build.yaml_variables),
          tag_list: JSON.stringify(build.tag_list),
          created_at: stamp,
          updated_at: stamp,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      created.push(toBuild(row));
    }
    return created;
  }

  /** One build by its (global) id, or undefined. */
  async find(id: number): Promise<CiBuild | undefined> {
    const row = await this.db.selectFrom("ci_builds").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toBuild(row);
  }

  /** One build of a project, or undefined (another project's too). */
  async findInProject(projectId: number, id: number): Promise<CiBuild | undefined> {
    const build = await this.find(id);
    return build?.project_id === projectId ? build : undefined;
  }

  /** The running build whose token has this digest, or undefined. */
  async findByTokenDigest(digest: string): Promise<CiBuild | undefined> {
    const row = await this.db
      .selectFrom("ci_builds")
      .selectAll()
      .where("token_digest", "=", digest)
      .executeTakeFirst();
    return row && toBuild(row);
  }

  /** Every build and status of a pipeline, retried ones too, oldest first. */
  async ofPipeline(pipelineId: number): Promise<CiBuild[]> {
    const rows = await this.db
      .selectFrom("ci_builds")
      .selectAll()
      .where("pipeline_id", "=", pipelineId)
      .orderBy("id")
      .execute();
    return rows.map(toBuild);
  }

  /** A page of a project's builds (not external statuses), newest first, in `statuses` when given. */
  async list(
    projectId: number,
    statuses: readonly string[] | null,
    page: PageRequest,
  ): Promise<Page<CiBuild>> {
    let query = this.db
      .selectFrom("ci_builds")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("type", "=", "build");
    if (statuses) query = query.where("status", "in", statuses.length > 0 ? [...statuses] : [""]);
    const { rows, total } = await paginate(this.db, query.orderBy("id", "desc"), page, "capped");
    return { items: rows.map(toBuild), page: page.page, perPage: page.perPage, total };
  }

  /** The builds (or, with `type`, statuses) of the pipelines of a commit, newest first. */
  async ofSha(projectId: number, sha: string, type: "build" | "generic" | null): Promise<CiBuild[]> {
    let query = this.db
      .selectFrom("ci_builds")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("sha", "=", sha);
    if (type) query = query.where("type", "=", type);
    const rows = await query.orderBy("id", "desc").execute();
    return rows.map(toBuild);
  }

  /** The newest successful build named `name` of the pipelines of `ref`, or undefined. */
  async latestSuccessful(projectId: number, ref: string, name: string): Promise<CiBuild | undefined> {
    const row = await this.db
      .selectFrom("ci_builds")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("ref", "=", ref)
      .where("name", "=", name)
      .where("status", "=", "success")
      .where("type", "=", "build")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    return row && toBuild(row);
  }

  /**
   * Changes a build, only while its status is one of `fromStatuses` when given (a compare and swap:
   * two writers racing on one build cannot both move it). Answers it as it is now, or undefined when
   * it was not changed.
   */
  async update(
    id: number,
    patch: CiBuildPatch,
    fromStatuses?: readonly string[],
  ): Promise<CiBuild | undefined> {
    let query = this.db
      .updateTable("ci_builds")
      .set({ ...patch, updated_at: now() })
      .where("id", "=", id);
    if (fromStatuses) query = query.where("status", "in", [...fromStatuses]);
    const row = await query.returningAll().executeTakeFirst();
    return row && toBuild(row);
  }

  /** Builds in `statuses` last changed before `before` (oldest first, at most `limit`): 8.x's stuck builds. */
  async notUpdatedSince(statuses: readonly string[], before: string, limit: number): Promise<CiBuild[]> {
    const rows = await this.db
      .selectFrom("ci_builds")
      .selectAll()
      .where("status", "in", [...statuses])
      .where("type", "=", "build")
      .where("updated_at", "<", before)
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map(toBuild);
  }

  /** Every running build with its project's `build_timeout` in seconds, oldest first. */
  async runningWithTimeout(): Promise<{ build: CiBuild; timeoutSeconds: number }[]> {
    const rows = await this.db
      .selectFrom("ci_builds")
      .innerJoin("projects", "projects.id", "ci_builds.project_id")
      .selectAll("ci_builds")
      .select("projects.build_timeout")
      .where("ci_builds.status", "=", "running")
      .where("ci_builds.type", "=", "build")
      .orderBy("ci_builds.id")
      .execute();
    return rows.map(({ build_timeout, ...row }) => ({ build: toBuild(row), timeoutSeconds: build_timeout }));
  }

  /** Builds whose artifacts expire before `at` (oldest first, at most `limit`). */
  async artifactsExpiredBefore(at: string, limit: number): Promise<CiBuild[]> {
    const rows = await this.db
      .selectFrom("ci_builds")
      .selectAll()
      .where("artifacts_file", "is not", null)
      .where("artifacts_expire_at", "<", at)
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map(toBuild);
  }

  /**
   * Forgets a build's artifacts if they still expire before `at` (a compare and swap: a keep or
   * another sweeper that came first wins). True when this call forgot them.
   */
  async dropExpiredArtifacts(id: number, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable("ci_builds")
      .set({ artifacts_file: null, artifacts_size: null, artifacts_expire_at: null, updated_at: now() })
      .where("id", "=", id)
      .where("artifacts_file", "is not", null)
      .where("artifacts_expire_at", "<", at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Moves the trace's recorded size from `from` to `to` (a compare and swap: appends that race
   * for the same range cannot both succeed). True when it moved.
   */
  async moveTraceSize(id: number, from: number, to: number): Promise<boolean> {
    const result = await this.db
      .updateTable("ci_builds")
      .set({ trace_size: to, updated_at: now() })
      .where("id", "=", id)
      .where("trace_size", "=", from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Gives the runner the oldest pending build it may run, now `running` with the runner and the
   * token's digest set; undefined when there is none. A shared runner takes builds of projects with
   * shared runners (and builds) enabled; a specific one those of its projects. Atomic: on PostgreSQL
   * the candidates are locked (`for update skip locked`), so two runners claiming at once look at
   * different builds; SQLite has one writer, and the claim runs in a transaction.
   */
  claim(runner: RunnerMatch, tokenDigest: string): Promise<CiBuild | undefined> {
    return atomically(this.db, async (db) => {
      let query = db
        .selectFrom("ci_builds")
        .select(["id", "tag_list"])
        .where("status", "=", "pending")
        .where("type", "=", "build");
      query = runner.isShared
        ? query.where("project_id", "in", (eb) =>
            eb
              .selectFrom("projects")
              .select("id")
              .where("shared_runners_enabled", "=", 1)
              .where("builds_enabled", "=", 1),
          )
        : query.where("project_id", "in", (eb) =>
            eb.selectFrom("ci_runner_projects").select("project_id").where("runner_id", "=", runner.id),
          );
      query = query.orderBy("id").limit(CLAIM_WINDOW);
      if (!onSqlite(db)) query = query.forUpdate().skipLocked();
      const candidates = await query.execute();
      const chosen = candidates.find((row) => runnerCanPick(runner, JSON.parse(row.tag_list) as string[]));
      if (!chosen) return undefined;
      const stamp = now();
      return new CiBuildStore(db).update(
        chosen.id,
        { status: "running", runner_id: runner.id, token_digest: tokenDigest, started_at: stamp },
        ["pending"],
      );
    });
  }
}
