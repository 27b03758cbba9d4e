import type { MergeRequestJson, TodoJson } from "@kiln/schemas";

const user = {
  id: 2,
  name: "Ada Lovelace",
  username: "ada",
  state: "active" as const,
  avatar_url: null,
  web_url: "http://kiln.test/u/ada",
};

/** A merge request as the server presents it, with `overrides`. */
export function mergeRequest(overrides: Partial<MergeRequestJson> = {}): MergeRequestJson {
  return {
    id: 11,
    iid: 3,
    project_id: 7,
    title: "Add the parser",
    description: null,
    state: "opened",
    created_at: "2026-11-25T10:00:00.000Z",
    updated_at: "2026-11-25T10:00:00.000Z",
    target_branch: "master",
    source_branch: "feature",
    upvotes: 0,
    downvotes: 0,
    author: { ...user, created_at: "2026-01-01T00:00:00.000Z" },
    assignee: null,
    source_project_id: 7,
    target_project_id: 7,
    labels: [],
    work_in_progress: false,
    milestone: null,
    merge_when_build_succeeds: false,
    merge_status: "can_be_merged",
    sha: "0123456789abcdef0123456789abcdef01234567",
    merge_commit_sha: null,
    subscribed: true,
    user_notes_count: 0,
    should_remove_source_branch: false,
    force_remove_source_branch: false,
    web_url: "http://kiln.test/acme/widgets/merge_requests/3",
    ...overrides,
  };
}

const project = (id: number, name: string) => ({
  id,
  http_url_to_repo: `http://kiln.test/acme/${name}.git`,
  web_url: `http://kiln.test/acme/${name}`,
  name,
  name_with_namespace: `Acme / ${name}`,
  path: name,
  path_with_namespace: `acme/${name}`,
});

/** A pending todo about merge request `mergeRequest()` of project `projectId`. */
export function todo(
  id: number,
  projectId = 7,
  projectName = "widgets",
  action: TodoJson["action_name"] = "assigned",
): TodoJson {
  return {
    id,
    project: project(projectId, projectName),
    author: user,
    action_name: action,
    target_type: "MergeRequest",
    target: mergeRequest({ project_id: projectId, title: `Change ${id}` }),
    target_url: `http://kiln.test/acme/${projectName}/merge_requests/3`,
    body: `Change ${id}`,
    state: "pending",
    created_at: "2026-11-25T10:00:00.000Z",
  };
}
