import {
  type AccessLevel,
  type Namespace,
  nameWithNamespace,
  type Project,
  pathWithNamespace,
  Visibility,
} from "@kiln/domain";
import type { BasicProjectDetails, NamespaceJson, ProjectJson } from "@kiln/schemas";
import type { ProjectView } from "../projects/views.js";
import type { PresentContext } from "./present-context.js";

/** GitLab's notification level "global", the only one Kiln has. */
const NOTIFICATION_GLOBAL = 3;

/** A namespace as embedded in projects; groups add their avatar, lock and visibility. */
export function presentNamespace(namespace: Namespace): NamespaceJson {
  const base = {
    id: namespace.id,
    name: namespace.name,
    path: namespace.path,
    kind: namespace.kind,
    owner_id: namespace.owner_id,
    created_at: namespace.created_at,
    updated_at: namespace.updated_at,
    description: namespace.description,
  };
  if (namespace.kind === "user") return base;
  return {
    ...base,
    avatar: { url: null },
    share_with_group_lock: namespace.share_with_group_lock,
    visibility_level: namespace.visibility_level,
  };
}

function urls(namespace: Namespace, project: Project, baseUrl: string) {
  const fullPath = pathWithNamespace(namespace, project);
  const host = new URL(baseUrl).hostname;
  return {
    web_url: `${baseUrl}/${fullPath}`,
    http_url_to_repo: `${baseUrl}/${fullPath}.git`,
    ssh_url_to_repo: `git@${host}:${fullPath}.git`,
    path_with_namespace: fullPath,
  };
}

/** `{id, http_url_to_repo, web_url, name, name_with_namespace, path, path_with_namespace}`. */
export function presentBasicProject(
  project: Project,
  namespace: Namespace,
  { baseUrl }: PresentContext,
): BasicProjectDetails {
  const { web_url, http_url_to_repo, path_with_namespace } = urls(namespace, project, baseUrl);
  return {
    id: project.id,
    http_url_to_repo,
    web_url,
    name: project.name,
    name_with_namespace: nameWithNamespace(namespace, project),
    path: project.path,
    path_with_namespace,
  };
}

const accessJson = (level: AccessLevel | null) =>
  level === null ? null : { access_level: level, notification_level: NOTIFICATION_GLOBAL };

/**
 * A project as v3 answers it. With `withAccess` it is GitLab's ProjectWithAccess (lists of one's
 * own projects, single project): the caller's project and group access levels, and the runners
 * token to those who may see it. Without, it is GitLab's plain Project entity as star, unstar, the
 * starred and search lists and a group's projects answer it, which shows neither.
 */
export function presentProject(view: ProjectView, context: PresentContext, withAccess = true): ProjectJson {
  const { project, namespace } = view;
  const { web_url, http_url_to_repo, ssh_url_to_repo, path_with_namespace } = urls(
    namespace,
    project,
    context.baseUrl,
  );
  const json: ProjectJson = {
    id: project.id,
    description: project.description,
    default_branch: project.default_branch,
    tag_list: [],
    public: project.visibility_level === Visibility.PUBLIC,
    archived: project.archived,
    visibility_level: project.visibility_level,
    ssh_url_to_repo,
    http_url_to_repo,
    web_url,
    name: project.name,
    name_with_namespace: nameWithNamespace(namespace, project),
    path: project.path,
    path_with_namespace,
    container_registry_enabled: project.container_registry_enabled,
    issues_enabled: project.issues_enabled,
    merge_requests_enabled: project.merge_requests_enabled,
    wiki_enabled: project.wiki_enabled,
    builds_enabled: project.builds_enabled,
    snippets_enabled: project.snippets_enabled,
    created_at: project.created_at,
    last_activity_at: project.last_activity_at,
    shared_runners_enabled: project.shared_runners_enabled,
    lfs_enabled: project.lfs_enabled,
    creator_id: project.creator_id,
    namespace: presentNamespace(namespace),
    avatar_url: null,
    star_count: project.star_count,
    forks_count: view.forksCount,
    public_builds: project.public_builds,
    shared_with_groups: view.sharedWithGroups,
    only_allow_merge_if_build_succeeds: project.only_allow_merge_if_build_succeeds,
    request_access_enabled: project.request_access_enabled,
  };
  if (view.owner)
    json.owner = { id: view.owner.id, name: view.owner.name, created_at: view.owner.created_at };
  if (view.forkedFrom)
    json.forked_from_project = presentBasicProject(
      view.forkedFrom.project,
      view.forkedFrom.namespace,
      context,
    );
  if (project.issues_enabled) json.open_issues_count = view.openIssuesCount;
  if (!withAccess) return json;
  if (view.runnersToken !== null) json.runners_token = view.runnersToken;
  json.permissions = {
    project_access: accessJson(view.permissions.projectAccess),
    group_access: accessJson(view.permissions.groupAccess),
  };
  return json;
}
