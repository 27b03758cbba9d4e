import { isWorkInProgress, type Milestone, pathWithNamespace, type UserSummary } from "@kiln/domain";
import type {
  IssueJson,
  MergeRequestJson,
  MergeRequestUserJson,
  MilestoneJson,
  UserBasic,
} from "@kiln/schemas";
import type { IssuableParts, IssueView, MergeRequestView } from "../issuables/views.js";
import type { PresentContext } from "./present-context.js";
import { presentUserBasic } from "./users.js";

/** A milestone, alone and inside issues and merge requests. */
export function presentMilestone(milestone: Milestone): MilestoneJson {
  return {
    id: milestone.id,
    iid: milestone.iid,
    project_id: milestone.project_id,
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.created_at,
    updated_at: milestone.updated_at,
    due_date: milestone.due_date,
    start_date: milestone.start_date,
  };
}

/**
 * Who wrote something whose account is gone: GitLab moves such records to its "Ghost User"; Kiln
 * keeps the column null and shows the same stand-in.
 */
export function presentGhost({ baseUrl }: PresentContext): UserBasic {
  return {
    name: "Ghost User",
    username: "ghost",
    id: 0,
    state: "active",
    avatar_url: null,
    web_url: `${baseUrl}/ghost`,
  };
}

/** An author: the user, or the ghost when the account was deleted. */
export function presentAuthor(user: UserSummary | null, context: PresentContext): UserBasic {
  return user ? presentUserBasic(user, context) : presentGhost(context);
}

/** `web_url` of an issue or merge request: `<base>/<namespace>/<project>/<kind>/<iid>`. */
function issuableUrl(parts: IssuableParts, kind: "issues" | "merge_requests", iid: number, baseUrl: string) {
  return `${baseUrl}/${pathWithNamespace(parts.namespace, parts.project)}/${kind}/${iid}`;
}

/** An issue as every issue endpoint answers it. */
export function presentIssue(view: IssueView, context: PresentContext): IssueJson {
  const { issue } = view;
  return {
    id: issue.id,
    iid: issue.iid,
    project_id: issue.project_id,
    title: issue.title,
    description: issue.description,
    state: issue.state,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    labels: view.labels.map((label) => label.title),
    milestone: view.milestone && presentMilestone(view.milestone),
    assignee: view.assignee && presentUserBasic(view.assignee, context),
    author: presentAuthor(view.author, context),
    subscribed: view.subscribed,
    user_notes_count: view.userNotesCount,
    upvotes: 0,
    downvotes: 0,
    due_date: issue.due_date,
    confidential: issue.confidential,
    web_url: issuableUrl(view, "issues", issue.iid, context.baseUrl),
  };
}

/** The author or assignee of a merge request: the short form with `created_at`. */
function presentMergeRequestUser(user: UserSummary | null, context: PresentContext): MergeRequestUserJson {
  const basic = presentAuthor(user, context);
  return { ...basic, created_at: user?.created_at ?? new Date(0).toISOString() };
}

/** A merge request as every merge request endpoint answers it. */
export function presentMergeRequest(view: MergeRequestView, context: PresentContext): MergeRequestJson {
  const { mergeRequest: mr } = view;
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.project_id,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: mr.created_at,
    updated_at: mr.updated_at,
    target_branch: mr.target_branch,
    source_branch: mr.source_branch,
    upvotes: 0,
    downvotes: 0,
    author: presentMergeRequestUser(view.author, context),
    assignee: view.assignee && presentMergeRequestUser(view.assignee, context),
    // A deleted fork leaves the merge request with its target as the only project.
    source_project_id: mr.source_project_id ?? mr.target_project_id,
    target_project_id: mr.target_project_id,
    labels: view.labels.map((label) => label.title),
    work_in_progress: isWorkInProgress(mr.title),
    milestone: view.milestone && presentMilestone(view.milestone),
    merge_when_build_succeeds: mr.merge_when_build_succeeds,
    merge_status: mr.merge_status,
    sha: mr.diff_head_sha,
    merge_commit_sha: mr.merge_commit_sha,
    subscribed: view.subscribed,
    user_notes_count: view.userNotesCount,
    should_remove_source_branch: mr.should_remove_source_branch,
    force_remove_source_branch: mr.force_remove_source_branch,
    web_url: issuableUrl(view, "merge_requests", mr.iid, context.baseUrl),
  };
}
