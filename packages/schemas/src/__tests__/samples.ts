// Sample v3 values shared by the schema tests: each is what an endpoint would answer.

export const TIME = "2026-01-02T03:04:05.678Z";

export const user = {
  name: "Alice",
  username: "alice",
  id: 2,
  state: "active",
  avatar_url: null,
  web_url: "http://localhost/alice",
};

export const milestone = {
  id: 11,
  iid: 1,
  project_id: 5,
  title: "v1.0",
  description: null,
  state: "active",
  created_at: TIME,
  updated_at: TIME,
  due_date: "2026-03-31",
  start_date: null,
};

export const issue = {
  id: 101,
  iid: 3,
  project_id: 5,
  title: "Crash on start",
  description: "Steps:\n1. start",
  state: "opened",
  created_at: TIME,
  updated_at: TIME,
  labels: ["bug", "ui"],
  milestone,
  assignee: null,
  author: user,
  subscribed: true,
  user_notes_count: 2,
  upvotes: 0,
  downvotes: 0,
  due_date: null,
  confidential: false,
  web_url: "http://localhost/alice/app/issues/3",
};

export const mergeRequest = {
  id: 201,
  iid: 7,
  project_id: 5,
  title: "WIP: Fix the crash",
  description: "Closes #3",
  state: "opened",
  created_at: TIME,
  updated_at: TIME,
  target_branch: "master",
  source_branch: "fix-crash",
  upvotes: 0,
  downvotes: 0,
  author: { ...user, created_at: TIME },
  assignee: null,
  source_project_id: 5,
  target_project_id: 5,
  labels: [],
  work_in_progress: true,
  milestone: null,
  merge_when_build_succeeds: false,
  merge_status: "can_be_merged",
  sha: "0123456789abcdef0123456789abcdef01234567",
  merge_commit_sha: null,
  subscribed: false,
  user_notes_count: 0,
  should_remove_source_branch: false,
  force_remove_source_branch: false,
  web_url: "http://localhost/alice/app/merge_requests/7",
};

export const project = {
  id: 5,
  http_url_to_repo: "http://localhost/alice/app.git",
  web_url: "http://localhost/alice/app",
  name: "app",
  name_with_namespace: "Alice / app",
  path: "app",
  path_with_namespace: "alice/app",
};

/** The first message per top-level field of a failed parse (`base` for the object's own). */
export function problems(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const key = String(issue.path[0] ?? "base");
    out[key] ??= issue.message;
  }
  return out;
}
