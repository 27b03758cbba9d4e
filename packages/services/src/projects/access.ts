import {
  AccessLevel,
  type AccessSources,
  can,
  effectiveAccessLevel,
  forbidden,
  type Namespace,
  notFound,
  type Project,
  type ProjectAbility,
  type Subject,
  type User,
} from "@kiln/domain";
import type { ProjectRef } from "@kiln/schemas";
import type { Stores } from "@kiln/storage-kysely";
import type { Context } from "../context.js";

/** A project as seen by the caller: the project, its namespace and the caller's rights on it. */
export interface ProjectAccess {
  project: Project;
  namespace: Namespace;
  subject: Subject;
  /** True when the caller may do this to the project. */
  allows(ability: ProjectAbility): boolean;
}

/**
 * Finds a project by id or `namespace/project`, without checking who may see it. A reference in
 * digits is an id: the `ProjectRef` schema makes it a number, and bounds it.
 */
export async function findProject(stores: Stores, ref: ProjectRef): Promise<Project | undefined> {
  if (typeof ref === "number") return stores.projects.findById(ref);
  const slash = ref.lastIndexOf("/");
  if (slash <= 0) return undefined;
  return stores.projects.findByFullPath(ref.slice(0, slash), ref.slice(slash + 1));
}

/** What the system (`kiln` commands, first start) may do: everything. */
const SYSTEM: Subject = { isAdmin: true, external: false, accessLevel: AccessLevel.OWNER };

/** A caller without a user: reads only what is public. */
const ANONYMOUS: Subject = { isAdmin: false, external: true, accessLevel: AccessLevel.NONE };

/** True when the namespace is the user's own (they own its projects). */
const ownsNamespace = (namespace: Namespace, user: User): boolean =>
  namespace.kind === "user" && namespace.owner_id === user.id;

/** A user's subject on a project, from where their access to it comes from. */
const subjectFrom = (user: User, sources: AccessSources): Subject => ({
  isAdmin: user.is_admin,
  external: user.external,
  accessLevel: effectiveAccessLevel(sources),
});

/** The caller's level on a project and whether they are an administrator, for the permission table. */
export async function subjectFor(ctx: Context, project: Project, namespace: Namespace): Promise<Subject> {
  if (ctx.system) return SYSTEM;
  return userSubject(ctx.runtime.stores, ctx.actor?.user ?? null, project, namespace);
}

/** A user's (null: anonymous) level on a project, read through `stores`. */
async function userSubject(
  stores: Stores,
  user: User | null,
  project: Project,
  namespace: Namespace,
): Promise<Subject> {
  if (!user) return ANONYMOUS;
  return subjectFrom(
    user,
    await stores.projects.accessSources(user.id, project, ownsNamespace(namespace, user)),
  );
}

/** The caller's view of a project, with where their access to it comes from (null: system or anonymous). */
export interface SourcedAccess {
  access: ProjectAccess;
  sources: AccessSources | null;
}

/**
 * The caller's view of each of many loaded projects, whose namespaces are given, with one query
 * for their levels whatever the number of projects. Projects whose namespace is missing are left out.
 */
export async function accessesTo(
  ctx: Context,
  projects: readonly Project[],
  namespaces: ReadonlyMap<number, Namespace>,
): Promise<Map<number, SourcedAccess>> {
  const user = ctx.system ? null : (ctx.actor?.user ?? null);
  const namespaceOf = new Map(projects.map((project) => [project.id, namespaces.get(project.namespace_id)]));
  const owned = (id: number) => {
    const namespace = namespaceOf.get(id);
    return user !== null && namespace !== undefined && ownsNamespace(namespace, user);
  };
  const ids = projects.map((project) => project.id);
  const sources = user
    ? await ctx.runtime.stores.projects.accessSourcesOfMany(user.id, ids, owned)
    : new Map<number, AccessSources>();
  const accesses = new Map<number, SourcedAccess>();
  for (const project of projects) {
    const namespace = namespaces.get(project.namespace_id);
    const found = sources.get(project.id) ?? null;
    if (!namespace || (user && !found)) continue; // deleted meanwhile
    const subject = user && found ? subjectFrom(user, found) : ctx.system ? SYSTEM : ANONYMOUS;
    accesses.set(project.id, { access: accessWith(project, namespace, subject), sources: found });
  }
  return accesses;
}

/** The view of a project that a subject has. */
function accessWith(project: Project, namespace: Namespace, subject: Subject): ProjectAccess {
  const facts = {
    visibility: project.visibility_level,
    archived: project.archived,
    publicBuilds: project.public_builds,
  };
  return { project, namespace, subject, allows: (ability) => can(subject, facts, ability) };
}

/**
 * How `user`, who need not be the caller, sees a project: for deciding whom a todo may reach.
 * Reads through `stores`, which inside a transaction must be the transaction's (SQLite has one
 * connection, which the transaction holds).
 */
export async function userAccess(
  stores: Stores,
  user: User,
  project: Project,
  namespace: Namespace,
): Promise<ProjectAccess> {
  return accessWith(project, namespace, await userSubject(stores, user, project, namespace));
}

/** Builds the caller's view of a loaded project. */
export async function accessTo(
  ctx: Context,
  project: Project,
  namespace?: Namespace,
): Promise<ProjectAccess> {
  const owner = namespace ?? (await ctx.runtime.stores.namespaces.findById(project.namespace_id));
  if (!owner) throw notFound("project");
  return accessWith(project, owner, await subjectFor(ctx, project, owner));
}

/**
 * The project named by `ref`, if the caller may read it, checked for `ability`. A project the
 * caller may not read is `404 Project Not Found`, exactly like a missing one; one they may read
 * but not act on is 403.
 */
export async function requireProject(
  ctx: Context,
  ref: number | string,
  ability: ProjectAbility = "read_project",
): Promise<ProjectAccess> {
  const project = await findProject(ctx.runtime.stores, ref);
  if (!project) throw notFound("project");
  const access = await accessTo(ctx, project);
  if (!access.allows("read_project")) throw notFound("project");
  if (!access.allows(ability)) throw forbidden();
  return access;
}
