import {
  forbidden,
  type Issue,
  type MergeRequest,
  notFound,
  type ProjectAbility,
  readsConfidentialIssues,
  type User,
} from "@kiln/domain";
import type { ConfidentialFilter } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { type ProjectAccess, requireProject } from "../projects/access.js";

/** An issue with the caller's view of its project. */
export interface IssueAccess extends ProjectAccess {
  issue: Issue;
}

/** A merge request with the caller's view of its (target) project. */
export interface MergeRequestAccess extends ProjectAccess {
  mergeRequest: MergeRequest;
}

/**
 * True when the caller may read this confidential issue: administrators, reporters and above, its
 * author and its assignee (GitLab 8.x's `read_confidential_issues` rule). Non-confidential issues
 * need only `read_issue`.
 */
export function mayReadIssue(access: ProjectAccess, issue: Issue, user: User | null): boolean {
  if (!access.allows("read_issue")) return false;
  if (!issue.confidential || readsConfidentialIssues(access.subject)) return true;
  return involves(issue, user);
}

/** True when the user wrote the issue or merge request or is assigned to it. */
function involves(issuable: Issue | MergeRequest, user: User | null): boolean {
  return user !== null && (issuable.author_id === user.id || issuable.assignee_id === user.id);
}

/**
 * True when the caller may read this merge request: those with `read_merge_request` (reporters
 * and above, and anyone the project is open to), and its author and assignee wherever they read
 * the project (GitLab 8.13+'s `issuable_policy.rb`: a guest of a private project reads only
 * the merge requests they wrote or are assigned to).
 */
export function mayReadMergeRequest(
  access: ProjectAccess,
  mergeRequest: MergeRequest,
  user: User | null,
): boolean {
  if (access.allows("read_merge_request")) return true;
  return access.allows("read_project") && involves(mergeRequest, user);
}

/**
 * Which confidential issues the caller may see in lists of `access`'s project, as the store's
 * filter: undefined (all of them) for administrators and reporters and above, else only those
 * they wrote or are assigned to (none for anonymous callers). Mirrors {@link mayReadIssue}.
 */
export function confidentialFilterFor(
  access: ProjectAccess,
  user: User | null,
): ConfidentialFilter | undefined {
  if (readsConfidentialIssues(access.subject)) return undefined;
  return { userId: user?.id ?? null };
}

/**
 * The issue `issueId` (the global id, as v3 names issues) of the project `ref`, checked for
 * `ability`. A missing project, an issue of another project, and an issue the caller may not read
 * (a confidential one, or one of a project they may not read) are all 404; one they may read but
 * not act on is 403.
 */
export async function requireIssue(
  ctx: Context,
  ref: number | string,
  issueId: number,
  ability: ProjectAbility = "read_issue",
): Promise<IssueAccess> {
  const access = await requireProject(ctx, ref);
  const issue = await ctx.runtime.stores.issues.findById(issueId);
  if (!issue || issue.project_id !== access.project.id) throw notFound("issue");
  if (!mayReadIssue(access, issue, ctx.actor?.user ?? null)) throw notFound("issue");
  if (!access.allows(ability)) throw forbidden();
  return { ...access, issue };
}

/**
 * How a route refuses a merge request the caller may not read (a guest of a private project):
 * GitLab 8.13+'s merge request routes `authorize! :read_merge_request` (403), its note routes
 * answer as if there were none (404).
 */
export type UnreadableAnswer = "forbidden" | "hidden";

/**
 * The merge request `mergeRequestId` (global id) of the project `ref`, which the caller may read,
 * checked for `ability` if one is given: 404 when it is missing, of another project or the project
 * is hidden; `unreadable` when the caller may not read it; 403 when they may read it but not act.
 */
export async function requireMergeRequest(
  ctx: Context,
  ref: number | string,
  mergeRequestId: number,
  ability?: ProjectAbility,
  unreadable: UnreadableAnswer = "forbidden",
): Promise<MergeRequestAccess> {
  const access = await findMergeRequest(ctx, ref, mergeRequestId);
  if (!mayReadMergeRequest(access, access.mergeRequest, ctx.actor?.user ?? null)) {
    throw unreadable === "forbidden" ? forbidden() : notFound("merge_request");
  }
  if (ability !== undefined && !access.allows(ability)) throw forbidden();
  return access;
}

/**
 * The merge request `mergeRequestId` (global id) of the project `ref`, whether or not the caller
 * may read it: 404 when missing, of another project, or the project is hidden. For the routes
 * that answer an unreadable merge request their own way (merging: 401; notes: 404).
 */
export async function findMergeRequest(
  ctx: Context,
  ref: number | string,
  mergeRequestId: number,
): Promise<MergeRequestAccess> {
  const access = await requireProject(ctx, ref);
  const mergeRequest = await ctx.runtime.stores.mergeRequests.findById(mergeRequestId);
  if (!mergeRequest || mergeRequest.project_id !== access.project.id) throw notFound("merge_request");
  return { ...access, mergeRequest };
}
