import { ISSUE_STATE_EVENTS, ISSUE_STATES } from "@kiln/domain";
import { z } from "zod";
import { GroupRef } from "./groups.js";
import {
  DateParam,
  IidList,
  IssuableFields,
  IssuableOrderParams,
  IssuableTitle,
  LabelList,
  TimeParam,
} from "./issuables.js";
import { MilestoneJson } from "./milestones.js";
import { PaginationParams } from "./pagination.js";
import { Id, Timestamp } from "./primitives.js";
import { ProjectRef } from "./projects.js";
import { UserBasic } from "./users.js";

// ---------------------------------------------------------------------------------------- input

/** The `state` filter of issue lists: `opened` also matches reopened issues, `all` both states. */
export const IssueStateFilter = z.enum(["opened", "closed", "all"]);
export type IssueStateFilter = z.infer<typeof IssueStateFilter>;

/** The transitions an issue edit can ask for (`state_event`). */
export const IssueStateEvent = z.enum(ISSUE_STATE_EVENTS);
export type IssueStateEvent = z.infer<typeof IssueStateEvent>;

/** The filters and order every issue list takes; `milestone` is a milestone's title. */
const IssueListParams = PaginationParams.extend({
  labels: LabelList.optional(),
  milestone: z.string().optional(),
  ...IssuableOrderParams,
});

/**
 * `GET /issues`: the issues the caller authored, in every project, all states unless asked.
 * `labels` matches issues with any of the labels.
 */
export const ListUserIssuesInput = IssueListParams.extend({ state: IssueStateFilter.default("all") });
export type ListUserIssuesInput = z.infer<typeof ListUserIssuesInput>;

/**
 * `GET /groups/:id/issues`: the group's issues the caller may read; GitLab lists only open ones
 * unless asked, and `labels` matches issues that have all of the labels.
 */
export const ListGroupIssuesInput = IssueListParams.extend({
  id: GroupRef,
  state: IssueStateFilter.default("opened"),
});
export type ListGroupIssuesInput = z.infer<typeof ListGroupIssuesInput>;

/** `GET /projects/:id/issues`: all states unless asked; `labels` matches any of the labels. */
export const ListProjectIssuesInput = IssueListParams.extend({
  id: ProjectRef,
  iid: IidList.optional(),
  state: IssueStateFilter.default("all"),
});
export type ListProjectIssuesInput = z.infer<typeof ListProjectIssuesInput>;

/**
 * Routes that name one issue (get, delete, subscription, todo): `issue_id` is the issue's global `id`, not its `iid`, and it must
 * belong to the project in the path.
 */
export const IssueRefInput = z.object({ id: ProjectRef, issue_id: Id });
export type IssueRefInput = z.infer<typeof IssueRefInput>;

/** `POST /projects/:id/issues`. */
export const CreateIssueInput = z.object({
  id: ProjectRef,
  title: IssuableTitle,
  ...IssuableFields,
  /** Honoured for administrators and project owners only (importers back-date issues). */
  created_at: TimeParam.optional(),
  due_date: DateParam.optional(),
  confidential: z.boolean().optional(),
});
export type CreateIssueInput = z.infer<typeof CreateIssueInput>;

/** `PUT /projects/:id/issues/:issue_id`: any of the fields; what is left out keeps its value. */
export const UpdateIssueInput = z.object({
  id: ProjectRef,
  issue_id: Id,
  title: IssuableTitle.optional(),
  ...IssuableFields,
  state_event: IssueStateEvent.optional(),
  /** Honoured for administrators and project owners only. */
  updated_at: TimeParam.optional(),
  due_date: DateParam.optional(),
  confidential: z.boolean().optional(),
});
export type UpdateIssueInput = z.infer<typeof UpdateIssueInput>;

/** `POST /projects/:id/issues/:issue_id/move`: to another project, by its numeric id. */
export const MoveIssueInput = z.object({ id: ProjectRef, issue_id: Id, to_project_id: Id });
export type MoveIssueInput = z.infer<typeof MoveIssueInput>;

// --------------------------------------------------------------------------------------- output

/** An issue's state: reopening answers `reopened`, not `opened`, as GitLab 8.x does. */
export const IssueState = z.enum(ISSUE_STATES);
export type IssueState = z.infer<typeof IssueState>;

/**
 * An issue as every issue endpoint answers it: the spec's fields with GitLab 8.15's additions
 * (`upvotes`, `downvotes`, `confidential`, `web_url`), in 8.15's order. `subscribed` and
 * `user_notes_count` are the caller's view.
 */
export const IssueJson = z.object({
  id: Id,
  iid: Id,
  project_id: Id,
  title: z.string(),
  description: z.string().nullable(),
  state: IssueState,
  created_at: Timestamp,
  updated_at: Timestamp,
  labels: z.array(z.string()),
  milestone: MilestoneJson.nullable(),
  assignee: UserBasic.nullable(),
  author: UserBasic,
  subscribed: z.boolean(),
  user_notes_count: z.number().int().min(0),
  upvotes: z.number().int().min(0),
  downvotes: z.number().int().min(0),
  due_date: z.iso.date().nullable(),
  confidential: z.boolean(),
  web_url: z.string(),
});
export type IssueJson = z.infer<typeof IssueJson>;

/** What a move answers: the new issue, without the caller's `subscribed` and `user_notes_count`. */
export const MovedIssueJson = IssueJson.omit({ subscribed: true, user_notes_count: true });
export type MovedIssueJson = z.infer<typeof MovedIssueJson>;

/** An issue of an external tracker, as `closes_issues` lists it when one is configured. */
export const ExternalIssueJson = z.object({ id: z.string(), title: z.string() });
export type ExternalIssueJson = z.infer<typeof ExternalIssueJson>;
