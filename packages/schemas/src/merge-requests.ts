import { MERGE_REQUEST_STATE_EVENTS, MERGE_REQUEST_STATES, MERGE_STATUSES } from "@kiln/domain";
import { z } from "zod";
import { IidList, IssuableFields, IssuableOrderParams, IssuableTitle } from "./issuables.js";
import { ExternalIssueJson, IssueJson } from "./issues.js";
import { MilestoneJson } from "./milestones.js";
import { PaginationParams } from "./pagination.js";
import { Id, Timestamp } from "./primitives.js";
import { ProjectRef } from "./projects.js";
import { CommitJson, DiffJson } from "./repository.js";
import { UserBasic } from "./users.js";

// Every route below also exists under GitLab 8.x's deprecated singular
// `/projects/:id/merge_request/:merge_request_id`, with the same inputs.

// ---------------------------------------------------------------------------------------- input

/** A branch named in a merge request: non-empty; whether it exists is the operation's check. */
const BranchName = z.string().min(1, { error: "can't be blank" });

/**
 * The `state` filter of the merge request list: `opened` also matches reopened ones, and `closed`
 * leaves merged ones out.
 */
export const MergeRequestStateFilter = z.enum(["opened", "closed", "merged", "all"]);
export type MergeRequestStateFilter = z.infer<typeof MergeRequestStateFilter>;

/** The transitions a merge request edit can ask for; GitLab accepts `merge` and ignores it. */
export const MergeRequestStateEvent = z.enum(MERGE_REQUEST_STATE_EVENTS);
export type MergeRequestStateEvent = z.infer<typeof MergeRequestStateEvent>;

/** `GET /projects/:id/merge_requests`: all states unless asked, newest first. */
export const ListMergeRequestsInput = PaginationParams.extend({
  id: ProjectRef,
  iid: IidList.optional(),
  state: MergeRequestStateFilter.default("all"),
  ...IssuableOrderParams,
});
export type ListMergeRequestsInput = z.infer<typeof ListMergeRequestsInput>;

/** Whose merge requests a user's list holds: those they opened, or those assigned to them. */
export const MergeRequestScope = z.enum(["created_by_me", "assigned_to_me"]);
export type MergeRequestScope = z.infer<typeof MergeRequestScope>;

/**
 * The caller's merge requests across the projects whose merge requests they may read (no v3
 * route: GitLab 9's `GET /merge_requests`, served over tRPC): opened by them unless `scope` says
 * assigned, all states unless asked, newest first.
 */
export const ListMyMergeRequestsInput = PaginationParams.extend({
  scope: MergeRequestScope.default("created_by_me"),
  state: MergeRequestStateFilter.default("all"),
  ...IssuableOrderParams,
});
export type ListMyMergeRequestsInput = z.infer<typeof ListMyMergeRequestsInput>;

/**
 * Routes that name one merge request (get, delete, commits, changes, cancel merge when build
 * succeeds, subscription, todo): `merge_request_id` is its global `id`, not its `iid`, and the
 * merge request must target the project in the path.
 */
export const MergeRequestRefInput = z.object({ id: ProjectRef, merge_request_id: Id });
export type MergeRequestRefInput = z.infer<typeof MergeRequestRefInput>;

/**
 * `POST /projects/:id/merge_requests`: from `source_branch` of the project in the path into
 * `target_branch` of `target_project_id` (a fork's merge request to its source), by default the
 * same project.
 */
export const CreateMergeRequestInput = z.object({
  id: ProjectRef,
  source_branch: BranchName,
  target_branch: BranchName,
  title: IssuableTitle,
  target_project_id: Id.optional(),
  ...IssuableFields,
  /** GitLab 8.15: remove the source branch when merged, whoever merges (`force_remove_source_branch`). */
  remove_source_branch: z.boolean().optional(),
});
export type CreateMergeRequestInput = z.infer<typeof CreateMergeRequestInput>;

/**
 * `PUT /projects/:id/merge_requests/:merge_request_id`: any of the fields. The source branch and
 * both projects cannot change.
 */
export const UpdateMergeRequestInput = z.object({
  id: ProjectRef,
  merge_request_id: Id,
  target_branch: BranchName.optional(),
  title: IssuableTitle.optional(),
  ...IssuableFields,
  state_event: MergeRequestStateEvent.optional(),
  remove_source_branch: z.boolean().optional(),
});
export type UpdateMergeRequestInput = z.infer<typeof UpdateMergeRequestInput>;

/** `PUT /projects/:id/merge_requests/:merge_request_id/merge`: accept. */
export const AcceptMergeRequestInput = z.object({
  id: ProjectRef,
  merge_request_id: Id,
  /** Replaces the whole default message ("Merge branch 'x' into 'y'", title, "See merge request !iid"). */
  merge_commit_message: z.string().optional(),
  should_remove_source_branch: z.boolean().optional(),
  /** Keeps the merge request open with the flag set; CI merges it when the build succeeds. */
  merge_when_build_succeeds: z.boolean().optional(),
  /** The source head the caller reviewed: the merge is refused (409) when the branch moved since. */
  sha: z.string().optional(),
});
export type AcceptMergeRequestInput = z.infer<typeof AcceptMergeRequestInput>;

/** `GET …/closes_issues`: paginated, unlike the merge request's commits and changes. */
export const ClosesIssuesInput = PaginationParams.extend({ id: ProjectRef, merge_request_id: Id });
export type ClosesIssuesInput = z.infer<typeof ClosesIssuesInput>;

/** `GET …/comments`: GitLab 8.x's deprecated comment list, oldest first. */
export const ListMergeRequestCommentsInput = PaginationParams.extend({
  id: ProjectRef,
  merge_request_id: Id,
});
export type ListMergeRequestCommentsInput = z.infer<typeof ListMergeRequestCommentsInput>;

/** `POST …/comments`: GitLab 8.x's deprecated way to add a note, with the text in `note`. */
export const CreateMergeRequestCommentInput = z.object({
  id: ProjectRef,
  merge_request_id: Id,
  note: z.string().refine((text) => text.trim().length > 0, { error: "can't be blank" }),
});
export type CreateMergeRequestCommentInput = z.infer<typeof CreateMergeRequestCommentInput>;

// --------------------------------------------------------------------------------------- output

/**
 * A merge request's state. Reopening answers `reopened`. GitLab's transient `locked` never shows:
 * Kiln merges with a compare-and-swap of the target ref instead of locking the merge request.
 */
export const MergeRequestState = z.enum(MERGE_REQUEST_STATES);
export type MergeRequestState = z.infer<typeof MergeRequestState>;

/** Whether the source merges cleanly into the target; `unchecked` until computed after a change. */
export const MergeStatus = z.enum(MERGE_STATUSES);
export type MergeStatus = z.infer<typeof MergeStatus>;

/**
 * The author or assignee of a merge request. The spec's variant for merge requests lists
 * `id, username, email, name, state, created_at` where GitLab 8.15 sends the short form: this is
 * both, with `email` present only where the presenter may show it (the spec lists it, GitLab 8.15
 * never sent it).
 */
export const MergeRequestUserJson = UserBasic.extend({
  created_at: Timestamp,
  email: z.string().optional(),
});
export type MergeRequestUserJson = z.infer<typeof MergeRequestUserJson>;

/**
 * A merge request as every merge request endpoint answers it: the spec's fields with GitLab
 * 8.15's additions (`sha`, `merge_commit_sha`, `web_url`), in 8.15's order. `subscribed` and
 * `user_notes_count` are the caller's view.
 */
export const MergeRequestJson = z.object({
  id: Id,
  iid: Id,
  project_id: Id,
  title: z.string(),
  description: z.string().nullable(),
  state: MergeRequestState,
  created_at: Timestamp,
  updated_at: Timestamp,
  target_branch: z.string(),
  source_branch: z.string(),
  upvotes: z.number().int().min(0),
  downvotes: z.number().int().min(0),
  author: MergeRequestUserJson,
  assignee: MergeRequestUserJson.nullable(),
  source_project_id: Id,
  target_project_id: Id,
  labels: z.array(z.string()),
  work_in_progress: z.boolean(),
  milestone: MilestoneJson.nullable(),
  merge_when_build_succeeds: z.boolean(),
  merge_status: MergeStatus,
  /** The source head the diff was computed at; null while there is no diff. */
  sha: z.string().nullable(),
  /** Set once merged. */
  merge_commit_sha: z.string().nullable(),
  subscribed: z.boolean(),
  user_notes_count: z.number().int().min(0),
  should_remove_source_branch: z.boolean(),
  force_remove_source_branch: z.boolean(),
  web_url: z.string(),
});
export type MergeRequestJson = z.infer<typeof MergeRequestJson>;

/** `GET …/changes`: the merge request with the diff of each file it changes. */
export const MergeRequestChangesJson = MergeRequestJson.extend({ changes: z.array(DiffJson) });
export type MergeRequestChangesJson = z.infer<typeof MergeRequestChangesJson>;

/** `GET …/commits` (not paginated): the source's commits not in the target, newest first. */
export const MergeRequestCommitsJson = z.array(CommitJson);
export type MergeRequestCommitsJson = z.infer<typeof MergeRequestCommitsJson>;

/** An item of `GET …/closes_issues`: an issue, or `{id, title}` with an external tracker. */
export const ClosedIssueJson = z.union([IssueJson, ExternalIssueJson]);
export type ClosedIssueJson = z.infer<typeof ClosedIssueJson>;

/** A note as the deprecated `…/comments` routes show it. */
export const MergeRequestCommentJson = z.object({ note: z.string(), author: UserBasic });
export type MergeRequestCommentJson = z.infer<typeof MergeRequestCommentJson>;
