import type { AccessLevel, Visibility } from "./access.js";

/** A project: a repository with its issues, merge requests and CI, inside a namespace. */
export interface Project {
  id: number;
  namespace_id: number;
  name: string;
  path: string;
  description: string | null;
  /** Null until the first branch is pushed. */
  default_branch: string | null;
  visibility_level: Visibility;
  archived: boolean;
  issues_enabled: boolean;
  merge_requests_enabled: boolean;
  builds_enabled: boolean;
  wiki_enabled: boolean;
  snippets_enabled: boolean;
  container_registry_enabled: boolean;
  shared_runners_enabled: boolean;
  lfs_enabled: boolean;
  request_access_enabled: boolean;
  public_builds: boolean;
  only_allow_merge_if_build_succeeds: boolean;
  /** Seconds a build may run before it is failed (8.x's `build_timeout`, default one hour). */
  build_timeout: number;
  creator_id: number | null;
  star_count: number;
  /** Open (opened and reopened) issues. */
  open_issues_count: number;
  /** Open issues that are not confidential: the count for those who may not read every confidential one. */
  public_open_issues_count: number;
  created_at: string;
  updated_at: string;
  last_activity_at: string;
}

/** The boolean feature flags of a project, settable on create and update. */
export const PROJECT_FEATURE_FLAGS = [
  "issues_enabled",
  "merge_requests_enabled",
  "builds_enabled",
  "wiki_enabled",
  "snippets_enabled",
  "container_registry_enabled",
  "shared_runners_enabled",
  "lfs_enabled",
  "request_access_enabled",
  "public_builds",
  "only_allow_merge_if_build_succeeds",
] as const satisfies readonly (keyof Project)[];

/** A namespace: a user's personal one (`user`) or a group (`group`). Paths are unique across both. */
export interface Namespace {
  id: number;
  name: string;
  path: string;
  kind: "user" | "group";
  /** The user, for a personal namespace; null for groups. */
  owner_id: number | null;
  description: string;
  visibility_level: Visibility;
  share_with_group_lock: boolean;
  created_at: string;
  updated_at: string;
}

/** A group is a namespace of kind `group`. */
export type Group = Namespace & { kind: "group" };

/** A user's membership of a project or a group. */
export interface Membership {
  /** The project id or group (namespace) id. */
  source_id: number;
  user_id: number;
  access_level: AccessLevel;
  created_at: string;
}

/** A project shared with a group: the group's members get at most `group_access` on the project. */
export interface ProjectShare {
  project_id: number;
  group_id: number;
  group_access: AccessLevel;
  created_at: string;
}

/** `namespace/project`, as it appears in URLs. */
export function pathWithNamespace(
  namespace: Pick<Namespace, "path">,
  project: Pick<Project, "path">,
): string {
  return `${namespace.path}/${project.path}`;
}

/** `Namespace Name / Project Name`, as GitLab shows it. */
export function nameWithNamespace(
  namespace: Pick<Namespace, "name">,
  project: Pick<Project, "name">,
): string {
  return `${namespace.name} / ${project.name}`;
}

// Letters, digits, emoji and `_` first; then also `-`, `.` and spaces (GitLab's project name rule).
const PROJECT_NAME = /^[\p{L}\p{N}\u{00A9}-\u{1f9c0}_][\p{L}\p{N}\p{Pd}\u{00A9}-\u{1f9c0}_. ]*$/u;

/** Why a project name is unacceptable, or null. */
export function projectNameProblem(name: string): string | null {
  if (name.trim().length === 0) return "can't be blank";
  if (name.length > 255) return "is too long (maximum is 255 characters)";
  if (!PROJECT_NAME.test(name)) {
    return "can contain only letters, digits, emojis, '_', '.', dash, space. It must start with letter, digit, emoji or '_'.";
  }
  return null;
}
