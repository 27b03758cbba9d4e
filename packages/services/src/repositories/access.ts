import { notFound, type Project, type ProjectAbility } from "@kiln/domain";
import { GitError, type RepositoryStore } from "@kiln/git";
import type { Context } from "../context.js";
import { type ProjectAccess, requireProject } from "../projects/access.js";
import type { ServiceRuntime } from "../runtime.js";

/** A project the caller may read, with the path of its bare repository. */
export interface RepositoryAccess extends ProjectAccess {
  gitDir: string;
}

/** The runtime's repositories; a runtime without a data dir hosts none, which is a setup error. */
export function repositoryStore(runtime: ServiceRuntime): RepositoryStore {
  if (!runtime.repositories) throw new Error("this runtime hosts no repositories: it was given no data dir");
  return runtime.repositories;
}

/**
 * Whether project `id` still exists, once its repository was made. A deletion removes the row,
 * then the files: one whose row went before the repository was made found nothing to remove, so
 * the repository is removed here, or it would outlive its project.
 */
export async function keptForProject(
  runtime: ServiceRuntime,
  store: RepositoryStore,
  id: number,
): Promise<boolean> {
  if (await runtime.stores.projects.findById(id)) return true;
  await store.remove(id);
  return false;
}

/**
 * The path of the project's repository. A project created before Kiln hosted git (or whose
 * repository creation was interrupted) gets its empty repository now, so every project has one;
 * one deleted since it was read is `404 Project Not Found`, and gets none.
 */
export async function repositoryOf(runtime: ServiceRuntime, project: Pick<Project, "id">): Promise<string> {
  const store = repositoryStore(runtime);
  if (await store.exists(project.id)) return store.path(project.id);
  try {
    await store.create(project.id);
  } catch (error) {
    if (!GitError.is(error, "exists")) throw error;
  }
  if (!(await keptForProject(runtime, store, project.id))) throw notFound("project");
  return store.path(project.id);
}

/**
 * The project named by `ref` and its repository, when the caller may read the project (else 404)
 * and has `ability` on it (else 403): `download_code` for reads, `push_code` for writes.
 */
export async function requireRepository(
  ctx: Context,
  ref: number | string,
  ability: ProjectAbility = "download_code",
): Promise<RepositoryAccess> {
  const access = await requireProject(ctx, ref, ability);
  return { ...access, gitDir: await repositoryOf(ctx.runtime, access.project) };
}
