import type { Issue, MergeRequest, Project, User } from "@kiln/domain";
import type { IssuableOrder } from "../stores/issuables.js";
import type { NewIssue } from "../stores/issues.js";
import type { NewMergeRequest } from "../stores/merge-requests.js";
import type { Stores } from "../stores.js";
import { createAccount, createProject } from "./fixtures.js";

/** Oldest first by creation, the order most list assertions read easiest in. */
export const OLDEST_FIRST: IssuableOrder = { by: "created_at", direction: "asc" };

/** Newest first by creation: GitLab's default order of issue and merge request lists. */
export const NEWEST_FIRST: IssuableOrder = { by: "created_at", direction: "desc" };

/** A user with a project of their own. */
export interface Workspace {
  user: User;
  project: Project;
}

/** Creates a user and a project in their namespace. */
export async function createWorkspace(
  stores: Stores,
  username: string,
  path = "project",
): Promise<Workspace> {
  const { user, namespace } = await createAccount(stores, username);
  const project = await createProject(stores, namespace.id, path);
  return { user, project };
}

/** A new issue's fields: open, unassigned, no milestone, not confidential. */
export function newIssue(projectId: number, title: string, overrides: Partial<NewIssue> = {}): NewIssue {
  return {
    project_id: projectId,
    title,
    description: null,
    author_id: null,
    assignee_id: null,
    milestone_id: null,
    confidential: false,
    due_date: null,
    ...overrides,
  };
}

/** Creates an issue through the store. */
export function createIssue(
  stores: Stores,
  projectId: number,
  title: string,
  overrides: Partial<NewIssue> = {},
): Promise<Issue> {
  return stores.issues.create(newIssue(projectId, title, overrides));
}

/** A new merge request's fields: from `source` into `main` of the same project. */
export function newMergeRequest(
  projectId: number,
  source: string,
  overrides: Partial<NewMergeRequest> = {},
): NewMergeRequest {
  return {
    project_id: projectId,
    source_project_id: projectId,
    source_branch: source,
    target_branch: "main",
    title: `Merge ${source}`,
    description: null,
    author_id: null,
    assignee_id: null,
    milestone_id: null,
    force_remove_source_branch: false,
    diff_head_sha: null,
    ...overrides,
  };
}

/** Creates a merge request through the store. */
export function createMergeRequest(
  stores: Stores,
  projectId: number,
  source: string,
  overrides: Partial<NewMergeRequest> = {},
): Promise<MergeRequest> {
  return stores.mergeRequests.create(newMergeRequest(projectId, source, overrides));
}

/** A timestamp `n` minutes after a fixed start, to give rows a known creation order. */
export const minute = (n: number): string => new Date(Date.UTC(2016, 0, 1, 0, n)).toISOString();

/** The iids of a list's items, in order. */
export const iids = (items: readonly { iid: number }[]): number[] => items.map((item) => item.iid);
