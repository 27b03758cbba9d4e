import {
  conflict,
  DomainError,
  invalid,
  type Label,
  type LabelCounts,
  notFound,
  notModified,
} from "@kiln/domain";
import {
  CreateLabelInput,
  DeleteLabelInput,
  isDigits,
  LabelSubscriptionInput,
  ListLabelsInput,
  MAX_INTEGER,
  UpdateLabelInput,
} from "@kiln/schemas";
import { UniqueViolation } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { confidentialFilterFor } from "../issuables/access.js";
import { mutation, query, type SignedInContext } from "../operation.js";
import { type ProjectAccess, requireProject } from "../projects/access.js";

/** Everything a v3 Label answer shows: the label, its counts as the caller sees them, their subscription. */
export interface LabelView {
  label: Label;
  counts: LabelCounts;
  /** The caller's explicit subscription; labels have no participants, so no choice is false. */
  subscribed: boolean;
}

const NO_COUNTS: LabelCounts = { open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 };

/**
 * The views of some labels of `access`'s project, with a fixed number of queries. Counts cover
 * only what the caller may read: confidential issues they may not see are left out, and merge
 * requests are not counted for callers the project does not let read them.
 */
async function labelViews(
  ctx: Context,
  access: ProjectAccess,
  labels: readonly Label[],
): Promise<LabelView[]> {
  const { stores } = ctx.runtime;
  const user = ctx.actor?.user ?? null;
  const ids = labels.map((label) => label.id);
  const [counts, choices] = await Promise.all([
    stores.labels.counts(ids, confidentialFilterFor(access, user)),
    user ? stores.subscriptions.getMany(user.id, "Label", ids) : new Map<number, boolean>(),
  ]);
  const readsMergeRequests = access.allows("read_merge_request");
  return labels.map((label) => {
    const found = counts.get(label.id) ?? NO_COUNTS;
    return {
      label,
      counts: readsMergeRequests ? found : { ...found, open_merge_requests_count: 0 },
      subscribed: choices.get(label.id) ?? false,
    };
  });
}

/** The view of one label of `access`'s project. */
async function labelView(ctx: Context, access: ProjectAccess, label: Label): Promise<LabelView> {
  const [view] = await labelViews(ctx, access, [label]);
  if (!view) throw new Error(`label ${label.id} has no view`);
  return view;
}

/** A project's label by exact title: `404 Label Not Found` when there is none. */
async function requireLabelTitled(ctx: Context, projectId: number, title: string): Promise<Label> {
  const label = await ctx.runtime.stores.labels.findByTitle(projectId, title);
  if (!label) throw notFound("label");
  return label;
}

/**
 * A project's label named by a path segment: by id first, then by title (GitLab 8.x's
 * `find_project_label`, so a label titled with digits is still reachable by its title).
 */
async function requireLabelRef(ctx: Context, projectId: number, ref: number | string): Promise<Label> {
  const { labels } = ctx.runtime.stores;
  // Path segments arrive as strings: digits name an id, as with project references (ids past
  // the database's integer range name no label).
  const id = Number(ref);
  if (isDigits(String(ref)) && id <= MAX_INTEGER) {
    const byId = await labels.findById(id);
    if (byId && byId.project_id === projectId) return byId;
  }
  const byTitle = await labels.findByTitle(projectId, String(ref));
  if (!byTitle) throw notFound("label");
  return byTitle;
}

/** Sets the caller's subscription to a label; 304 when it already is in that state. */
async function subscribe(
  ctx: SignedInContext,
  input: LabelSubscriptionInput,
  subscribed: boolean,
): Promise<LabelView> {
  const access = await requireProject(ctx, input.id, "read_label");
  const label = await requireLabelRef(ctx, access.project.id, input.label_id);
  const { user } = ctx.actor;
  const { subscriptions } = ctx.runtime.stores;
  const current = (await subscriptions.get(user.id, { type: "Label", id: label.id })) ?? false;
  if (current === subscribed) throw notModified();
  await subscriptions.set(user.id, { type: "Label", id: label.id, projectId: label.project_id }, subscribed);
  return labelView(ctx, access, label);
}

/**
 * A project's labels (GitLab 8.x's v3 labels API). Anyone who may read the project reads them;
 * reporters and above (`admin_label`) create, edit and delete them. Labels are named by title in
 * the write routes, as 8.x's routes carry no label id; titles are unique in a project.
 */
export const labels = {
  /** Every label of the project, by title, with counts of what the caller may read (not paginated). */
  list: query("signed_in", ListLabelsInput, async (ctx, input) => {
    const access = await requireProject(ctx, input.id, "read_label");
    return labelViews(ctx, access, await ctx.runtime.stores.labels.listForProject(access.project.id));
  }),

  /** Creates a label: `409 Label already exists` when the title is taken in the project. */
  create: mutation("signed_in", CreateLabelInput, async (ctx, input) => {
    const access = await requireProject(ctx, input.id, "admin_label");
    const { labels: store } = ctx.runtime.stores;
    if (await store.findByTitle(access.project.id, input.name)) throw conflict({ reason: "label_exists" });
    try {
      const label = await store.create({
        project_id: access.project.id,
        title: input.name,
        color: input.color,
        description: input.description ?? null,
        priority: input.priority ?? null,
      });
      return labelView(ctx, access, label);
    } catch (error) {
      // A concurrent create of the same title.
      if (error instanceof UniqueViolation) throw conflict({ reason: "label_exists" });
      throw error;
    }
  }),

  /**
   * Edits the label titled `name`: a new title (`new_name`), colour, description or priority (an
   * empty priority removes it). A title taken by another label is GitLab's validation error.
   */
  update: mutation("signed_in", UpdateLabelInput, async (ctx, input) => {
    const access = await requireProject(ctx, input.id, "admin_label");
    const { labels: store } = ctx.runtime.stores;
    const label = await store.findByTitle(access.project.id, input.name);
    // GitLab 8.x passes "Label not found" to not_found!, which appends " Not Found".
    if (!label) throw new DomainError({ kind: "not_found", reason: "label_to_update_missing" });
    const taken = () => invalid({ title: ["has already been taken"] });
    if (input.new_name !== undefined && input.new_name !== label.title) {
      if (await store.findByTitle(access.project.id, input.new_name)) throw taken();
    }
    try {
      const updated = await store.update(label.id, {
        title: input.new_name,
        color: input.color,
        description: input.description,
        priority: input.priority,
      });
      if (!updated) throw new DomainError({ kind: "not_found", reason: "label_to_update_missing" });
      return labelView(ctx, access, updated);
    } catch (error) {
      if (error instanceof UniqueViolation) throw taken();
      throw error;
    }
  }),

  /** Deletes the label titled `name` with its links and subscriptions; answers it as it was. */
  remove: mutation("signed_in", DeleteLabelInput, async (ctx, input) => {
    const access = await requireProject(ctx, input.id, "admin_label");
    const label = await requireLabelTitled(ctx, access.project.id, input.name);
    const view = await labelView(ctx, access, label);
    if (!(await ctx.runtime.stores.labels.delete(label.id))) throw notFound("label");
    return view;
  }),

  /** Subscribes the caller to a label (by id or title): 304 when already subscribed. */
  subscribe: mutation("signed_in", LabelSubscriptionInput, (ctx, input) => subscribe(ctx, input, true)),

  /** Unsubscribes the caller from a label: 304 when not subscribed. */
  unsubscribe: mutation("signed_in", LabelSubscriptionInput, (ctx, input) => subscribe(ctx, input, false)),
};
