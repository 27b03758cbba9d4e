import type { Label, LabelCounts } from "@kiln/domain";
import { type Kysely, type Selectable, sql } from "kysely";
import type { Database, LabelsTable } from "../database.js";
import { guardUnique } from "../errors.js";
import { atomically, definedOnly, now } from "../queries.js";
import type { IssuableType } from "./issuables.js";
import { type ConfidentialFilter, confidentialCondition } from "./issues.js";
import { countLinks, type LabelTarget } from "./label-counters.js";

export type { LabelTarget } from "./label-counters.js";

/** The columns of a {@link Label}: the rest of the row are its counters. */
export const LABEL_COLUMNS = [
  "id",
  "project_id",
  "title",
  "color",
  "description",
  "priority",
  "created_at",
  "updated_at",
] as const satisfies readonly (keyof Label & keyof Selectable<LabelsTable>)[];

const LABEL_COLUMNS_OF_LABELS = LABEL_COLUMNS.map((column) => `labels.${column}` as const);

const toLabel = (row: Pick<Selectable<LabelsTable>, (typeof LABEL_COLUMNS)[number]>): Label => row;

/**
 * Labels in GitLab's list order, by title, here ignoring case first (as PostgreSQL's usual
 * collations do) and then by exact title and id, the same on both databases.
 */
export function byTitle(a: Label, b: Label): number {
  const x = a.title.toLowerCase();
  const y = b.title.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  if (a.title !== b.title) return a.title < b.title ? -1 : 1;
  return a.id - b.id;
}

/** What a new label is made of. */
export type NewLabel = Omit<Label, "id" | "created_at" | "updated_at">;

/** What an edit may change; undefined fields stay. */
export type LabelPatch = {
  [K in "title" | "color" | "description" | "priority"]?: Label[K] | undefined;
};

/**
 * Labels of projects and the links that put them on issues and merge requests. Titles are unique
 * in a project, comparing case: a create or rename to a taken title raises UniqueViolation.
 */
export class LabelStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** A label by id. */
  async findById(id: number): Promise<Label | undefined> {
    const row = await this.db
      .selectFrom("labels")
      .select(LABEL_COLUMNS)
      .where("id", "=", id)
      .executeTakeFirst();
    return row && toLabel(row);
  }

  /** A project's label by exact title. */
  async findByTitle(projectId: number, title: string): Promise<Label | undefined> {
    const row = await this.db
      .selectFrom("labels")
      .select(LABEL_COLUMNS)
      .where("project_id", "=", projectId)
      .where("title", "=", title)
      .executeTakeFirst();
    return row && toLabel(row);
  }

  /** A project's labels with these exact titles (those that exist), by title. */
  async findByTitles(projectId: number, titles: readonly string[]): Promise<Label[]> {
    if (titles.length === 0) return [];
    const rows = await this.db
      .selectFrom("labels")
      .select(LABEL_COLUMNS)
      .where("project_id", "=", projectId)
      .where("title", "in", [...new Set(titles)])
      .execute();
    return rows.map(toLabel).sort(byTitle);
  }

  /** Every label of a project, by title (the list is not paginated). */
  async listForProject(projectId: number): Promise<Label[]> {
    const rows = await this.db
      .selectFrom("labels")
      .select(LABEL_COLUMNS)
      .where("project_id", "=", projectId)
      .execute();
    return rows.map(toLabel).sort(byTitle);
  }

  /** Creates a label; UniqueViolation when the project has one with this title. */
  async create(label: NewLabel): Promise<Label> {
    const at = now();
    const row = await guardUnique(() =>
      this.db
        .insertInto("labels")
        .values({ ...label, created_at: at, updated_at: at })
        .returning(LABEL_COLUMNS)
        .executeTakeFirstOrThrow(),
    );
    return toLabel(row);
  }

  /** Applies an edit; undefined when there is no such label, UniqueViolation on a taken title. */
  async update(id: number, patch: LabelPatch): Promise<Label | undefined> {
    const row = await guardUnique(() =>
      this.db
        .updateTable("labels")
        .set({ ...definedOnly(patch), updated_at: now() })
        .where("id", "=", id)
        .returning(LABEL_COLUMNS)
        .executeTakeFirst(),
    );
    return row && toLabel(row);
  }

  /** Deletes a label, its links and its subscriptions. True if it existed. */
  async delete(id: number): Promise<boolean> {
    return atomically(this.db, async (db) => {
      await db
        .deleteFrom("subscriptions")
        .where("subscribable_type", "=", "Label")
        .where("subscribable_id", "=", id)
        .execute();
      const result = await db.deleteFrom("labels").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  /**
   * How many open and closed issues and open merge requests carry each label (open: opened or
   * reopened): the label's counters, or, when `confidential` leaves out the confidential issues it
   * does not name (as for lists), a count.
   */
  async counts(
    labelIds: readonly number[],
    confidential?: ConfidentialFilter,
  ): Promise<Map<number, LabelCounts>> {
    const counts = new Map<number, LabelCounts>(
      labelIds.map((id) => [
        id,
        { open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 },
      ]),
    );
    if (labelIds.length === 0) return counts;
    const ids = [...new Set(labelIds)];
    if (!confidential) {
      const rows = await this.db
        .selectFrom("labels")
        .select(["id", "open_issues_count", "closed_issues_count", "open_merge_requests_count"])
        .where("id", "in", ids)
        .execute();
      for (const { id, ...counted } of rows) counts.set(id, counted);
      return counts;
    }
    let issues = this.db
      .selectFrom("label_links")
      .innerJoin("issues", "issues.id", "label_links.target_id")
      .select(["label_links.label_id", "issues.state", sql<number | string>`count(*)`.as("n")])
      .where("label_links.target_type", "=", "Issue")
      .where("label_links.label_id", "in", ids)
      .groupBy(["label_links.label_id", "issues.state"]);
    if (confidential) issues = issues.where(confidentialCondition(confidential));
    for (const row of await issues.execute()) {
      const entry = counts.get(row.label_id);
      if (!entry) continue;
      if (row.state === "closed") entry.closed_issues_count = Number(row.n);
      else entry.open_issues_count = Number(row.n);
    }
    const mergeRequests = await this.db
      .selectFrom("label_links")
      .innerJoin("merge_requests", "merge_requests.id", "label_links.target_id")
      .select(["label_links.label_id", sql<number | string>`count(*)`.as("n")])
      .where("label_links.target_type", "=", "MergeRequest")
      .where("label_links.label_id", "in", ids)
      .where(sql<boolean>`merge_requests.state = 'opened'`)
      .groupBy("label_links.label_id")
      .execute();
    for (const row of mergeRequests) {
      const entry = counts.get(row.label_id);
      if (entry) entry.open_merge_requests_count = Number(row.n);
    }
    return counts;
  }

  /** The labels of each of some issues (or merge requests), by title; those without any get []. */
  async labelsOf(type: IssuableType, targetIds: readonly number[]): Promise<Map<number, Label[]>> {
    const labels = new Map<number, Label[]>(targetIds.map((id) => [id, []]));
    if (targetIds.length === 0) return labels;
    const rows = await this.db
      .selectFrom("label_links")
      .innerJoin("labels", "labels.id", "label_links.label_id")
      .select(LABEL_COLUMNS_OF_LABELS)
      .select("label_links.target_id")
      .where("label_links.target_type", "=", type)
      .where("label_links.target_id", "in", [...new Set(targetIds)])
      .execute();
    for (const { target_id, ...label } of rows) labels.get(target_id)?.push(toLabel(label));
    for (const list of labels.values()) list.sort(byTitle);
    return labels;
  }

  /** Puts exactly these labels on an issue or merge request: adds the missing, removes the others. */
  async setLabels(target: LabelTarget, labelIds: readonly number[]): Promise<void> {
    await atomically(this.db, async (db) => {
      let removal = db
        .deleteFrom("label_links")
        .where("target_type", "=", target.type)
        .where("target_id", "=", target.id);
      if (labelIds.length > 0) removal = removal.where("label_id", "not in", [...new Set(labelIds)]);
      const removed = await removal.returning("label_id").execute();
      const added = await insertLinks(db, target, labelIds);
      await countLinks(db, target, { added, removed: removed.map((link) => link.label_id) });
    });
  }

  /** Adds labels to an issue or merge request; those it already carries stay as they are. */
  async addLabels(target: LabelTarget, labelIds: readonly number[]): Promise<void> {
    if (labelIds.length === 0) return;
    await atomically(this.db, async (db) => {
      await countLinks(db, target, { added: await insertLinks(db, target, labelIds) });
    });
  }

  /** Takes labels off an issue or merge request. */
  async removeLabels(target: LabelTarget, labelIds: readonly number[]): Promise<void> {
    if (labelIds.length === 0) return;
    await atomically(this.db, async (db) => {
      const removed = await db
        .deleteFrom("label_links")
        .where("target_type", "=", target.type)
        .where("target_id", "=", target.id)
        .where("label_id", "in", [...new Set(labelIds)])
        .returning("label_id")
        .execute();
      await countLinks(db, target, { removed: removed.map((link) => link.label_id) });
    });
  }
}

/** Links the target to these labels; returns those linked now (not those it already carried). */
async function insertLinks(
  db: Kysely<Database>,
  target: LabelTarget,
  labelIds: readonly number[],
): Promise<number[]> {
  if (labelIds.length === 0) return [];
  // Conflicting rows are not returned: only the links made now are counted.
  const added = await db
    .insertInto("label_links")
    .values(
      [...new Set(labelIds)].map((label_id) => ({
        label_id,
        target_type: target.type,
        target_id: target.id,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .returning("label_id")
    .execute();
  return added.map((link) => link.label_id);
}
