import {
  MERGE_REQUEST_STATES,
  type MergeRequest,
  type MergeRequestState,
  type Page,
  type PageRequest,
} from "@kiln/domain";
import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import type { Database } from "../database.js";
import { guardUnique } from "../errors.js";
import { atomically, DEFERRED_JOIN_OFFSET, flag, now, paginate } from "../queries.js";
import { InternalIdStore } from "./internal-ids.js";
import {
  countIssuable,
  deleteIssuable,
  type IssuableOrder,
  type IssuableScope,
  issuableConditions,
  type ListConditions,
  narrowedBeyondStates,
  recountState,
  storedState,
} from "./issuables.js";
import {
  type MergeParams,
  type MergeRequestCounts,
  type MergeRequestFilter,
  type MergeRequestPatch,
  type NewMergeRequest,
  storedPatch,
  toMergeRequest,
} from "./merge-request-rows.js";

export type { MergeParams, MergeRequestCounts, MergeRequestFilter, MergeRequestPatch, NewMergeRequest };

/**
 * Merge requests: rows numbered per target project, their state counters, and lists. At most one
 * is open per source project and branch and target project and branch: a create, a reopen or a
 * change of target branch that would make a second one raises UniqueViolation.
 */
export class MergeRequestStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** A merge request by id. */
  async findById(id: number): Promise<MergeRequest | undefined> {
    const row = await this.db
      .selectFrom("merge_requests")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
    return row && toMergeRequest(row);
  }

  /** Merge requests by id. */
  async findByIds(ids: readonly number[]): Promise<Map<number, MergeRequest>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("merge_requests")
      .selectAll()
      .where("id", "in", [...new Set(ids)])
      .execute();
    return new Map(rows.map((row) => [row.id, toMergeRequest(row)]));
  }

  /** A merge request of a (target) project by iid. */
  async findByIid(projectId: number, iid: number): Promise<MergeRequest | undefined> {
    const row = await this.db
      .selectFrom("merge_requests")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("iid", "=", iid)
      .executeTakeFirst();
    return row && toMergeRequest(row);
  }

  /** The open merge request (opened or reopened) from a source branch into a target branch, if any. */
  async findOpen(
    sourceProjectId: number,
    sourceBranch: string,
    targetProjectId: number,
    targetBranch: string,
  ): Promise<MergeRequest | undefined> {
    const row = await this.db
      .selectFrom("merge_requests")
      .selectAll()
      .where("source_project_id", "=", sourceProjectId)
      .where("source_branch", "=", sourceBranch)
      .where("project_id", "=", targetProjectId)
      .where("target_branch", "=", targetBranch)
      .where(sql<boolean>`state = 'opened'`)
      .executeTakeFirst();
    return row && toMergeRequest(row);
  }

  /** The open merge requests from a branch of a (source) project: to refresh them when it moves. */
  async openFromBranch(sourceProjectId: number, branch: string): Promise<MergeRequest[]> {
    const rows = await this.db
      .selectFrom("merge_requests")
      .selectAll()
      .where("source_project_id", "=", sourceProjectId)
      .where("source_branch", "=", branch)
      .where(sql<boolean>`state = 'opened'`)
      .orderBy("id")
      .execute();
    return rows.map(toMergeRequest);
  }

  /** The open merge requests into a branch of a (target) project: to refresh them when it moves. */
  async openIntoBranch(projectId: number, branch: string): Promise<MergeRequest[]> {
    const rows = await this.db
      .selectFrom("merge_requests")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("target_branch", "=", branch)
      .where(sql<boolean>`state = 'opened'`)
      .orderBy("id")
      .execute();
    return rows.map(toMergeRequest);
  }

  /**
   * Creates an opened, unchecked merge request with the target project's next iid and counts it,
   * in one transaction (the caller's, if any). Locks the project's merge request counter, then the
   * project's row. UniqueViolation when one is already open for the same branches.
   */
  async create(mergeRequest: NewMergeRequest): Promise<MergeRequest> {
    return atomically(this.db, async (db) => {
      const iid = await new InternalIdStore(db).next(mergeRequest.project_id, "merge_requests");
      const at = now();
      const row = await guardUnique(() =>
        db
          .insertInto("merge_requests")
          .values({
            project_id: mergeRequest.project_id,
            iid,
            source_project_id: mergeRequest.source_project_id,
            source_branch: mergeRequest.source_branch,
            target_branch: mergeRequest.target_branch,
            title: mergeRequest.title,
            description: mergeRequest.description,
            state: "opened",
            reopened: 0,
            author_id: mergeRequest.author_id,
            assignee_id: mergeRequest.assignee_id,
            milestone_id: mergeRequest.milestone_id,
            merge_status: "unchecked",
            merge_when_build_succeeds: 0,
            merge_user_id: null,
            should_remove_source_branch: 0,
            force_remove_source_branch: flag(mergeRequest.force_remove_source_branch),
            diff_head_sha: mergeRequest.diff_head_sha,
            merge_commit_sha: null,
            created_at: mergeRequest.created_at ?? at,
            updated_at: mergeRequest.updated_at ?? at,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
      await countIssuable(db, "merge_requests", mergeRequest.project_id, "opened", 1);
      return toMergeRequest(row);
    });
  }

  /** The options of the merge to run when the build succeeds; empty when none were asked for. */
  async mergeParams(id: number): Promise<MergeParams> {
    const row = await this.db
      .selectFrom("merge_requests")
      .select("merge_params")
      .where("id", "=", id)
      .executeTakeFirst();
    return row?.merge_params ? (JSON.parse(row.merge_params) as MergeParams) : {};
  }

  /** Applies an edit; undefined when there is no such merge request. */
  async update(id: number, patch: MergeRequestPatch): Promise<MergeRequest | undefined> {
    const values = { ...storedPatch(patch), updated_at: patch.updated_at ?? now() };
    const row = await guardUnique(() =>
      this.db
        .updateTable("merge_requests")
        .set(values)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst(),
    );
    return row && toMergeRequest(row);
  }

  /**
   * Moves a merge request from state `from` to `to` (the domain's state machine says which moves
   * exist), with `patch` (the merge commit of a merge, say), and keeps the project's counters, in
   * one transaction. Undefined when it is missing or no longer in `from`: of two concurrent merges
   * one gets the merge request, the other undefined. UniqueViolation when a reopen would make a
   * second open one for the same branches.
   */
  async setState(
    id: number,
    from: MergeRequestState,
    to: MergeRequestState,
    patch: MergeRequestPatch = {},
  ): Promise<MergeRequest | undefined> {
    return atomically(this.db, async (db) => {
      const before = storedState(from);
      const values = {
        ...storedPatch(patch),
        ...storedState(to),
        updated_at: patch.updated_at ?? now(),
      };
      const row = await guardUnique(() =>
        db
          .updateTable("merge_requests")
          .set(values)
          .where("id", "=", id)
          .where("state", "=", before.state)
          .where("reopened", "=", before.reopened)
          .returningAll()
          .executeTakeFirst(),
      );
      if (!row) return undefined;
      await recountState(db, "merge_requests", row, from, to);
      return toMergeRequest(row);
    });
  }

  /**
   * Deletes a merge request with its notes, label links, todos and subscriptions, and uncounts it,
   * in one transaction. Its iid is not given out again. True if it existed.
   */
  async delete(id: number): Promise<boolean> {
    return atomically(this.db, (db) => deleteIssuable(db, "merge_requests", id));
  }

  /** How many merge requests a project has in each state, from its counters. */
  async counts(projectId: number): Promise<MergeRequestCounts> {
    const row = await this.db
      .selectFrom("projects")
      .select(["open_merge_requests_count", "closed_merge_requests_count", "merged_merge_requests_count"])
      .where("id", "=", projectId)
      .executeTakeFirst();
    return {
      opened: Number(row?.open_merge_requests_count ?? 0),
      closed: Number(row?.closed_merge_requests_count ?? 0),
      merged: Number(row?.merged_merge_requests_count ?? 0),
    };
  }

  /**
   * One page of merge requests from a scope, filtered and ordered. The total comes from the
   * project's counters when the list is one project's merge requests filtered by state alone, else
   * it is counted up to COUNT_LIMIT (null beyond).
   */
  async list(
    scope: IssuableScope,
    filter: MergeRequestFilter,
    order: IssuableOrder,
    page: PageRequest,
  ): Promise<Page<MergeRequest>> {
    const conditions = await issuableConditions(
      this.db,
      "merge_requests",
      scope,
      filter,
      MERGE_REQUEST_STATES,
    );
    if (conditions === null) return { items: [], page: page.page, perPage: page.perPage, total: 0 };
    const matching = (predicates: ListConditions["count"]) => {
      let query = this.db.selectFrom("merge_requests").selectAll();
      for (const condition of predicates) query = query.where(condition);
      if (filter.sourceBranch !== undefined) query = query.where("source_branch", "=", filter.sourceBranch);
      if (filter.targetBranch !== undefined) query = query.where("target_branch", "=", filter.targetBranch);
      return ordered(query, order);
    };
    // The count walks many rows and the page few: see ListConditions.
    const query = matching(conditions.count);
    const pageQuery = matching(conditions.page);
    const unfiltered =
      scope.kind === "project" &&
      !narrowedBeyondStates(filter) &&
      filter.sourceBranch === undefined &&
      filter.targetBranch === undefined;
    const known = unfiltered
      ? countedTotal(await this.counts(scope.projectId), filter.states ?? MERGE_REQUEST_STATES)
      : null;
    const { rows, total } = await paginate(this.db, query, page, "capped", {
      total: known ?? undefined,
      rows: (limit, offset) =>
        offset < DEFERRED_JOIN_OFFSET
          ? pageQuery.limit(limit).offset(offset).execute()
          : ordered(
              this.db
                .selectFrom("merge_requests")
                .selectAll()
                .where(
                  "id",
                  "in",
                  pageQuery.clearSelect().select("merge_requests.id").limit(limit).offset(offset),
                ),
              order,
            ).execute(),
    });
    return { items: rows.map(toMergeRequest), page: page.page, perPage: page.perPage, total };
  }
}

/** The query in the list's order, ties broken by id in the same direction. */
function ordered<O>(
  query: SelectQueryBuilder<Database, "merge_requests", O>,
  order: IssuableOrder,
): SelectQueryBuilder<Database, "merge_requests", O> {
  const sorted = query.orderBy(order.by, order.direction);
  return order.by === "id" ? sorted : sorted.orderBy("id", order.direction);
}

/** The number of merge requests in `states` from the counters, or null when they cannot tell. */
function countedTotal(counts: MergeRequestCounts, states: readonly MergeRequestState[]): number | null {
  const wanted = new Set(states);
  if (wanted.has("opened") !== wanted.has("reopened")) return null;
  return (
    (wanted.has("opened") ? counts.opened : 0) +
    (wanted.has("closed") ? counts.closed : 0) +
    (wanted.has("merged") ? counts.merged : 0)
  );
}
