import type { Issue, MergeRequest, Namespace, Note, Project } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { issuePayload } from "./issue.js";
import { mergeRequestPayload } from "./merge-request.js";
import { notePayload } from "./note.js";
import { pushPayload } from "./push.js";

const BASE = "https://kiln.example";
const T = "2016-12-01T10:00:00.000Z";
const project = {
  id: 3,
  name: "Web",
  path: "web",
  description: "site",
  default_branch: "master",
  visibility_level: 20,
} as Project;
const namespace = { id: 2, name: "Alice", path: "alice" } as Namespace;
const where = { project, namespace };
const alice = { id: 1, name: "Alice", username: "alice", email: "alice@example.com" };
const issue = {
  id: 10,
  project_id: 3,
  iid: 1,
  title: "Broken",
  description: null,
  state: "opened",
  author_id: 1,
  assignee_id: null,
  milestone_id: null,
  confidential: false,
  due_date: null,
  moved_to_id: null,
  created_at: T,
  updated_at: T,
} as Issue;
const mergeRequest = {
  id: 20,
  project_id: 3,
  iid: 2,
  target_project_id: 3,
  source_project_id: 3,
  source_branch: "topic",
  target_branch: "master",
  title: "WIP: topic",
  description: null,
  state: "opened",
  author_id: 1,
  assignee_id: 1,
  milestone_id: null,
  merge_status: "can_be_merged",
  merge_when_build_succeeds: false,
  merge_user_id: null,
  should_remove_source_branch: false,
  force_remove_source_branch: false,
  diff_head_sha: "b".repeat(40),
  merge_commit_sha: null,
  created_at: T,
  updated_at: T,
} as MergeRequest;

/** GitLab 8.15's `Project#hook_attrs` keys, backward-compatible ones last (§4.2). */
const PROJECT_KEYS = [
  "name",
  "description",
  "web_url",
  "avatar_url",
  "git_ssh_url",
  "git_http_url",
  "namespace",
  "visibility_level",
  "path_with_namespace",
  "default_branch",
  "homepage",
  "url",
  "ssh_url",
  "http_url",
];

describe("hook payloads (GitLab 8.x, reference §4)", () => {
  it("push: the project's hook attributes, a deleted branch with no checkout sha", () => {
    const payload = pushPayload({
      event: {
        kind: "push",
        projectId: 3,
        userId: 1,
        ref: "refs/heads/topic",
        before: "a".repeat(40),
        after: "0".repeat(40),
        commits: [],
        totalCommits: 0,
      },
      pusher: alice,
      where,
      baseUrl: BASE,
      checkoutSha: "c".repeat(40),
      message: null,
      files: new Map(),
    });
    expect(Object.keys(payload.project)).toEqual(PROJECT_KEYS);
    expect(payload.project).toMatchObject({
      web_url: "https://kiln.example/alice/web",
      git_ssh_url: "git@kiln.example:alice/web.git",
      git_http_url: "https://kiln.example/alice/web.git",
      namespace: "Alice",
      path_with_namespace: "alice/web",
    });
    expect(payload).toMatchObject({
      object_kind: "push",
      checkout_sha: null,
      commits: [],
      total_commits_count: 0,
    });
  });

  it("issue: no assignee key when unassigned, every 8.15 column, url and action", () => {
    const payload = issuePayload({
      issue,
      action: "close",
      user: alice,
      assignee: null,
      where,
      baseUrl: BASE,
    });
    expect(Object.keys(payload)).toEqual([
      "object_kind",
      "user",
      "project",
      "object_attributes",
      "repository",
    ]);
    expect(Object.keys(payload.object_attributes)).toEqual([
      "id",
      "title",
      "assignee_id",
      "author_id",
      "project_id",
      "created_at",
      "updated_at",
      "position",
      "branch_name",
      "description",
      "milestone_id",
      "state",
      "iid",
      "updated_by_id",
      "confidential",
      "deleted_at",
      "due_date",
      "moved_to_id",
      "lock_version",
      "title_html",
      "description_html",
      "url",
      "action",
    ]);
    expect(payload.repository).toEqual({
      name: "Web",
      url: "git@kiln.example:alice/web.git",
      description: "site",
      homepage: "https://kiln.example/alice/web",
    });
  });

  it("merge request: source, target, last commit, work in progress, assignee", () => {
    const payload = mergeRequestPayload({
      mergeRequest,
      action: "merge",
      user: alice,
      assignee: alice,
      target: where,
      source: null,
      lastCommit: null,
      baseUrl: BASE,
    });
    expect(payload.assignee).toEqual({ name: "Alice", username: "alice", avatar_url: null });
    expect(payload.object_attributes).toMatchObject({
      source: null,
      target: { path_with_namespace: "alice/web" },
      last_commit: null,
      work_in_progress: true,
      url: "https://kiln.example/alice/web/merge_requests/2",
      action: "merge",
      merge_status: "can_be_merged",
    });
  });

  it("note: the note's url and exactly one of issue or merge_request", () => {
    const note = {
      id: 30,
      project_id: 3,
      noteable_type: "Issue",
      noteable_id: 10,
      author_id: 1,
      body: "+1",
      attachment: null,
      system: false,
      created_at: T,
      updated_at: T,
    } as Note;
    const payload = notePayload({ note, user: alice, where, on: { type: "Issue", issue }, baseUrl: BASE });
    expect(Object.keys(payload)).toEqual([
      "object_kind",
      "user",
      "project_id",
      "project",
      "object_attributes",
      "repository",
      "issue",
    ]);
    expect(payload.object_attributes).toMatchObject({
      note: "+1",
      noteable_type: "Issue",
      url: "https://kiln.example/alice/web/issues/1#note_30",
    });
  });
});
