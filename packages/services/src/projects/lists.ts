import { mapPage, type Page, type Project, pageRequest, Visibility } from "@kiln/domain";
import type { ProjectListParams } from "@kiln/schemas";
import type { ProjectFilter, ProjectOrder, ProjectScope } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { type ProjectView, projectViews } from "./views.js";

const VISIBILITY_BY_NAME = {
  public: Visibility.PUBLIC,
  internal: Visibility.INTERNAL,
  private: Visibility.PRIVATE,
} as const;

/** The store filter for the shared list parameters. */
export function listFilter(params: ProjectListParams): ProjectFilter {
  return {
    archived: params.archived,
    visibility: params.visibility === undefined ? undefined : VISIBILITY_BY_NAME[params.visibility],
    search: params.search,
  };
}

/** The order for the shared list parameters: `created_at desc` unless asked otherwise. */
export function listOrder(params: ProjectListParams, buildsFirst = false): ProjectOrder {
  return { by: params.order_by ?? "created_at", direction: params.sort ?? "desc", buildsFirst };
}

/** One page of projects from a scope, as views (a fixed number of queries for the whole page). */
export async function listProjects(
  ctx: Context,
  scope: ProjectScope,
  params: ProjectListParams,
  extra: { filter?: Partial<ProjectFilter>; buildsFirst?: boolean } = {},
): Promise<Page<ProjectView>> {
  const page = await ctx.runtime.stores.projects.list(
    scope,
    { ...listFilter(params), ...extra.filter },
    listOrder(params, extra.buildsFirst),
    pageRequest(params),
  );
  const views = await projectViews(ctx, page.items);
  const byId = new Map(views.map((view) => [view.project.id, view]));
  return mapPage(page, (project: Project) => byId.get(project.id) as ProjectView);
}
