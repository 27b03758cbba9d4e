import type { StateMachine } from "./state-machine.js";

/**
 * The states of a merge request as GitLab 8.x reports them. (GitLab also has a transient `locked`
 * state while it merges; Kiln merges with a compare-and-swap of the target ref instead.)
 */
export const MERGE_REQUEST_STATES = ["opened", "reopened", "closed", "merged"] as const;

/** One of {@link MERGE_REQUEST_STATES}. */
export type MergeRequestState = (typeof MERGE_REQUEST_STATES)[number];

/** What changes a merge request's state: `close` and `reopen` on edit, `merge` by accepting it only. */
export const MERGE_REQUEST_STATE_EVENTS = ["close", "reopen", "merge"] as const;

/** One of {@link MERGE_REQUEST_STATE_EVENTS}. */
export type MergeRequestStateEvent = (typeof MERGE_REQUEST_STATE_EVENTS)[number];

/**
 * The merge request state machine: an open one (opened or reopened) is closed or merged, a closed
 * one reopened; merged is final.
 */
export const MERGE_REQUEST_STATE_MACHINE: StateMachine<MergeRequestState, MergeRequestStateEvent> = {
  opened: { close: "closed", merge: "merged" },
  reopened: { close: "closed", merge: "merged" },
  closed: { reopen: "reopened" },
  merged: {},
};

/**
 * The `state` filter of merge request lists: `opened` also matches reopened ones, `closed` only
 * closed ones (merged ones are not closed), `all` every state.
 */
export type MergeRequestStateFilter = "opened" | "closed" | "merged" | "all";

/** The states each value of the `state` filter of merge request lists matches. */
export const MERGE_REQUEST_STATE_FILTERS: Readonly<
  Record<MergeRequestStateFilter, readonly MergeRequestState[]>
> = {
  opened: ["opened", "reopened"],
  closed: ["closed"],
  merged: ["merged"],
  all: MERGE_REQUEST_STATES,
};

/**
 * Whether the source merges cleanly into the target: `unchecked` until a git merge test runs (and
 * again after either branch moves or the merge request is reopened).
 */
export const MERGE_STATUSES = ["unchecked", "can_be_merged", "cannot_be_merged"] as const;

/** One of {@link MERGE_STATUSES}. */
export type MergeStatus = (typeof MERGE_STATUSES)[number];

/**
 * A merge request: merge `source_branch` of the source project into `target_branch` of the target
 * project, which is the project it belongs to (`project_id`). `id` is unique across all merge
 * requests, `iid` only inside the target project (never reused there).
 */
export interface MergeRequest {
  id: number;
  project_id: number;
  iid: number;
  /** Always `project_id`: the project the merge request belongs to. */
  target_project_id: number;
  /** Null once the source project (a fork) is deleted. */
  source_project_id: number | null;
  source_branch: string;
  target_branch: string;
  title: string;
  description: string | null;
  state: MergeRequestState;
  /** Null once the author's account is deleted. */
  author_id: number | null;
  assignee_id: number | null;
  milestone_id: number | null;
  merge_status: MergeStatus;
  /** Set to merge as soon as the head pipeline succeeds. */
  merge_when_build_succeeds: boolean;
  /** Who asked to merge when the build succeeds (the merge then runs as them). */
  merge_user_id: number | null;
  /** Remove the source branch after the merge (asked for on accept). */
  should_remove_source_branch: boolean;
  /** Remove the source branch after the merge (asked for on create). */
  force_remove_source_branch: boolean;
  /** The source branch head the merge request was last checked at. */
  diff_head_sha: string | null;
  /** The merge commit, once merged. */
  merge_commit_sha: string | null;
  created_at: string;
  updated_at: string;
}

// GitLab 8.x's WIP_REGEX: `[WIP]`, `WIP:` or `WIP ` at the start of the title, any case.
const WIP = /^\s*(?:\[wip\]|wip:|wip\s)/i;

/** True when the title marks the merge request as a work in progress, which cannot be merged. */
export function isWorkInProgress(title: string): boolean {
  return WIP.test(title);
}

/** A list as Rails' `to_sentence` writes it: `a`, `a and b`, `a, b, and c`. */
export function toSentence(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? "";
  if (words.length === 2) return `${words[0]} and ${words[1]}`;
  return `${words.slice(0, -1).join(", ")}, and ${words[words.length - 1]}`;
}

/**
 * The message of the merge commit when the caller gives none: "Merge branch 'x' into 'y'", the
 * title, "Closes …" for the issues it closes (references as the target project writes them, e.g.
 * `#3`), and "See merge request !iid", separated by blank lines.
 */
export function defaultMergeCommitMessage(
  mergeRequest: Pick<MergeRequest, "source_branch" | "target_branch" | "title" | "iid">,
  closedIssueReferences: readonly string[] = [],
): string {
  const parts = [
    `Merge branch '${mergeRequest.source_branch}' into '${mergeRequest.target_branch}'`,
    mergeRequest.title,
  ];
  if (closedIssueReferences.length > 0) parts.push(`Closes ${toSentence(closedIssueReferences)}`);
  parts.push(`See merge request !${mergeRequest.iid}`);
  return parts.join("\n\n");
}
