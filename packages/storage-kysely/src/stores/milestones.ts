import type { Milestone, MilestoneState, Page, PageRequest } from "@kiln/domain";
import type { Kysely, Selectable } from "kysely";
import type { Database, MilestonesTable } from "../database.js";
import { guardUnique } from "../errors.js";
import { atomically, definedOnly, now, paginate } from "../queries.js";
import { InternalIdStore } from "./internal-ids.js";

const toMilestone = (row: Selectable<MilestonesTable>): Milestone => ({
  ...row,
  state: row.state as MilestoneState,
});

/** What a new milestone is made of; it starts active. */
export type NewMilestone = Pick<
  Milestone,
  "project_id" | "title" | "description" | "due_date" | "start_date"
>;

/** What an edit may change; undefined fields stay. The state changes through {@link MilestoneStore.setState}. */
export type MilestonePatch = {
  [K in "title" | "description" | "due_date" | "start_date"]?: Milestone[K] | undefined;
};

/** Filters of milestone lists. */
export interface MilestoneFilter {
  states?: readonly MilestoneState[] | undefined;
  iids?: readonly number[] | undefined;
  title?: string | undefined;
}

/**
 * Milestones of projects, numbered per project like issues. Titles are unique in a project: a
 * create or rename to a taken title raises UniqueViolation.
 */
export class MilestoneStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** A milestone by id. */
  async findById(id: number): Promise<Milestone | undefined> {
    const row = await this.db.selectFrom("milestones").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toMilestone(row);
  }

  /** Milestones by id. */
  async findByIds(ids: readonly number[]): Promise<Map<number, Milestone>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("milestones")
      .selectAll()
      .where("id", "in", [...new Set(ids)])
      .execute();
    return new Map(rows.map((row) => [row.id, toMilestone(row)]));
  }

  /** A project's milestone by iid. */
  async findByIid(projectId: number, iid: number): Promise<Milestone | undefined> {
    const row = await this.db
      .selectFrom("milestones")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("iid", "=", iid)
      .executeTakeFirst();
    return row && toMilestone(row);
  }

  /** A project's milestone by exact title. */
  async findByTitle(projectId: number, title: string): Promise<Milestone | undefined> {
    const row = await this.db
      .selectFrom("milestones")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("title", "=", title)
      .executeTakeFirst();
    return row && toMilestone(row);
  }

  /**
   * Creates an active milestone with the project's next milestone iid, in one transaction;
   * UniqueViolation when the title is taken.
   */
  async create(milestone: NewMilestone): Promise<Milestone> {
    return atomically(this.db, async (db) => {
      const iid = await new InternalIdStore(db).next(milestone.project_id, "milestones");
      const at = now();
      const row = await guardUnique(() =>
        db
          .insertInto("milestones")
          .values({ ...milestone, iid, state: "active", created_at: at, updated_at: at })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
      return toMilestone(row);
    });
  }

  /** Applies an edit; undefined when there is no such milestone, UniqueViolation on a taken title. */
  async update(id: number, patch: MilestonePatch): Promise<Milestone | undefined> {
    const row = await guardUnique(() =>
      this.db
        .updateTable("milestones")
        .set({ ...definedOnly(patch), updated_at: now() })
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst(),
    );
    return row && toMilestone(row);
  }

  /**
   * Moves a milestone from state `from` to `to` (the domain's state machine says which moves
   * exist); undefined when it is missing or no longer in `from`.
   */
  async setState(id: number, from: MilestoneState, to: MilestoneState): Promise<Milestone | undefined> {
    const row = await this.db
      .updateTable("milestones")
      .set({ state: to, updated_at: now() })
      .where("id", "=", id)
      .where("state", "=", from)
      .returningAll()
      .executeTakeFirst();
    return row && toMilestone(row);
  }

  /** Deletes a milestone; its issues and merge requests keep going without one. True if it existed. */
  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom("milestones").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** One page of a project's milestones, filtered, by id (GitLab gives them in no particular order). */
  async list(projectId: number, filter: MilestoneFilter, page: PageRequest): Promise<Page<Milestone>> {
    let query = this.db.selectFrom("milestones").selectAll().where("project_id", "=", projectId);
    if (filter.states !== undefined) {
      if (filter.states.length === 0) return { items: [], page: page.page, perPage: page.perPage, total: 0 };
      query = query.where("state", "in", [...new Set(filter.states)]);
    }
    if (filter.iids !== undefined) {
      if (filter.iids.length === 0) return { items: [], page: page.page, perPage: page.perPage, total: 0 };
      query = query.where("iid", "in", [...new Set(filter.iids)]);
    }
    if (filter.title !== undefined) query = query.where("title", "=", filter.title);
    const { rows, total } = await paginate(this.db, query.orderBy("id", "asc"), page, "exact");
    return { items: rows.map(toMilestone), page: page.page, perPage: page.perPage, total };
  }
}
