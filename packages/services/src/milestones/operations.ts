import {
  badRequest,
  DomainError,
  EventAction,
  type FieldErrors,
  type Issue,
  MILESTONE_STATE_FILTERS,
  MILESTONE_STATE_MACHINE,
  type Milestone,
  type MilestoneStateEvent,
  milestoneDatesProblem,
  type Page,
  type ProjectAbility,
  pageRequest,
  transition,
} from "@kiln/domain";
import {
  CreateMilestoneInput,
  ListMilestonesInput,
  MilestoneIssuesInput,
  MilestoneRefInput,
  UpdateMilestoneInput,
} from "@kiln/schemas";
import { type Stores, UniqueViolation } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { recordEvent } from "../events.js";
import { confidentialFilterFor } from "../issuables/access.js";
import { type IssueView, issueViews } from "../issuables/views.js";
import { mutation, query } from "../operation.js";
import { type ProjectAccess, requireProject } from "../projects/access.js";

/** A milestone with the caller's view of its project. */
interface MilestoneAccess extends ProjectAccess {
  milestone: Milestone;
}

/**
 * The milestone `milestoneId` (its global id) of the project `ref`, checked for `ability`. A
 * missing one, or one of another project, is GitLab's ActiveRecord `404 Not found` (lower-case f).
 */
async function requireMilestone(
  ctx: Context,
  ref: number | string,
  milestoneId: number,
  ability: ProjectAbility,
): Promise<MilestoneAccess> {
  const access = await requireProject(ctx, ref, ability);
  const milestone = await ctx.runtime.stores.milestones.findById(milestoneId);
  if (!milestone || milestone.project_id !== access.project.id) {
    throw new DomainError({ kind: "not_found", reason: "milestone_not_found" });
  }
  return { ...access, milestone };
}

/** A milestone that does not save: the action and the model's errors (a 400, not a validation map). */
function failedTo(action: "create" | "update", fields: FieldErrors) {
  return badRequest({ reason: "milestone_not_saved", action, fields });
}

/** Throws the create or update failure when the start date falls after the due date. */
function checkDates(action: "create" | "update", dates: Pick<Milestone, "due_date" | "start_date">): void {
  const problem = milestoneDatesProblem(dates);
  if (problem) throw failedTo(action, { start_date: [problem] });
}

/** Runs a write that may take a title already used in the project, turning that into GitLab's failure. */
async function titled<T>(action: "create" | "update", write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof UniqueViolation) throw failedTo(action, { title: ["has already been taken"] });
    throw error;
  }
}

/** The feed entry of each state event: GitLab 8.x records closing and reopening a milestone. */
const STATE_EVENT_ACTIONS: Readonly<Record<MilestoneStateEvent, EventAction>> = {
  close: EventAction.CLOSED,
  activate: EventAction.REOPENED,
};

/** Appends a milestone event to its project's feed, in `tx`. */
function recordMilestoneActivity(tx: Stores, milestone: Milestone, userId: number, action: EventAction) {
  return recordEvent(tx, {
    projectId: milestone.project_id,
    authorId: userId,
    action,
    target: { type: "Milestone", id: milestone.id, title: milestone.title },
  });
}

/**
 * Moves a milestone along the state machine in `tx` and records it; an event its state does not
 * accept (closing a closed milestone) changes nothing, as GitLab's close and reopen services do.
 */
async function applyStateEvent(
  tx: Stores,
  milestone: Milestone,
  event: MilestoneStateEvent,
  userId: number,
): Promise<Milestone> {
  const to = transition(MILESTONE_STATE_MACHINE, milestone.state, event);
  if (to === null) return milestone;
  const moved = await tx.milestones.setState(milestone.id, milestone.state, to);
  if (!moved) return milestone;
  await recordMilestoneActivity(tx, moved, userId, STATE_EVENT_ACTIONS[event]);
  return moved;
}

/**
 * A project's milestones (GitLab 8.x's v3 milestones API), addressed by global id. Anyone who may
 * read the project reads them; masters and above (`admin_milestone`) create and edit them. There
 * is no delete in v3.
 */
export const milestones = {
  /** One page of the project's milestones, by state (`all` by default) and iids. */
  list: query("signed_in", ListMilestonesInput, async (ctx, input): Promise<Page<Milestone>> => {
    const { project } = await requireProject(ctx, input.id, "read_milestone");
    return ctx.runtime.stores.milestones.list(
      project.id,
      { states: MILESTONE_STATE_FILTERS[input.state], iids: input.iid },
      pageRequest(input),
    );
  }),

  /** One milestone of the project. */
  get: query("signed_in", MilestoneRefInput, async (ctx, input) => {
    const { milestone } = await requireMilestone(ctx, input.id, input.milestone_id, "read_milestone");
    return milestone;
  }),

  /** Creates an active milestone with the project's next iid; the title must be new in the project. */
  create: mutation("signed_in", CreateMilestoneInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_milestone");
    const dates = { due_date: input.due_date ?? null, start_date: input.start_date ?? null };
    checkDates("create", dates);
    const { stores } = ctx.runtime;
    if (await stores.milestones.findByTitle(project.id, input.title)) {
      throw failedTo("create", { title: ["has already been taken"] });
    }
    return titled("create", () =>
      stores.transaction(async (tx) => {
        const milestone = await tx.milestones.create({
          project_id: project.id,
          title: input.title,
          description: input.description ?? null,
          ...dates,
        });
        await recordMilestoneActivity(tx, milestone, ctx.actor.user.id, EventAction.CREATED);
        return milestone;
      }),
    );
  }),

  /** Edits a milestone's title, description and dates, and closes or activates it (`state_event`). */
  update: mutation("signed_in", UpdateMilestoneInput, async (ctx, input) => {
    const { milestone } = await requireMilestone(ctx, input.id, input.milestone_id, "admin_milestone");
    checkDates("update", {
      due_date: input.due_date === undefined ? milestone.due_date : input.due_date,
      start_date: input.start_date === undefined ? milestone.start_date : input.start_date,
    });
    const { stores } = ctx.runtime;
    if (input.title !== undefined && input.title !== milestone.title) {
      if (await stores.milestones.findByTitle(milestone.project_id, input.title)) {
        throw failedTo("update", { title: ["has already been taken"] });
      }
    }
    return titled("update", () =>
      stores.transaction(async (tx) => {
        const moved = input.state_event
          ? await applyStateEvent(tx, milestone, input.state_event, ctx.actor.user.id)
          : milestone;
        const patch = {
          title: input.title,
          description: input.description,
          due_date: input.due_date,
          start_date: input.start_date,
        };
        const changes = Object.values(patch).some((value) => value !== undefined);
        if (!changes) return moved;
        const updated = await tx.milestones.update(milestone.id, patch);
        if (!updated) throw new DomainError({ kind: "not_found", reason: "milestone_not_found" });
        return updated;
      }),
    );
  }),

  /**
   * One page of the milestone's issues the caller may read (confidential ones only for those who
   * may see them), in every state, newest first.
   */
  issues: query("signed_in", MilestoneIssuesInput, async (ctx, input): Promise<Page<IssueView>> => {
    const access = await requireMilestone(ctx, input.id, input.milestone_id, "read_milestone");
    const page = pageRequest(input);
    if (!access.allows("read_issue")) return { items: [], page: page.page, perPage: page.perPage, total: 0 };
    const issues: Page<Issue> = await ctx.runtime.stores.issues.list(
      { kind: "project", projectId: access.project.id },
      {
        milestoneId: access.milestone.id,
        confidential: confidentialFilterFor(access, ctx.actor.user),
      },
      { by: "id", direction: "desc" },
      page,
    );
    return { ...issues, items: await issueViews(ctx, issues.items) };
  }),
};
