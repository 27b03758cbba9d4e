import {
  type AccessLevel,
  type Namespace,
  notFound,
  type Project,
  readsConfidentialIssues,
  type User,
} from "@kiln/domain";
import type { ShareWithGroup } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { accessesTo } from "./access.js";

/** Everything a v3 Project answer shows, loaded for a page of projects at once. */
export interface ProjectView {
  project: Project;
  namespace: Namespace;
  /** The user of a personal namespace; null for group projects. */
  owner: User | null;
  forkedFrom: { project: Project; namespace: Namespace } | null;
  forksCount: number;
  sharedWithGroups: ShareWithGroup[];
  /** The caller's direct levels: project membership and membership of the project's group. */
  permissions: { projectAccess: AccessLevel | null; groupAccess: AccessLevel | null };
  /** Shown to masters, owners and administrators only. */
  runnersToken: string | null;
  /**
   * Its open issues, for those who read every confidential issue (reporters and above,
   * administrators); for others those that are not confidential, which do not give away how many
   * confidential ones there are.
   */
  openIssuesCount: number;
}

/**
 * The views of many projects with a fixed number of queries (namespaces, owners, forks, shares,
 * the caller's levels), whatever the page size.
 */
export async function projectViews(ctx: Context, projects: readonly Project[]): Promise<ProjectView[]> {
  if (projects.length === 0) return [];
  const { stores, secrets } = ctx.runtime;
  const ids = projects.map((project) => project.id);
  const [sources, forksCount, shares] = await Promise.all([
    stores.forks.sourcesOf(ids),
    stores.forks.countForks(ids),
    stores.shares.forProjects(ids),
  ]);
  const sourceProjects = await stores.projects.findByIds([...sources.values()]);
  const namespaceIds = [...projects, ...sourceProjects.values()].map((project) => project.namespace_id);
  const namespaces = await stores.namespaces.findByIds(namespaceIds);
  const ownerIds = [...namespaces.values()].flatMap((ns) =>
    ns.kind === "user" && ns.owner_id !== null ? [ns.owner_id] : [],
  );
  const [owners, accesses] = await Promise.all([
    stores.users.findByIds(ownerIds),
    accessesTo(ctx, projects, namespaces),
  ]);
  const tokens = await stores.projects.sealedRunnersTokens(
    [...accesses.values()].flatMap(({ access }) =>
      access.allows("read_runners_token") ? [access.project.id] : [],
    ),
  );

  const views: ProjectView[] = [];
  for (const project of projects) {
    const namespace = namespaces.get(project.namespace_id);
    const sourced = accesses.get(project.id);
    if (!namespace || !sourced) continue; // deleted meanwhile
    const sourceId = sources.get(project.id);
    const source = sourceId === undefined ? undefined : sourceProjects.get(sourceId);
    const sourceNamespace = source && namespaces.get(source.namespace_id);
    const projectAccess = sourced.sources?.projectMember ?? null;
    const groupAccess = namespace.kind === "group" ? (sourced.sources?.groupMember ?? null) : null;
    const sealed = tokens.get(project.id);
    views.push({
      project,
      namespace,
      owner:
        namespace.kind === "user" && namespace.owner_id !== null
          ? (owners.get(namespace.owner_id) ?? null)
          : null,
      forkedFrom: source && sourceNamespace ? { project: source, namespace: sourceNamespace } : null,
      forksCount: forksCount.get(project.id) ?? 0,
      sharedWithGroups: shares.get(project.id) ?? [],
      permissions: { projectAccess, groupAccess },
      runnersToken: sealed ? secrets.open(sealed) : null,
      openIssuesCount: readsConfidentialIssues(sourced.access.subject)
        ? project.open_issues_count
        : project.public_open_issues_count,
    });
  }
  return views;
}

/**
 * The view of one project; `404 Project Not Found` when it (or its namespace) was deleted since
 * it was read, as the request would be answered a moment later.
 */
export async function projectView(ctx: Context, project: Project): Promise<ProjectView> {
  const [view] = await projectViews(ctx, [project]);
  if (!view) throw notFound("project");
  return view;
}
