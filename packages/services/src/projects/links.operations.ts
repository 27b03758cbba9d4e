import {
  type AccessLevel,
  badRequest,
  conflict,
  DomainError,
  forbidden,
  invalid,
  type Namespace,
  notFound,
  notModified,
  type User,
  type Visibility,
} from "@kiln/domain";
import {
  ForkProjectInput,
  ForkRelationInput,
  MAX_PROJECT_MEMBER_LEVEL,
  ShareProjectInput,
  UnshareProjectInput,
} from "@kiln/schemas";
import { ForeignKeyViolation, UniqueViolation } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { groupVisibleTo } from "../groups/subject.js";
import { mutation } from "../operation.js";
import { findProject, requireProject } from "./access.js";
import { checkNameAndPathFree, checkProjectsLimit, insertProject, targetNamespace } from "./create.js";
import { projectView } from "./views.js";

/**
 * Where a fork goes: the caller's namespace, or the namespace `ref` names (id or path) if the
 * caller may create projects there. Any other namespace, missing or not, is GitLab's
 * `404 Target Namespace Not Found`, so that a hidden group cannot be told from a missing one.
 */
async function forkTarget(ctx: Context, creator: User, ref: number | string | undefined): Promise<Namespace> {
  if (ref === undefined) return targetNamespace(ctx, creator, undefined);
  const { namespaces } = ctx.runtime.stores;
  const namespace =
    typeof ref === "number" ? await namespaces.findById(ref) : await namespaces.findByPath(ref);
  if (!namespace) throw notFound("target_namespace");
  try {
    return await targetNamespace(ctx, creator, namespace.id);
  } catch (error) {
    if (DomainError.is(error) && error.kind === "validation") throw notFound("target_namespace");
    throw error;
  }
}

/** Forks and fork relations, and shares of projects with groups. */
export const projectLinks = {
  /** Forks a project into the caller's namespace (or `namespace`, where the caller may create projects). */
  fork: mutation("signed_in", ForkProjectInput, async (ctx, input) => {
    const { project: source } = await requireProject(ctx, input.id, "fork_project");
    const creator = ctx.actor.user;
    const namespace = await forkTarget(ctx, creator, input.namespace);
    if (namespace.kind === "user") await checkProjectsLimit(ctx.runtime.stores, creator, namespace);
    await checkNameAndPathFree(ctx.runtime.stores, namespace.id, source.name, source.path);
    const fork = await insertProject(ctx, {
      namespace,
      name: source.name,
      path: source.path,
      // A fork is never more visible than its source, nor than the group that holds it.
      visibility:
        namespace.kind === "group"
          ? (Math.min(source.visibility_level, namespace.visibility_level) as Visibility)
          : source.visibility_level,
      description: source.description,
      importUrl: null,
      flags: {
        issues_enabled: source.issues_enabled,
        merge_requests_enabled: source.merge_requests_enabled,
        builds_enabled: source.builds_enabled,
        wiki_enabled: source.wiki_enabled,
        snippets_enabled: source.snippets_enabled,
        public_builds: source.public_builds,
      },
      creator,
      forkOf: source,
    });
    return projectView(ctx, fork);
  }),

  /** Records that a project is a fork of another (administrators); 409 when it already is a fork. */
  linkFork: mutation("admin", ForkRelationInput, async (ctx, input) => {
    const { project: fork } = await requireProject(ctx, input.id);
    const source = await findProject(ctx.runtime.stores, input.forked_from_id);
    if (!source) throw notFound("project");
    if (source.id === fork.id) throw badRequest({ reason: "fork_of_itself" });
    try {
      await ctx.runtime.stores.forks.link(fork.id, source.id);
    } catch (error) {
      if (error instanceof UniqueViolation) throw conflict({ reason: "already_forked" });
      if (error instanceof ForeignKeyViolation) throw notFound("project");
      throw error;
    }
    return projectView(ctx, fork);
  }),

  /** Forgets that a project is a fork (administrators); 304 when it was not one. */
  unlinkFork: mutation("admin", ForkRelationInput.pick({ id: true }), async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id);
    if (!(await ctx.runtime.stores.forks.unlink(project.id))) throw notModified();
    return projectView(ctx, project);
  }),

  /**
   * Shares a project with a group, its members getting at most `group_access` (masters and
   * owners). Like a membership, a share gives at most master: owners of a project are its
   * namespace's owners (GitLab takes `group_access` from guest to master only).
   */
  share: mutation("signed_in", ShareProjectInput, async (ctx, input) => {
    const { project, namespace } = await requireProject(ctx, input.id, "admin_project");
    if (input.group_access > MAX_PROJECT_MEMBER_LEVEL) {
      throw invalid({ group_access: ["does not have a valid value"] });
    }
    const group = await ctx.runtime.stores.namespaces.findById(input.group_id);
    if (group?.kind !== "group" || !(await groupVisibleTo(ctx, group))) throw notFound("group");
    if (namespace.share_with_group_lock) throw forbidden({ reason: "group_sharing_disabled" });
    if (group.id === namespace.id) throw badRequest({ reason: "shared_with_own_group" });
    try {
      return await ctx.runtime.stores.shares.add(project.id, group.id, input.group_access as AccessLevel);
    } catch (error) {
      if (error instanceof UniqueViolation) throw conflict({ reason: "already_shared" });
      throw error;
    }
  }),

  /** Stops sharing a project with a group. */
  unshare: mutation("signed_in", UnshareProjectInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_project");
    if (!(await ctx.runtime.stores.shares.remove(project.id, input.group_id))) throw notFound("group_link");
    return null;
  }),
};
