import { type Namespace, type Project, pathWithNamespace, type User } from "@kiln/domain";

/** A project with its namespace, as every payload describes it. */
export interface HookProject {
  project: Project;
  namespace: Namespace;
}

/** The project's links under `baseUrl`. */
export function projectUrls({ project, namespace }: HookProject, baseUrl: string) {
  const fullPath = pathWithNamespace(namespace, project);
  const webUrl = `${baseUrl}/${fullPath}`;
  return {
    web_url: webUrl,
    git_http_url: `${webUrl}.git`,
    git_ssh_url: `git@${new URL(baseUrl).hostname}:${fullPath}.git`,
    path_with_namespace: fullPath,
  };
}

/**
 * A project as hooks describe it (GitLab 8.x's `Project#hook_attrs`), with the backward-compatible
 * `homepage`, `url`, `ssh_url` and `http_url` unless `backward` is false (pipeline payloads).
 */
export function projectHookAttrs(where: HookProject, baseUrl: string, backward = true) {
  const urls = projectUrls(where, baseUrl);
  const attrs = {
    name: where.project.name,
    description: where.project.description,
    web_url: urls.web_url,
    avatar_url: null,
    git_ssh_url: urls.git_ssh_url,
    git_http_url: urls.git_http_url,
    namespace: where.namespace.name,
    visibility_level: where.project.visibility_level,
    path_with_namespace: urls.path_with_namespace,
    default_branch: where.project.default_branch,
  };
  if (!backward) return attrs;
  return {
    ...attrs,
    homepage: urls.web_url,
    url: urls.git_ssh_url,
    ssh_url: urls.git_ssh_url,
    http_url: urls.git_http_url,
  };
}

/** The deprecated `repository` of issue, merge request and note payloads. */
export function shortRepository(where: HookProject, baseUrl: string) {
  const urls = projectUrls(where, baseUrl);
  return {
    name: where.project.name,
    url: urls.git_ssh_url,
    description: where.project.description,
    homepage: urls.web_url,
  };
}

/** The deprecated `repository` of push and build payloads, with the clone URLs and visibility. */
export function fullRepository(where: HookProject, baseUrl: string) {
  const urls = projectUrls(where, baseUrl);
  return {
    ...shortRepository(where, baseUrl),
    git_http_url: urls.git_http_url,
    git_ssh_url: urls.git_ssh_url,
    visibility_level: where.project.visibility_level,
  };
}

/** A user as hooks describe the actor and the assignee. */
export function hookUser(user: Pick<User, "name" | "username">) {
  return { name: user.name, username: user.username, avatar_url: null };
}
