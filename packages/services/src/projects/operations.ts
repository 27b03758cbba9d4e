import { forbidden, notFound, notModified, pageRequest, pathWithNamespace, type User } from "@kiln/domain";
import {
  CreateProjectForUserInput,
  CreateProjectInput,
  ProjectEventsInput,
  ProjectListParams,
  ProjectRefInput,
  SearchProjectsInput,
  UpdateProjectInput,
} from "@kiln/schemas";
import type { Context } from "../context.js";
import { recordDomainEvent } from "../domain-events.js";
import { namespaceOwner, projectSystemEvent } from "../hooks/payloads/system.js";
import { mutation, query, type SignedInContext } from "../operation.js";
import { acceptedDefaultBranch, moveHead } from "../repositories/default-branch.js";
import { removeProjectFiles } from "../storage-files.js";
import { requireProject } from "./access.js";
import {
  checkNameAndPathFree,
  checkProjectsLimit,
  checkVisibilityAllowed,
  checkVisibilityWithinNamespace,
  featureFlags,
  insertProject,
  projectPath,
  requestedVisibility,
  targetNamespace,
} from "./create.js";
import { projectFeed } from "./feed.js";
import { listProjects } from "./lists.js";
import { countPersonalProject } from "./owner-count.js";
import { projectView } from "./views.js";

const viewer = (ctx: SignedInContext) => ({ userId: ctx.actor.user.id, external: ctx.actor.user.external });

async function createFor(ctx: Context, creator: User, input: CreateProjectInput) {
  const settings = await ctx.runtime.settings();
  const namespace = await targetNamespace(ctx, creator, input.namespace_id);
  const visibility = requestedVisibility(input, settings.default_project_visibility);
  checkVisibilityAllowed(ctx, settings, visibility);
  checkVisibilityWithinNamespace(namespace, visibility);
  const path = projectPath(input.name, input.path);
  if (namespace.kind === "user") {
    const owner =
      namespace.owner_id === creator.id
        ? creator
        : await ctx.runtime.stores.users.findById(namespace.owner_id ?? 0);
    if (owner) await checkProjectsLimit(ctx.runtime.stores, owner, namespace);
  }
  await checkNameAndPathFree(ctx.runtime.stores, namespace.id, input.name, path);
  const project = await insertProject(ctx, {
    namespace,
    name: input.name,
    path,
    visibility,
    description: input.description ?? null,
    importUrl: input.import_url ?? null,
    flags: featureFlags(input),
    creator,
  });
  return projectView(ctx, project);
}

/** Projects: lists, one project, and its life from creation to deletion. */
export const projects = {
  /** The projects the caller is a member of (GitLab's "authorized" projects; administrators too). */
  list: query("signed_in", ProjectListParams, (ctx, input) =>
    listProjects(ctx, { kind: "member", userId: ctx.actor.user.id }, input),
  ),

  /** Every project the caller may read. */
  visible: query("signed_in", ProjectListParams, (ctx, input) =>
    listProjects(ctx, { kind: "visible", ...viewer(ctx) }, input),
  ),

  /** Projects in the caller's namespace and in groups they own. */
  owned: query("signed_in", ProjectListParams, (ctx, input) =>
    listProjects(ctx, { kind: "owned", userId: ctx.actor.user.id }, input),
  ),

  /** Projects the caller starred and may still read. */
  starred: query("signed_in", ProjectListParams, (ctx, input) =>
    listProjects(ctx, { kind: "starred", ...viewer(ctx) }, input),
  ),

  /** Every project (administrators). */
  all: query("admin", ProjectListParams, (ctx, input) => listProjects(ctx, { kind: "all" }, input)),

  /** Readable projects whose name contains `query`. */
  search: query("signed_in", SearchProjectsInput, (ctx, input) =>
    listProjects(ctx, { kind: "visible", ...viewer(ctx) }, input, { filter: { name: input.query } }),
  ),

  /** One project. */
  get: query("signed_in", ProjectRefInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id);
    return projectView(ctx, project);
  }),

  /** Creates a project for the caller (in their namespace, or a group they may create projects in). */
  create: mutation("signed_in", CreateProjectInput, (ctx, input) => createFor(ctx, ctx.actor.user, input)),

  /** Creates a project in another user's namespace (administrators). */
  createForUser: mutation("admin", CreateProjectForUserInput, async (ctx, input) => {
    const { user_id, ...rest } = input;
    const owner = await ctx.runtime.stores.users.findById(user_id);
    if (!owner) throw notFound("user");
    return createFor(ctx, owner, rest);
  }),

  /**
   * Changes a project: masters may change its settings; renaming and changing visibility need the
   * owner (or an administrator).
   */
  update: mutation("signed_in", UpdateProjectInput, async (ctx, input) => {
    const { id, name, path, default_branch, description, build_timeout, ...settings } = input;
    const access = await requireProject(ctx, id, "admin_project");
    const { project, namespace } = access;
    const renames =
      (name !== undefined && name !== project.name) || (path !== undefined && path !== project.path);
    if (renames && !access.allows("rename_project")) throw forbidden({ reason: "rename_requires_owner" });
    const visibility =
      settings.visibility_level !== undefined || settings.public !== undefined
        ? requestedVisibility(settings, project.visibility_level)
        : undefined;
    if (visibility !== undefined && visibility !== project.visibility_level) {
      if (!access.allows("change_visibility_level")) throw forbidden({ reason: "visibility_requires_owner" });
      const appSettings = await ctx.runtime.settings();
      checkVisibilityAllowed(ctx, appSettings, visibility);
      checkVisibilityWithinNamespace(namespace, visibility);
    }
    await checkNameAndPathFree(ctx.runtime.stores, namespace.id, name, path, project.id);
    const defaultBranch = await acceptedDefaultBranch(ctx.runtime, project, default_branch);
    const updated = await ctx.runtime.stores.transaction(async (tx) => {
      const changed = await tx.projects.update(project.id, {
        name,
        path,
        description,
        default_branch: defaultBranch,
        visibility_level: visibility,
        build_timeout,
        ...featureFlags(settings),
      });
      if (changed && changed.path !== project.path) {
        const owner = await namespaceOwner(tx, namespace);
        const oldPath = pathWithNamespace(namespace, project);
        await recordDomainEvent(tx, projectSystemEvent("project_rename", changed, namespace, owner, oldPath));
      }
      return changed;
    });
    if (!updated) throw notFound("project");
    if (defaultBranch !== undefined) await moveHead(ctx.runtime, updated, defaultBranch);
    return projectView(ctx, updated);
  }),

  /**
   * Deletes a project with everything of it, files on disk included (owners and administrators).
   * Of two deletions at once, the one that removes the row does the rest; the other finds the
   * project gone (404), as it would a moment later.
   */
  remove: mutation("signed_in", ProjectRefInput, async (ctx, input) => {
    const { project, namespace } = await requireProject(ctx, input.id, "remove_project");
    const owner = await ctx.runtime.stores.transaction(async (tx) => {
      if (!(await tx.projects.delete(project.id))) throw notFound("project");
      const destroyed = projectSystemEvent(
        "project_destroy",
        project,
        namespace,
        await namespaceOwner(tx, namespace),
      );
      await recordDomainEvent(tx, destroyed);
      return countPersonalProject(tx, namespace, -1);
    });
    if (owner !== null) ctx.runtime.userChanged(owner);
    await removeProjectFiles(ctx.runtime, project.id);
    return true as const;
  }),

  /** Stars a project: 304 when already starred. */
  star: mutation("signed_in", ProjectRefInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id);
    const starred = await ctx.runtime.stores.transaction(async (tx) => {
      if (!(await tx.stars.add(ctx.actor.user.id, project.id))) return false;
      await tx.projects.addStars(project.id, 1);
      return true;
    });
    if (!starred) throw notModified();
    return projectView(ctx, { ...project, star_count: project.star_count + 1 });
  }),

  /** Unstars a project: 304 when it was not starred. */
  unstar: mutation("signed_in", ProjectRefInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id);
    const unstarred = await ctx.runtime.stores.transaction(async (tx) => {
      if (!(await tx.stars.remove(ctx.actor.user.id, project.id))) return false;
      await tx.projects.addStars(project.id, -1);
      return true;
    });
    if (!unstarred) throw notModified();
    return projectView(ctx, { ...project, star_count: project.star_count - 1 });
  }),

  /** Archives a project (idempotent; owners and administrators). */
  archive: mutation("signed_in", ProjectRefInput, (ctx, input) => setArchived(ctx, input.id, true)),

  /** Unarchives a project (idempotent; owners and administrators). */
  unarchive: mutation("signed_in", ProjectRefInput, (ctx, input) => setArchived(ctx, input.id, false)),

  /** The project's activity the caller may read (see `eventFilterFor`), newest first. */
  events: query("signed_in", ProjectEventsInput, async (ctx, input) => {
    const access = await requireProject(ctx, input.id);
    return projectFeed(ctx, access, ctx.actor.user, pageRequest(input));
  }),
};

async function setArchived(ctx: Context, ref: number | string, archived: boolean) {
  const { project } = await requireProject(ctx, ref, "archive_project");
  const updated =
    project.archived === archived
      ? project
      : await ctx.runtime.stores.projects.update(project.id, { archived });
  if (!updated) throw notFound("project");
  return projectView(ctx, updated);
}
