import { isWorkInProgress, type MergeRequest, type User } from "@kiln/domain";
import type { MergeRequestEvent } from "../../domain-events.js";
import { type HookProject, hookUser, projectHookAttrs, projectUrls, shortRepository } from "./common.js";

/** The head commit of a merge request, as hooks describe commits. */
export interface HookCommit {
  id: string;
  message: string;
  timestamp: string;
  url: string;
  author: { name: string; email: string };
}

/** What a merge request payload is built from. */
export interface MergeRequestPayloadSource {
  mergeRequest: MergeRequest;
  action: MergeRequestEvent["action"];
  user: Pick<User, "name" | "username">;
  assignee: Pick<User, "name" | "username"> | null;
  target: HookProject;
  /** Null once the source project is gone. */
  source: HookProject | null;
  lastCommit: HookCommit | null;
  baseUrl: string;
}

/** The merge request's columns and hook attributes (GitLab 8.15's `MergeRequest#hook_attrs`), without `action`. */
export function mergeRequestHookAttrs(
  source: Omit<MergeRequestPayloadSource, "action" | "user" | "assignee">,
) {
  const { mergeRequest: mr, baseUrl } = source;
  return {
    id: mr.id,
    target_branch: mr.target_branch,
    source_branch: mr.source_branch,
    source_project_id: mr.source_project_id,
    author_id: mr.author_id,
    assignee_id: mr.assignee_id,
    title: mr.title,
    created_at: mr.created_at,
    updated_at: mr.updated_at,
    milestone_id: mr.milestone_id,
    state: mr.state,
    merge_status: mr.merge_status,
    target_project_id: mr.target_project_id,
    iid: mr.iid,
    description: mr.description,
    position: 0,
    locked_at: null,
    updated_by_id: null,
    merge_error: null,
    merge_params: { force_remove_source_branch: mr.force_remove_source_branch ? "1" : "0" },
    merge_when_build_succeeds: mr.merge_when_build_succeeds,
    merge_user_id: mr.merge_user_id,
    merge_commit_sha: mr.merge_commit_sha,
    deleted_at: null,
    in_progress_merge_commit_sha: null,
    lock_version: null,
    title_html: null,
    description_html: null,
    source: source.source && projectHookAttrs(source.source, baseUrl),
    target: projectHookAttrs(source.target, baseUrl),
    last_commit: source.lastCommit,
    work_in_progress: isWorkInProgress(mr.title),
    url: `${projectUrls(source.target, baseUrl).web_url}/merge_requests/${mr.iid}`,
  };
}

/** The merge request payload of GitLab 8.x: the issue envelope around {@link mergeRequestHookAttrs}. */
export function mergeRequestPayload(source: MergeRequestPayloadSource) {
  return {
    object_kind: "merge_request",
    user: hookUser(source.user),
    project: projectHookAttrs(source.target, source.baseUrl),
    object_attributes: { ...mergeRequestHookAttrs(source), action: source.action },
    repository: shortRepository(source.target, source.baseUrl),
    ...(source.assignee && { assignee: hookUser(source.assignee) }),
  };
}
