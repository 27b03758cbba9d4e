import type { Namespace } from "@kiln/domain";
import type { Stores } from "@kiln/storage-kysely";
import { recordDomainEvent } from "../domain-events.js";
import { namespaceOwner, projectSystemEvent } from "../hooks/payloads/system.js";

/**
 * In the transaction that deletes `namespace` (a user's or a group's) and its projects with it:
 * records each project's `project_destroy`, as 8.x destroys every project before its owner, and
 * answers their ids (whose files go once the transaction committed).
 */
export async function destroyNamespaceProjects(tx: Stores, namespace: Namespace): Promise<number[]> {
  const ids = await tx.projects.idsInNamespace(namespace.id);
  const owner = ids.length > 0 ? await namespaceOwner(tx, namespace) : null;
  for (const id of ids) {
    const project = await tx.projects.findById(id);
    if (project && owner)
      await recordDomainEvent(tx, projectSystemEvent("project_destroy", project, namespace, owner));
  }
  return ids;
}
