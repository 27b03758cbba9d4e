import type { Namespace } from "@kiln/domain";
import type { Stores } from "@kiln/storage-kysely";

/**
 * Counts a project into (+1) or out of (-1) its personal namespace's owner's project count, which
 * the user row carries so that `can_create_project` needs no query per request. Call it inside the
 * transaction that adds, removes or moves the project; it returns the owner, whose cached identity
 * the caller must then drop with `runtime.userChanged`, or null for a group namespace.
 */
export async function countPersonalProject(
  stores: Stores,
  namespace: Namespace,
  delta: 1 | -1,
): Promise<number | null> {
  if (namespace.kind !== "user" || namespace.owner_id === null) return null;
  await stores.users.addPersonalProjects(namespace.owner_id, delta);
  return namespace.owner_id;
}
