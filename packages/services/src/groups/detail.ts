import type { Group, Project } from "@kiln/domain";
import type { ProjectOrder } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { type ProjectView, projectViews } from "../projects/views.js";
import { projectViewer } from "./access.js";

/** A group with the projects the caller may read: its own, and those shared with it. */
export interface GroupDetail {
  group: Group;
  projects: ProjectView[];
  sharedProjects: ProjectView[];
}

/**
 * How many projects of each kind a group's detail carries. The detail is not paginated, so it is
 * capped; `GET /groups/:id/projects` pages through all of a group's projects.
 */
export const GROUP_DETAIL_PROJECTS_LIMIT = 100;

const BY_ID: ProjectOrder = { by: "id", direction: "asc" };

/**
 * The caller's detail of a group, in a fixed number of queries: one list of its projects, one of
 * the projects shared with it (both filtered to what the caller may read, unfiltered for
 * administrators), and the views of both at once.
 */
export async function groupDetail(ctx: Context, group: Group): Promise<GroupDetail> {
  const { projects } = ctx.runtime.stores;
  const viewer = projectViewer(ctx);
  const page = { page: 1, perPage: GROUP_DETAIL_PROJECTS_LIMIT };
  const [own, shared] = await Promise.all([
    projects.list({ kind: "namespace", namespaceId: group.id, viewer }, {}, BY_ID, page),
    projects.list({ kind: "sharedWith", groupId: group.id, viewer }, {}, BY_ID, page),
  ]);
  const views = await projectViews(ctx, [...own.items, ...shared.items]);
  const byId = new Map(views.map((view) => [view.project.id, view]));
  const viewsOf = (list: readonly Project[]) => list.flatMap((project) => byId.get(project.id) ?? []);
  return { group, projects: viewsOf(own.items), sharedProjects: viewsOf(shared.items) };
}
