import type {
  Issue,
  Label,
  MergeRequest,
  Milestone,
  Namespace,
  Project,
  SubscribableType,
  UserSummary,
} from "@kiln/domain";
import type { Context } from "../context.js";

/** What issues and merge requests show beside their own columns, loaded for a page at once. */
export interface IssuableParts {
  /** The project it belongs to and its namespace, for `web_url`. */
  project: Project;
  namespace: Namespace;
  /** Null once the account is deleted (presented as GitLab's ghost user). */
  author: UserSummary | null;
  assignee: UserSummary | null;
  milestone: Milestone | null;
  /** Its labels, by title. */
  labels: Label[];
  /** The caller's subscription: their explicit choice, else whether they wrote it or are assigned to it. */
  subscribed: boolean;
  /** Notes written by users (system notes left out). */
  userNotesCount: number;
}

/** Everything a v3 Issue answer shows. */
export interface IssueView extends IssuableParts {
  issue: Issue;
}

/** Everything a v3 Merge request answer shows. */
export interface MergeRequestView extends IssuableParts {
  mergeRequest: MergeRequest;
}

type IssuableRow = Pick<Issue, "id" | "project_id" | "author_id" | "assignee_id" | "milestone_id">;

/** The project a page is known to come from (a project's list), so its views need not load it again. */
export interface KnownProject {
  project: Project;
  namespace: Namespace;
}

/**
 * The parts of many issues or merge requests of one type, with a fixed number of queries whatever
 * the page size. Rows whose project has vanished meanwhile are left out.
 */
async function issuableParts(
  ctx: Context,
  type: SubscribableType & ("Issue" | "MergeRequest"),
  rows: readonly IssuableRow[],
  known?: KnownProject,
): Promise<Map<number, IssuableParts>> {
  const parts = new Map<number, IssuableParts>();
  if (rows.length === 0) return parts;
  const { stores } = ctx.runtime;
  const caller = ctx.actor?.user ?? null;
  const ofKnown = known !== undefined && rows.every((row) => row.project_id === known.project.id);
  const [projects, stored] = await Promise.all([
    ofKnown
      ? new Map([[known.project.id, known.project]])
      : stores.projects.findByIds(rows.map((row) => row.project_id)),
    stores.issuableParts.of(type, rows, caller?.id ?? null),
  ]);
  const namespaces = ofKnown
    ? new Map([[known.namespace.id, known.namespace]])
    : await stores.namespaces.findByIds([...projects.values()].map((p) => p.namespace_id));
  for (const row of rows) {
    const project = projects.get(row.project_id);
    const namespace = project && namespaces.get(project.namespace_id);
    const found = stored.get(row.id);
    if (!project || !namespace || !found) continue;
    const { subscription, ...rest } = found;
    const involved = caller !== null && (row.author_id === caller.id || row.assignee_id === caller.id);
    parts.set(row.id, { project, namespace, ...rest, subscribed: subscription ?? involved });
  }
  return parts;
}

/**
 * The views of many issues, in their order, with a fixed number of queries; `known` spares loading
 * the project again when every issue is of it.
 */
export async function issueViews(
  ctx: Context,
  issues: readonly Issue[],
  known?: KnownProject,
): Promise<IssueView[]> {
  const parts = await issuableParts(ctx, "Issue", issues, known);
  return issues.flatMap((issue) => {
    const found = parts.get(issue.id);
    return found ? [{ ...found, issue }] : [];
  });
}

/** The view of one issue. */
export async function issueView(ctx: Context, issue: Issue): Promise<IssueView> {
  const [view] = await issueViews(ctx, [issue]);
  if (!view) throw new Error(`issue ${issue.id} has no project`);
  return view;
}

/** The views of many merge requests, in their order, with a fixed number of queries. */
export async function mergeRequestViews(
  ctx: Context,
  mergeRequests: readonly MergeRequest[],
): Promise<MergeRequestView[]> {
  const parts = await issuableParts(ctx, "MergeRequest", mergeRequests);
  return mergeRequests.flatMap((mergeRequest) => {
    const found = parts.get(mergeRequest.id);
    return found ? [{ ...found, mergeRequest }] : [];
  });
}

/** The view of one merge request. */
export async function mergeRequestView(ctx: Context, mergeRequest: MergeRequest): Promise<MergeRequestView> {
  const [view] = await mergeRequestViews(ctx, [mergeRequest]);
  if (!view) throw new Error(`merge request ${mergeRequest.id} has no project`);
  return view;
}
