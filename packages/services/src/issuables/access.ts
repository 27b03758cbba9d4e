import {
  AccessLevel,
  forbidden,
  type Issue,
  type MergeRequest,
  notFound,
  type ProjectAbility,
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
  if (!issue.confidential) return true;
  if (access.subject.isAdmin || access.subject.accessLevel >= AccessLevel.REPORTER) return true;
  return user !== null && (issue.author_id === user.id || issue.assignee_id === user.id);
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
  if (access.subject.isAdmin || access.subject.accessLevel >= AccessLevel.REPORTER) return undefined;
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
  if (!issue || issue.project_id !== access.project.id) throw notFound("Issue");
  if (!mayReadIssue(access, issue, ctx.actor?.user ?? null)) throw notFound("Issue");
  if (!access.allows(ability)) throw forbidden();
  return { ...access, issue };
}

/**
 * The merge request `mergeRequestId` (global id) of the project `ref`, checked for `ability`:
 * 404 when missing, of another project or unreadable, 403 when readable but not allowed.
 */
export async function requireMergeRequest(
  ctx: Context,
  ref: number | string,
  mergeRequestId: number,
  ability: ProjectAbility = "read_merge_request",
): Promise<MergeRequestAccess> {
  const access = await requireProject(ctx, ref);
  const mergeRequest = await ctx.runtime.stores.mergeRequests.findById(mergeRequestId);
  if (!mergeRequest || mergeRequest.project_id !== access.project.id) throw notFound("Merge Request");
  if (!access.allows("read_merge_request")) throw notFound("Merge Request");
  if (!access.allows(ability)) throw forbidden();
  return { ...access, mergeRequest };
}
