import type { Page, PageRequest } from "@kiln/domain";
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { CiPipelinesTable, Database } from "../database.js";
import { flag, now, paginate, withBooleans } from "../queries.js";

/** A pipeline as stored, with `tag` a boolean. */
export type CiPipeline = Omit<Selectable<CiPipelinesTable>, "tag"> & { tag: boolean };

/** What a new pipeline is made of; times come with the write. */
export type NewCiPipeline = Omit<Insertable<CiPipelinesTable>, "id" | "created_at" | "updated_at" | "tag"> & {
  tag: boolean;
};

/** What a status update may change. */
export type CiPipelinePatch = Omit<Updateable<CiPipelinesTable>, "id" | "project_id" | "created_at">;

/** Which pipelines a list shows (8.x's `scope`). */
export type CiPipelineScope = "running" | "pending" | "finished" | "branches" | "tags" | null;

const toPipeline = (row: Selectable<CiPipelinesTable>): CiPipeline => withBooleans<CiPipeline>(row, ["tag"]);

/** CI pipelines of projects. */
export class CiPipelineStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a new pipeline. */
  async create(pipeline: NewCiPipeline): Promise<CiPipeline> {
    const stamp = now();
    const row = await this.db
      .insertInto("ci_pipelines")
      .values({ ...pipeline, tag: flag(pipeline.tag), created_at: stamp, updated_at: stamp })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toPipeline(row);
  }

  /** One pipeline by id, or undefined. */
  async find(id: number): Promise<CiPipeline | undefined> {
    const row = await this.db.selectFrom("ci_pipelines").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toPipeline(row);
  }

  /** One pipeline of a project, or undefined (another project's too). */
  async findInProject(projectId: number, id: number): Promise<CiPipeline | undefined> {
    const pipeline = await this.find(id);
    return pipeline?.project_id === projectId ? pipeline : undefined;
  }

  /** A page of a project's pipelines, newest first. */
  async list(projectId: number, scope: CiPipelineScope, page: PageRequest): Promise<Page<CiPipeline>> {
    let query = this.db.selectFrom("ci_pipelines").selectAll().where("project_id", "=", projectId);
    if (scope === "running" || scope === "pending") query = query.where("status", "=", scope);
    if (scope === "finished")
      query = query.where("status", "in", ["success", "failed", "canceled", "skipped"]);
    if (scope === "branches") query = query.where("tag", "=", 0);
    if (scope === "tags") query = query.where("tag", "=", 1);
    const { rows, total } = await paginate(this.db, query.orderBy("id", "desc"), page, "capped");
    return { items: rows.map(toPipeline), page: page.page, perPage: page.perPage, total };
  }

  /** The pipelines of a commit in a project, newest first. */
  async forSha(projectId: number, sha: string): Promise<CiPipeline[]> {
    const rows = await this.db
      .selectFrom("ci_pipelines")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("sha", "=", sha)
      .orderBy("id", "desc")
      .execute();
    return rows.map(toPipeline);
  }

  /** Changes a pipeline; answers it as it is now. */
  async update(id: number, patch: CiPipelinePatch): Promise<CiPipeline | undefined> {
    const row = await this.db
      .updateTable("ci_pipelines")
      .set({ ...patch, updated_at: now() })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    return row && toPipeline(row);
  }
}
