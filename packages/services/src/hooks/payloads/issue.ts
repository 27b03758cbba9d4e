import type { Issue, User } from "@kiln/domain";
import type { IssueEvent } from "../../domain-events.js";
import { type HookProject, hookUser, projectHookAttrs, projectUrls, shortRepository } from "./common.js";

/** What an issue payload is built from. */
export interface IssuePayloadSource {
  issue: Issue;
  action: IssueEvent["action"];
  user: Pick<User, "name" | "username">;
  assignee: Pick<User, "name" | "username"> | null;
  where: HookProject;
  baseUrl: string;
}

/** The issue's columns as GitLab 8.15's `issues` table has them (those Kiln does not keep are null). */
export function issueColumns(issue: Issue) {
  return {
    id: issue.id,
    title: issue.title,
    assignee_id: issue.assignee_id,
    author_id: issue.author_id,
    project_id: issue.project_id,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    position: 0,
    branch_name: null,
    description: issue.description,
    milestone_id: issue.milestone_id,
    state: issue.state,
    iid: issue.iid,
    updated_by_id: null,
    confidential: issue.confidential,
    deleted_at: null,
    due_date: issue.due_date,
    moved_to_id: issue.moved_to_id,
    lock_version: null,
    title_html: null,
    description_html: null,
  };
}

/**
 * The issue payload of GitLab 8.x (`Issuable#to_hook_data`): the actor, the project, the issue's
 * columns with its `url` and the `action`, the deprecated `repository`, and the assignee only when
 * there is one.
 */
export function issuePayload(source: IssuePayloadSource) {
  const { issue, where, baseUrl } = source;
  return {
    object_kind: "issue",
    user: hookUser(source.user),
    project: projectHookAttrs(where, baseUrl),
    object_attributes: {
      ...issueColumns(issue),
      url: `${projectUrls(where, baseUrl).web_url}/issues/${issue.iid}`,
      action: source.action,
    },
    repository: shortRepository(where, baseUrl),
    ...(source.assignee && { assignee: hookUser(source.assignee) }),
  };
}
