/**
 * Who may do what to a project's issues, merge requests, notes, labels and milestones, stated
 * independently of the server's own permission table (`@kiln/domain`'s `can` is never called
 * here), so that the permission matrix can catch a wrong entry in it.
 *
 * Sources: GitLab 8.15's `app/policies/project_policy.rb` (guests read issues and create issues
 * and notes; reporters read merge requests (since 8.13: "Make guests unable to view MRs" on
 * private projects) and administer issues and labels; developers create and update merge
 * requests; masters administer milestones and notes and merge into protected branches; owners
 * destroy issues and merge requests), `issue_policy.rb` (confidential issues),
 * `issuable_policy.rb` (authors and assignees), `lib/api/{issues,merge_requests,notes,labels,
 * milestones}.rb` and the v3 spec.
 */
import {
  DEVELOPER,
  GUEST,
  LEVEL,
  MASTER,
  OWNER,
  REPORTER,
  type Role,
  type Rule,
  readsProject,
  signedIn,
  type Visibility,
} from "./rules.js";

const members = (min: number, open = false): Rule => ({ who: "members", min, open });

/** The rules of the collaboration routes, by ability. */
export const COLLABORATION_RULES = {
  /** read_issue, read_label, read_milestone: guests, and anyone the project is open to. */
  read: members(GUEST, true),
  /**
   * read_merge_request: reporters, and anyone the project is open to; so not guests of private
   * projects, nor external guests of internal ones (their merge request routes answer 403).
   */
  readMergeRequests: members(REPORTER, true),
  /** create_issue, create_note: guests, and anyone the project is open to. */
  participate: members(GUEST, true),
  /** update_issue, admin_issue (move), admin_label: reporters. */
  adminIssues: members(REPORTER),
  /** create_merge_request, update_merge_request: developers. */
  developMergeRequests: members(DEVELOPER),
  /** admin_milestone, admin_note (edit or delete another's note): masters. */
  administer: members(MASTER),
  /** destroy_issue, destroy_merge_request: owners. */
  destroy: members(OWNER),
} satisfies Record<string, Rule>;

/**
 * The role the fixture confidential issue and the fixture assigned merge request are assigned to.
 * Their author is root; so among the cast only administrators, reporters and above, and this
 * assignee may read the confidential issue, and only developers and above, administrators and
 * this assignee may edit the assigned merge request (GitLab's `issuable_policy.rb`: authors and
 * assignees may read and update their issues and merge requests).
 */
export const ASSIGNEE = "guest" satisfies Role;

/**
 * Whether the role may read a confidential issue of a project of this visibility: it must read
 * the project, and be an administrator, a reporter or above, or the issue's assignee (GitLab's
 * `read_confidential_issues` plus the author-or-assignee rule).
 */
export function readsConfidential(role: Role, visibility: Visibility): boolean {
  if (!readsProject(role, visibility)) return false;
  return role === "admin" || LEVEL[role] >= REPORTER || role === ASSIGNEE;
}

/**
 * Whether the role may merge into a target branch (GitLab's `can_be_merged_by?`): administrators
 * and masters always, developers unless the branch is protected (without developers allowed).
 * Non-members never, whatever the visibility.
 */
export function mayMerge(role: Role, protectedTarget: boolean): boolean {
  if (role === "admin" || LEVEL[role] >= MASTER) return true;
  return LEVEL[role] >= DEVELOPER && !protectedTarget;
}

/**
 * The status of accepting (or cancelling the automatic merge of) a merge request nobody may
 * complete: 401 without a user, 404 when the project is hidden, 401 (GitLab 8.x's answer) for
 * those who may read but not merge, else `success`.
 */
export function mergeStatus(role: Role, visibility: Visibility, protectedTarget: boolean, success: number) {
  if (!signedIn(role)) return 401;
  if (!readsProject(role, visibility)) return 404;
  return mayMerge(role, protectedTarget) ? success : 401;
}

/**
 * The status of a write an archived project no longer grants (creating and editing issues, notes
 * and merge requests): administrators keep it, everyone else who may read the project gets 403.
 */
export function archivedWriteStatus(role: Role, visibility: Visibility, success: number): number {
  if (!signedIn(role)) return 401;
  if (!readsProject(role, visibility)) return 404;
  return role === "admin" ? success : 403;
}

/**
 * Merging into an archived project is pushing to it, which no one but administrators may do
 * (GitLab 8.x's `can_be_merged_by?` asks `can_push_to_branch?`, which needs `push_code`): 401
 * for everyone else who may read the project.
 */
export function archivedMergeStatus(role: Role, visibility: Visibility, success: number): number {
  if (!signedIn(role)) return 401;
  if (!readsProject(role, visibility)) return 404;
  return role === "admin" ? success : 401;
}
