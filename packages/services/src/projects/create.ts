import {
  AccessLevel,
  type ApplicationSettings,
  canCreateProject,
  canGroup,
  conflict,
  EventAction,
  forbidden,
  invalid,
  type Namespace,
  normalizeVisibility,
  notFound,
  PROJECT_FEATURE_FLAGS,
  type Project,
  parameterize,
  pathProblem,
  type User,
  Visibility,
  visibilityName,
} from "@kiln/domain";
import type { CreateProjectInput } from "@kiln/schemas";
import { ForeignKeyViolation, type Stores, UniqueViolation } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { recordDomainEvent } from "../domain-events.js";
import { recordEvent } from "../events.js";
import { namespaceOwner, projectSystemEvent } from "../hooks/payloads/system.js";
import { generateToken, tokenDigest } from "../security/tokens.js";
import { createRepository } from "./new-repository.js";
import { countPersonalProject } from "./owner-count.js";

/** The settings part of a create or update input. */
type Settings = Omit<CreateProjectInput, "name" | "path" | "namespace_id" | "import_url">;

/** The visibility an input asks for: `visibility_level` wins, then `public`, then the default. */
export function requestedVisibility(input: Settings, fallback: Visibility): Visibility {
  if (input.visibility_level !== undefined) return input.visibility_level as Visibility;
  if (input.public !== undefined) return input.public ? Visibility.PUBLIC : Visibility.PRIVATE;
  return fallback;
}

/** Refuses a visibility the administrator restricted, unless the caller is an administrator. */
export function checkVisibilityAllowed(ctx: Context, settings: ApplicationSettings, level: Visibility): void {
  if (ctx.system || ctx.actor?.user.is_admin) return;
  const restricted = settings.restricted_visibility_levels.map((value) => normalizeVisibility(value));
  if (restricted.includes(level)) {
    throw invalid({
      visibility_level: [`${visibilityName(level)} visibility has been restricted by your administrator`],
    });
  }
}

/** Refuses a project more visible than the group holding it. */
export function checkVisibilityWithinNamespace(namespace: Namespace, level: Visibility): void {
  if (namespace.kind === "group" && level > namespace.visibility_level) {
    throw invalid({
      visibility_level: [
        `${visibilityName(level)} is not allowed in a ${visibilityName(namespace.visibility_level)} group`,
      ],
    });
  }
}

/** The feature flags of an input, only those it sets. */
export function featureFlags(
  input: Settings,
): Partial<Record<(typeof PROJECT_FEATURE_FLAGS)[number], boolean>> {
  const flags: Partial<Record<(typeof PROJECT_FEATURE_FLAGS)[number], boolean>> = {};
  for (const flag of PROJECT_FEATURE_FLAGS) {
    const value = input[flag];
    if (value !== undefined) flags[flag] = value;
  }
  return flags;
}

/**
 * Where the caller may create a project: their own namespace, a group where they may create
 * projects (master or owner), or anywhere for administrators. Anything else is
 * `{"namespace": ["is not valid"]}`, as GitLab answers.
 */
export async function targetNamespace(
  ctx: Context,
  creator: User,
  namespaceId: number | undefined,
): Promise<Namespace> {
  const { stores } = ctx.runtime;
  const namespace =
    namespaceId === undefined
      ? await stores.namespaces.findForUser(creator.id)
      : await stores.namespaces.findById(namespaceId);
  const notValid = invalid({ namespace: ["is not valid"] });
  if (!namespace) throw notValid;
  if (ctx.system || ctx.actor?.user.is_admin) return namespace;
  if (namespace.kind === "user") {
    if (namespace.owner_id !== creator.id) throw notValid;
    return namespace;
  }
  const membership = await stores.groupMembers.find(namespace.id, creator.id);
  const subject = {
    isAdmin: false,
    external: creator.external,
    accessLevel: membership?.access_level ?? AccessLevel.NONE,
    readsAProject: false,
  };
  if (!canGroup(subject, namespace.visibility_level, "create_projects")) throw notValid;
  return namespace;
}

/** Refuses a new personal project past the owner's `projects_limit`, with GitLab's message. */
export async function checkProjectsLimit(stores: Stores, owner: User, namespace: Namespace): Promise<void> {
  if (namespace.kind !== "user") return;
  const owned = await stores.projects.countInNamespace(namespace.id);
  if (canCreateProject({ projects_limit: owner.projects_limit, personal_projects_count: owned })) return;
  throw forbidden(
    owner.projects_limit === 0
      ? { reason: "personal_projects_disabled" }
      : { reason: "projects_limit_reached", limit: owner.projects_limit },
  );
}

/** Refuses a name or path already used in the namespace (409). */
export async function checkNameAndPathFree(
  stores: Stores,
  namespaceId: number,
  name: string | undefined,
  path: string | undefined,
  exceptId?: number,
): Promise<void> {
  if (name !== undefined && (await stores.projects.taken(namespaceId, "name", name, exceptId))) {
    throw conflict({ reason: "project_name_taken" });
  }
  if (path !== undefined && (await stores.projects.taken(namespaceId, "path", path, exceptId))) {
    throw conflict({ reason: "project_path_taken" });
  }
}

/** A path for a project: the given one, or the name parameterized (which must then be usable). */
export function projectPath(name: string, path: string | undefined): string {
  const chosen = path ?? parameterize(name);
  const problem = pathProblem(chosen);
  if (problem) throw invalid({ path: [problem] });
  return chosen;
}

/** Everything a new project needs besides its settings. */
export interface NewProjectPlan {
  namespace: Namespace;
  name: string;
  path: string;
  visibility: Visibility;
  description: string | null;
  /** Where the project is imported from, in the clear (it may carry credentials): stored sealed. */
  importUrl: string | null;
  flags: Partial<Record<(typeof PROJECT_FEATURE_FLAGS)[number], boolean>>;
  /** The user the project is created for (its owner for personal namespaces). */
  creator: User;
  /** The project it is a fork of, if any. */
  forkOf?: Project;
}

/**
 * Creates the project, in one transaction with its creator's membership (personal projects, as
 * GitLab adds the creator as master), its fork relation and its `created` event. A name or path
 * taken meanwhile is a 409 too.
 */
export async function insertProject(ctx: Context, plan: NewProjectPlan): Promise<Project> {
  const { runtime } = ctx;
  const runnersToken = generateToken();
  const actorId = ctx.actor?.user.id ?? plan.creator.id;
  let owner: number | null = null;
  try {
    const created = await runtime.stores.transaction(async (tx) => {
      await checkNameAndPathFree(tx, plan.namespace.id, plan.name, plan.path);
      const project = await tx.projects.create({
        namespace_id: plan.namespace.id,
        name: plan.name,
        path: plan.path,
        description: plan.description,
        default_branch: null,
        visibility_level: plan.visibility,
        archived: false,
        issues_enabled: plan.flags.issues_enabled ?? true,
        merge_requests_enabled: plan.flags.merge_requests_enabled ?? true,
        builds_enabled: plan.flags.builds_enabled ?? true,
        wiki_enabled: plan.flags.wiki_enabled ?? true,
        snippets_enabled: plan.flags.snippets_enabled ?? true,
        container_registry_enabled: plan.flags.container_registry_enabled ?? true,
        shared_runners_enabled: plan.flags.shared_runners_enabled ?? true,
        lfs_enabled: plan.flags.lfs_enabled ?? true,
        request_access_enabled: plan.flags.request_access_enabled ?? true,
        public_builds: plan.flags.public_builds ?? true,
        only_allow_merge_if_build_succeeds: plan.flags.only_allow_merge_if_build_succeeds ?? false,
        creator_id: plan.creator.id,
        import_url_sealed: plan.importUrl === null ? null : runtime.secrets.seal(plan.importUrl),
        runners_token_digest: tokenDigest(runnersToken),
        runners_token_sealed: runtime.secrets.seal(runnersToken),
      });
      if (plan.namespace.kind === "user")
        await tx.projectMembers.add(project.id, plan.creator.id, AccessLevel.MASTER);
      if (plan.forkOf) await tx.forks.link(project.id, plan.forkOf.id);
      await recordEvent(tx, { projectId: project.id, authorId: actorId, action: EventAction.CREATED });
      owner = await countPersonalProject(tx, plan.namespace, 1);
      const created = projectSystemEvent(
        "project_create",
        project,
        plan.namespace,
        await namespaceOwner(tx, plan.namespace),
      );
      await recordDomainEvent(tx, created);
      return project;
    });
    if (owner !== null) runtime.userChanged(owner);
    await createRepository(runtime, created, plan);
    return created;
  } catch (error) {
    if (error instanceof UniqueViolation) throw conflict({ reason: "project_name_or_path_taken" });
    if (error instanceof ForeignKeyViolation) throw await deletedReference(runtime.stores, plan);
    throw error;
  }
}

/**
 * What to answer a new project whose rows named something deleted since it was read (a foreign
 * key refused them): the answer a request a moment later would get. Its source, for a fork;
 * else its namespace (a group, or the account of the user it was for).
 */
async function deletedReference(stores: Stores, plan: NewProjectPlan): Promise<Error> {
  if (plan.forkOf && !(await stores.projects.findById(plan.forkOf.id))) return notFound("project");
  return plan.forkOf ? notFound("target_namespace") : invalid({ namespace: ["is not valid"] });
}
