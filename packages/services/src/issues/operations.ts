import { type Issue, notModified, type Page, pageRequest, type User } from "@kiln/domain";
import {
  CreateIssueInput,
  IssueRefInput,
  ListGroupIssuesInput,
  ListProjectIssuesInput,
  ListUserIssuesInput,
  MoveIssueInput,
  UpdateIssueInput,
} from "@kiln/schemas";
import type { Context } from "../context.js";
import { projectViewer, requireGroup } from "../groups/access.js";
import { confidentialFilterFor, type IssueAccess, requireIssue } from "../issuables/access.js";
import { markTodo } from "../issuables/todos.js";
import { type IssueView, issueView, issueViews, type KnownProject } from "../issuables/views.js";
import { mutation, query } from "../operation.js";
import { requireProject } from "../projects/access.js";
import { deleteTodoTarget } from "../todos/changes.js";
import { todoView } from "../todos/views.js";
import { createIssue } from "./create.js";
import { editIssue } from "./edit.js";
import { emptyPage, groupConfidentiality, issueFilter, issueOrder, readableGroupProjects } from "./lists.js";
import { moveIssue } from "./move.js";

/** A page of issues with everything their answers show, loaded with a fixed number of queries. */
async function withViews(ctx: Context, page: Page<Issue>, known?: KnownProject): Promise<Page<IssueView>> {
  return { ...page, items: await issueViews(ctx, page.items, known) };
}

/** The caller's effective subscription: their explicit choice, else whether they wrote it or are assigned to it. */
async function subscribed(ctx: Context, access: IssueAccess, user: User): Promise<boolean> {
  const { issue } = access;
  const choice = await ctx.runtime.stores.subscriptions.get(user.id, { type: "Issue", id: issue.id });
  return choice ?? (issue.author_id === user.id || issue.assignee_id === user.id);
}

/** Records the caller's subscription choice; 304 when it is already their effective one. */
async function subscribe(ctx: Context, access: IssueAccess, user: User, wanted: boolean): Promise<IssueView> {
  if ((await subscribed(ctx, access, user)) === wanted) throw notModified();
  const { issue } = access;
  await ctx.runtime.stores.subscriptions.set(
    user.id,
    { type: "Issue", id: issue.id, projectId: issue.project_id },
    wanted,
  );
  return issueView(ctx, issue);
}

/**
 * Issues: three lists (the caller's own, a group's, a project's), one issue, create, edit, delete,
 * move, subscriptions and todos. Issues are named by their global `id`; confidential ones are
 * hidden (404, left out of lists) from non-members and guests but their author and assignee.
 */
export const issues = {
  /** `GET /issues`: the issues the caller wrote, in projects they may still read. */
  listMine: query("signed_in", ListUserIssuesInput, async (ctx, input) => {
    const { user } = ctx.actor;
    const page = await ctx.runtime.stores.issues.list(
      user.is_admin
        ? { kind: "all" }
        : { kind: "readable", reader: { userId: user.id, external: user.external } },
      { ...issueFilter(input, "any"), authorId: user.id },
      issueOrder(input),
      pageRequest(input),
    );
    return withViews(ctx, page);
  }),

  /** `GET /groups/:id/issues`: issues of the group's projects the caller may read; labels must all match. */
  listForGroup: query("signed_in", ListGroupIssuesInput, async (ctx, input) => {
    const { group } = await requireGroup(ctx, input.id);
    const request = pageRequest(input);
    const projects = await readableGroupProjects(ctx, group.id, projectViewer(ctx));
    if (projects.length === 0) return withViews(ctx, emptyPage(request));
    const confidential = await groupConfidentiality(ctx, group.id, projects, ctx.actor.user);
    const page = await ctx.runtime.stores.issues.list(
      { kind: "projects", projectIds: projects.map((project) => project.id) },
      { ...issueFilter(input, "all"), confidential },
      issueOrder(input),
      request,
    );
    return withViews(ctx, page);
  }),

  /** `GET /projects/:id/issues`: a project's issues, by iid, state, labels (any) and milestone title. */
  listForProject: query("signed_in", ListProjectIssuesInput, async (ctx, input) => {
    const access = await requireProject(ctx, input.id, "read_issue");
    const page = await ctx.runtime.stores.issues.list(
      { kind: "project", projectId: access.project.id },
      {
        ...issueFilter(input, "any"),
        iids: input.iid,
        confidential: confidentialFilterFor(access, ctx.actor.user),
      },
      issueOrder(input),
      pageRequest(input),
    );
    return withViews(ctx, page, access);
  }),

  /** One issue of a project, by global id. */
  get: query("signed_in", IssueRefInput, async (ctx, input) => {
    const { issue } = await requireIssue(ctx, input.id, input.issue_id);
    return issueView(ctx, issue);
  }),

  /** Opens an issue (see {@link createIssue}). */
  create: mutation("signed_in", CreateIssueInput, async (ctx, input) =>
    issueView(ctx, await createIssue(ctx, input)),
  ),

  /** Edits an issue and changes its state (see {@link editIssue}). */
  edit: mutation("signed_in", UpdateIssueInput, async (ctx, input) =>
    issueView(ctx, await editIssue(ctx, input)),
  ),

  /**
   * Deletes an issue with its notes, labels links, todos and subscriptions: administrators and
   * project owners (`destroy_issue`). Answers the issue as it was.
   */
  remove: mutation("signed_in", IssueRefInput, async (ctx, input) => {
    const { issue } = await requireIssue(ctx, input.id, input.issue_id, "destroy_issue");
    const view = await issueView(ctx, issue);
    await deleteTodoTarget(ctx, { type: "Issue", id: issue.id }, (tx) => tx.issues.delete(issue.id));
    return view;
  }),

  /** Moves an issue to another project (see {@link moveIssue}); answers the new issue. */
  move: mutation("signed_in", MoveIssueInput, async (ctx, input) =>
    issueView(ctx, await moveIssue(ctx, input)),
  ),

  /** Subscribes the caller to an issue; 304 when they already are (explicitly or as its author or assignee). */
  subscribe: mutation("signed_in", IssueRefInput, async (ctx, input) =>
    subscribe(ctx, await requireIssue(ctx, input.id, input.issue_id), ctx.actor.user, true),
  ),

  /** Unsubscribes the caller from an issue; 304 when they are not subscribed. */
  unsubscribe: mutation("signed_in", IssueRefInput, async (ctx, input) =>
    subscribe(ctx, await requireIssue(ctx, input.id, input.issue_id), ctx.actor.user, false),
  ),

  /**
   * Marks the issue as a todo of the caller ("marked"); 304 when they have a pending todo on it
   * already. Answers the todo with its target.
   */
  markTodo: mutation("signed_in", IssueRefInput, async (ctx, input) => {
    const access = await requireIssue(ctx, input.id, input.issue_id);
    const { user } = ctx.actor;
    const todo = await markTodo(ctx.runtime.stores, { access, type: "Issue", target: access.issue }, user);
    if (!todo) throw notModified();
    return todoView(ctx, todo);
  }),
};
