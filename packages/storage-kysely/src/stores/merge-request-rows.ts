import type { MergeRequest, MergeRequestState, MergeStatus } from "@kiln/domain";
import type { Selectable } from "kysely";
import type { MergeRequestsTable } from "../database.js";
import { definedOnly, flag } from "../queries.js";
import { type IssuableFilter, rowState } from "./issuables.js";

// The merge request store's shapes, and its rows as the domain's merge requests and back.

const FLAGS = [
  "merge_when_build_succeeds",
  "should_remove_source_branch",
  "force_remove_source_branch",
] as const satisfies readonly (keyof MergeRequest)[];

/** A stored row as the domain's merge request (flags as booleans, the state with reopened). */
export const toMergeRequest = (row: Selectable<MergeRequestsTable>): MergeRequest => {
  const { reopened: _, merge_params: __, ...rest } = row;
  return {
    ...rest,
    target_project_id: row.project_id,
    state: rowState(row) as MergeRequestState,
    merge_status: row.merge_status as MergeStatus,
    merge_when_build_succeeds: row.merge_when_build_succeeds === 1,
    should_remove_source_branch: row.should_remove_source_branch === 1,
    force_remove_source_branch: row.force_remove_source_branch === 1,
  };
};

/** Stores the booleans of a patch as 0/1. */
function storedFlags<T extends Partial<Record<(typeof FLAGS)[number], boolean>>>(values: T) {
  const out: Record<string, unknown> = { ...values };
  for (const key of FLAGS) if (typeof values[key] === "boolean") out[key] = flag(values[key]);
  return out as Omit<T, (typeof FLAGS)[number]> & Partial<Record<(typeof FLAGS)[number], number>>;
}

/**
 * The options of a merge run later, when the build succeeds (GitLab 8.x's `merge_params`): the
 * merge commit's message and whether to remove the source branch, as asked for on accept.
 */
export interface MergeParams {
  commit_message?: string;
  should_remove_source_branch?: boolean;
}

/** A patch as stored: flags as 0/1, merge params as JSON. */
export function storedPatch(patch: MergeRequestPatch) {
  const { merge_params, ...rest } = definedOnly(patch);
  return {
    ...storedFlags(rest),
    ...(merge_params !== undefined ? { merge_params: merge_params && JSON.stringify(merge_params) } : {}),
  };
}

/** What a new merge request is made of; `project_id` is the target project. The times default to now. */
export type NewMergeRequest = Pick<
  MergeRequest,
  | "project_id"
  | "source_project_id"
  | "source_branch"
  | "target_branch"
  | "title"
  | "description"
  | "author_id"
  | "assignee_id"
  | "milestone_id"
  | "force_remove_source_branch"
  | "diff_head_sha"
> & { created_at?: string | undefined; updated_at?: string | undefined };

/**
 * What an edit may change; undefined fields stay. The state changes through
 * {@link MergeRequestStore.setState} only; source project and branch never change. `updated_at`
 * defaults to now.
 */
export type MergeRequestPatch = {
  [K in
    | "title"
    | "description"
    | "target_branch"
    | "assignee_id"
    | "milestone_id"
    | "merge_status"
    | "merge_when_build_succeeds"
    | "merge_user_id"
    | "should_remove_source_branch"
    | "force_remove_source_branch"
    | "diff_head_sha"
    | "merge_commit_sha"
    | "updated_at"]?: MergeRequest[K] | undefined;
} & { merge_params?: MergeParams | null | undefined };

/** Filters of merge request lists. */
export interface MergeRequestFilter extends IssuableFilter<MergeRequestState> {
  sourceBranch?: string | undefined;
  targetBranch?: string | undefined;
}

/** How many merge requests a project (as target) has open (opened or reopened), closed and merged. */
export interface MergeRequestCounts {
  opened: number;
  closed: number;
  merged: number;
}
