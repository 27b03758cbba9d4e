import { z } from "zod";
import { DateParam, IidList, IssuableTitle, requireOneOf } from "./issuables.js";
import { PaginationParams } from "./pagination.js";
import { Id, Timestamp } from "./primitives.js";
import { ProjectRef } from "./projects.js";

// ---------------------------------------------------------------------------------------- input

/** A milestone's state as filters name it; `all` (the default) lists both. */
export const MilestoneStateFilter = z.enum(["active", "closed", "all"]);
export type MilestoneStateFilter = z.infer<typeof MilestoneStateFilter>;

/** The transitions `PUT …/milestones/:milestone_id` can ask for: active → closed and back. */
export const MilestoneStateEvent = z.enum(["close", "activate"]);
export type MilestoneStateEvent = z.infer<typeof MilestoneStateEvent>;

/** `GET /projects/:id/milestones`: GitLab lists them in no particular order. */
export const ListMilestonesInput = PaginationParams.extend({
  id: ProjectRef,
  state: MilestoneStateFilter.default("all"),
  iid: IidList.optional(),
});
export type ListMilestonesInput = z.infer<typeof ListMilestonesInput>;

/** Routes that name one milestone of a project, by its global id. */
export const MilestoneRefInput = z.object({ id: ProjectRef, milestone_id: Id });
export type MilestoneRefInput = z.infer<typeof MilestoneRefInput>;

/** `POST /projects/:id/milestones` (masters). The title is unique in the project. */
export const CreateMilestoneInput = z.object({
  id: ProjectRef,
  title: IssuableTitle,
  description: z.string().nullable().optional(),
  due_date: DateParam.optional(),
  /** GitLab 8.15; not after `due_date` when both are set. */
  start_date: DateParam.optional(),
});
export type CreateMilestoneInput = z.infer<typeof CreateMilestoneInput>;

/** `PUT /projects/:id/milestones/:milestone_id`: GitLab refuses an edit that changes nothing. */
export const UpdateMilestoneInput = requireOneOf(
  z.object({
    id: ProjectRef,
    milestone_id: Id,
    title: IssuableTitle.optional(),
    description: z.string().nullable().optional(),
    due_date: DateParam.optional(),
    start_date: DateParam.optional(),
    state_event: MilestoneStateEvent.optional(),
  }),
  ["title", "description", "due_date", "start_date", "state_event"],
);
export type UpdateMilestoneInput = z.infer<typeof UpdateMilestoneInput>;

/** `GET /projects/:id/milestones/:milestone_id/issues`: the issues the caller may read, id desc. */
export const MilestoneIssuesInput = PaginationParams.extend({ id: ProjectRef, milestone_id: Id });
export type MilestoneIssuesInput = z.infer<typeof MilestoneIssuesInput>;

// --------------------------------------------------------------------------------------- output

/** A milestone's state: `active` until closed, `active` again when activated. */
export const MilestoneState = z.enum(["active", "closed"]);
export type MilestoneState = z.infer<typeof MilestoneState>;

/**
 * A milestone, alone and inside issues and merge requests. GitLab 8.15's order (the entity's
 * common fields, then the dates); `start_date` is 8.15's, null when unset.
 */
export const MilestoneJson = z.object({
  id: Id,
  iid: Id,
  project_id: Id,
  title: z.string(),
  description: z.string().nullable(),
  state: MilestoneState,
  created_at: Timestamp,
  updated_at: Timestamp,
  due_date: z.iso.date().nullable(),
  start_date: z.iso.date().nullable(),
});
export type MilestoneJson = z.infer<typeof MilestoneJson>;
