import { type Namespace, notFound, type Project } from "@kiln/domain";
import { GitError, type RepositoryStore } from "@kiln/git";
import { keptForProject } from "../repositories/access.js";
import type { ServiceRuntime } from "../runtime.js";
import type { NewProjectPlan } from "./create.js";
import { countPersonalProject } from "./owner-count.js";

/**
 * Copies the source's repository into the fork's. A source without one (made before Kiln hosted
 * git) gives an empty repository, as its own first read would; a source deleted meanwhile, its
 * repository gone before or while it was copied, is `404 Project Not Found`.
 */
async function forkRepository(
  runtime: ServiceRuntime,
  store: RepositoryStore,
  source: number,
  fork: number,
): Promise<void> {
  try {
    if (await store.exists(source)) {
      await store.fork(source, fork);
      return;
    }
  } catch (error) {
    if (!GitError.is(error, "not_found")) throw error;
  }
  // A deletion removes the row before the files: a project still there whose repository is
  // missing never had one.
  if (!(await runtime.stores.projects.findById(source))) throw notFound("project");
  await store.create(fork);
}

/** Deletes a new project whose repository could not be made (unless a deletion took it first). */
async function dropProject(runtime: ServiceRuntime, id: number, namespace: Namespace): Promise<void> {
  const owner = await runtime.stores.transaction(async (tx) =>
    (await tx.projects.delete(id)) ? countPersonalProject(tx, namespace, -1) : null,
  );
  if (owner !== null) runtime.userChanged(owner);
}

/**
 * Makes a new project's repository: empty, or a copy of the source's for a fork. Without it the
 * project cannot stand, so a failure removes the project again. A project deleted before its
 * repository was made (with its group, say) was created, then deleted: its repository goes too.
 */
export async function createRepository(
  runtime: ServiceRuntime,
  project: Project,
  plan: NewProjectPlan,
): Promise<void> {
  const store = runtime.repositories;
  if (!store) return;
  try {
    if (plan.forkOf) await forkRepository(runtime, store, plan.forkOf.id, project.id);
    else await store.create(project.id);
  } catch (error) {
    await dropProject(runtime, project.id, plan.namespace);
    throw error;
  }
  await keptForProject(runtime, store, project.id);
}
