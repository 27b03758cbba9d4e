import {
  AccessLevel,
  ISSUE_STATE_FILTERS,
  type Issue,
  type IssueStateFilter,
  type Page,
  type PageRequest,
  type Project,
  type User,
} from "@kiln/domain";
import type { ConfidentialFilter, IssuableOrder, IssueFilter } from "@kiln/storage-kysely";
import type { Context } from "../context.js";

/** The list parameters every issue list shares, as decoded by the schemas. */
export interface IssueListParams {
  state: IssueStateFilter;
  labels?: readonly string[] | undefined;
  milestone?: string | undefined;
  order_by: IssuableOrder["by"];
  sort: IssuableOrder["direction"];
}

/**
 * The store filter of a list: its states, its labels matched as `labelMatch` says (GitLab's user
 * and project lists take any of them, the group list all of them) and its milestone title.
 */
export function issueFilter(params: IssueListParams, labelMatch: "any" | "all"): IssueFilter {
  return {
    states: ISSUE_STATE_FILTERS[params.state],
    labels:
      params.labels && params.labels.length > 0 ? { titles: params.labels, match: labelMatch } : undefined,
    milestone: params.milestone,
  };
}

/** The order of a list from its `order_by` and `sort`. */
export function issueOrder(params: IssueListParams): IssuableOrder {
  return { by: params.order_by, direction: params.sort };
}

/**
 * Which confidential issues of these projects (of one group) the caller may see: those of projects
 * where they are reporter or above, through the group or the project, and those they wrote or are
 * assigned to elsewhere. Administrators see all. A fixed number of queries.
 */
export async function groupConfidentiality(
  ctx: Context,
  groupId: number,
  projects: readonly Project[],
  user: User,
): Promise<ConfidentialFilter | undefined> {
  if (user.is_admin) return undefined;
  const { stores } = ctx.runtime;
  const ids = projects.map((project) => project.id);
  const [groupLevels, projectLevels] = await Promise.all([
    stores.groupMembers.levelsOf(user.id, [groupId]),
    stores.projectMembers.levelsOf(user.id, ids),
  ]);
  if ((groupLevels.get(groupId) ?? 0) >= AccessLevel.REPORTER) return undefined;
  const projectIds = ids.filter((id) => (projectLevels.get(id) ?? 0) >= AccessLevel.REPORTER);
  return { userId: user.id, projectIds };
}

/** Every project of a group the caller may read (administrators: all of them). */
export async function readableGroupProjects(
  ctx: Context,
  groupId: number,
  viewer: { userId: number; external: boolean } | null,
): Promise<Project[]> {
  // Groups hold few projects: one page large enough for any of them, without a count.
  const everything: PageRequest = { page: 1, perPage: 100_000 };
  const page = await ctx.runtime.stores.projects.list(
    { kind: "namespace", namespaceId: groupId, viewer },
    {},
    { by: "id", direction: "asc" },
    everything,
  );
  return page.items;
}

/** An empty page, for lists that can match nothing. */
export function emptyPage(page: PageRequest): Page<Issue> {
  return { items: [], page: page.page, perPage: page.perPage, total: 0 };
}
