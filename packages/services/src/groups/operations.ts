import {
  AccessLevel,
  badRequest,
  conflict,
  forbidden,
  type Group,
  invalid,
  mapPage,
  notFound,
  pageRequest,
  pathWithNamespace,
  Visibility,
  visibilityName,
} from "@kiln/domain";
import {
  CreateGroupInput,
  GroupProjectsInput,
  GroupRefInput,
  ListGroupsInput,
  TransferProjectInput,
  UpdateGroupInput,
} from "@kiln/schemas";
import { type Stores, UniqueViolation } from "@kiln/storage-kysely";
import { recordDomainEvent } from "../domain-events.js";
import { groupSystemEvent, projectOwner, projectSystemEvent } from "../hooks/payloads/system.js";
import { mutation, query } from "../operation.js";
import { findProject } from "../projects/access.js";
import { checkNameAndPathFree, checkVisibilityAllowed } from "../projects/create.js";
import { listProjects } from "../projects/lists.js";
import { destroyNamespaceProjects } from "../projects/namespace-removal.js";
import { countPersonalProject } from "../projects/owner-count.js";
import { removeProjectFiles } from "../storage-files.js";
import { findGroup, projectViewer, requireGroup } from "./access.js";
import { groupDetail } from "./detail.js";

/** A new group is private unless asked otherwise. */
const DEFAULT_GROUP_VISIBILITY = Visibility.PRIVATE;

const pathTaken = () => invalid({ path: ["has already been taken"] });

/** Refuses a path any user or other group holds, ignoring case (400, as GitLab validates it). */
async function ensurePathFree(stores: Stores, path: string, exceptGroupId?: number): Promise<void> {
  if (await stores.namespaces.pathTaken(path, exceptGroupId)) throw pathTaken();
}

/** Runs a write that may lose a race for a path: the unique index refusing it is the same 400. */
async function claimingPath<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof UniqueViolation) throw pathTaken();
    throw error;
  }
}

/** Refuses a group visibility below that of one of its projects, with GitLab's message. */
async function ensureNotBelowProjects(stores: Stores, groupId: number, level: Visibility): Promise<void> {
  const highest = await stores.projects.highestVisibilityInNamespace(groupId);
  if (highest === null || highest <= level) return;
  throw invalid({
    visibility_level: [
      `${visibilityName(level)} is not allowed since this group contains projects with higher visibility.`,
    ],
  });
}

/** Groups: lists, one group with its projects, and its life from creation to deletion. */
export const groups = {
  /** The groups the caller belongs to (every group for administrators); `search` matches name or path. */
  list: query("signed_in", ListGroupsInput, async (ctx, input) => {
    const { user } = ctx.actor;
    const page = await ctx.runtime.stores.namespaces.list(
      { kind: "group", memberId: user.is_admin ? undefined : user.id, search: input.search },
      pageRequest(input),
    );
    return mapPage(page, (namespace) => namespace as Group);
  }),

  /** One group by id or path, with the projects of it and shared with it that the caller may read. */
  get: query("signed_in", GroupRefInput, async (ctx, input) => {
    const { group } = await requireGroup(ctx, input.id);
    return groupDetail(ctx, group);
  }),

  /** Creates a group (users allowed to create groups, and administrators); the creator becomes its owner. */
  create: mutation("signed_in", CreateGroupInput, async (ctx, input) => {
    const creator = ctx.actor.user;
    if (!creator.can_create_group && !creator.is_admin) throw forbidden();
    const visibility = (input.visibility_level as Visibility | undefined) ?? DEFAULT_GROUP_VISIBILITY;
    if (input.visibility_level !== undefined) {
      checkVisibilityAllowed(ctx, await ctx.runtime.settings(), visibility);
    }
    const group = await claimingPath(() =>
      ctx.runtime.stores.transaction(async (tx) => {
        await ensurePathFree(tx, input.path);
        const created = await tx.namespaces.createGroup({
          name: input.name,
          path: input.path,
          description: input.description ?? "",
          visibility_level: visibility,
        });
        await tx.groupMembers.add(created.id, creator.id, AccessLevel.OWNER);
        await recordDomainEvent(tx, groupSystemEvent("group_create", created, creator));
        return created;
      }),
    );
    return groupDetail(ctx, group);
  }),

  /**
   * Changes a group (owners and administrators). The path stays unique; the visibility may not
   * drop below that of any of the group's projects.
   */
  update: mutation("signed_in", UpdateGroupInput, async (ctx, input) => {
    const { id, visibility_level, ...fields } = input;
    const { group } = await requireGroup(ctx, id, "admin_group");
    const visibility = visibility_level as Visibility | undefined;
    if (visibility !== undefined && visibility !== group.visibility_level) {
      checkVisibilityAllowed(ctx, await ctx.runtime.settings(), visibility);
    }
    const updated = await claimingPath(() =>
      ctx.runtime.stores.transaction(async (tx) => {
        if (fields.path !== undefined) await ensurePathFree(tx, fields.path, group.id);
        if (visibility !== undefined) await ensureNotBelowProjects(tx, group.id, visibility);
        return tx.namespaces.updateGroup(group.id, { ...fields, visibility_level: visibility });
      }),
    );
    if (!updated) throw notFound("group");
    return groupDetail(ctx, updated);
  }),

  /**
   * Deletes a group with all its projects, their files on disk included (owners and
   * administrators): the rows first, then the files, as a project's deletion does. Of two
   * deletions at once, the one that removes the row removes the files; the other finds the group
   * gone (404).
   */
  remove: mutation("signed_in", GroupRefInput, async (ctx, input) => {
    const { group } = await requireGroup(ctx, input.id, "remove_group");
    const projectIds = await ctx.runtime.stores.transaction(async (tx) => {
      const ids = await destroyNamespaceProjects(tx, group);
      if (!(await tx.namespaces.deleteGroup(group.id))) throw notFound("group");
      await recordDomainEvent(tx, groupSystemEvent("group_destroy", group, null));
      return ids;
    });
    for (const projectId of projectIds) await removeProjectFiles(ctx.runtime, projectId);
    return group;
  }),

  /**
   * Moves a project into a group (administrators). A project more visible than the group takes
   * the group's visibility; a share of the project with the group is dropped, as the group now
   * holds it. 409 when the group already has a project of that name or path.
   */
  transfer: mutation("admin", TransferProjectInput, async (ctx, input) => {
    const { stores } = ctx.runtime;
    const group = await findGroup(stores, input.id);
    if (!group) throw notFound("group");
    const project = await findProject(stores, input.project_id);
    if (!project) throw notFound("project");
    if (project.namespace_id === group.id) throw badRequest({ reason: "already_in_group" });
    const from = await stores.namespaces.findById(project.namespace_id);
    try {
      const owner = await stores.transaction(async (tx) => {
        await checkNameAndPathFree(tx, group.id, project.name, project.path, project.id);
        const moved = await tx.projects.update(project.id, {
          namespace_id: group.id,
          visibility_level: Math.min(project.visibility_level, group.visibility_level) as Visibility,
        });
        await tx.shares.remove(project.id, group.id);
        if (moved && from) {
          const transferred = projectSystemEvent(
            "project_transfer",
            moved,
            group,
            projectOwner(group, null),
            pathWithNamespace(from, project),
          );
          await recordDomainEvent(tx, transferred);
        }
        return from ? countPersonalProject(tx, from, -1) : null;
      });
      if (owner !== null) ctx.runtime.userChanged(owner);
    } catch (error) {
      if (error instanceof UniqueViolation) {
        throw conflict({ reason: "project_name_or_path_taken" });
      }
      throw error;
    }
    return groupDetail(ctx, group);
  }),

  /** The group's projects the caller may read; `ci_enabled_first` puts projects with builds enabled first. */
  projects: query("signed_in", GroupProjectsInput, async (ctx, input) => {
    const { group } = await requireGroup(ctx, input.id);
    return listProjects(
      ctx,
      { kind: "namespace", namespaceId: group.id, viewer: projectViewer(ctx) },
      input,
      { buildsFirst: input.ci_enabled_first ?? false },
    );
  }),
};
