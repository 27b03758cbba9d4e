import {
  AccessLevel,
  branchOfRef,
  type PushRefusal,
  type PushRights,
  pushRefusal,
  type RefChange,
} from "@kiln/domain";
import type { Stores } from "@kiln/storage-kysely";
import type { ProjectAccess } from "../projects/access.js";

/** A ref change refused, and why. */
export interface RefRefusal {
  ref: string;
  reason: PushRefusal;
}

/** What the caller may push to the project, for the domain's push rules. */
export function pushRightsOf(access: ProjectAccess): PushRights {
  return {
    level: access.subject.isAdmin ? AccessLevel.OWNER : access.subject.accessLevel,
    pushCode: access.allows("push_code"),
    defaultBranch: access.project.default_branch,
  };
}

/**
 * The changes of `changes` the caller may not make, by GitLab 8.x's push rules (protected
 * branches, the default branch, existing tags). Empty when all are allowed. The same rules hold
 * for `git push` and for the API's commits, branches and tags.
 */
export async function refusedChanges(
  stores: Stores,
  access: ProjectAccess,
  changes: readonly RefChange[],
): Promise<RefRefusal[]> {
  const rights = pushRightsOf(access);
  const protections = await stores.protectedBranches.forProject(access.project.id);
  const refusals: RefRefusal[] = [];
  for (const change of changes) {
    const branch = branchOfRef(change.ref);
    const reason = pushRefusal(change, branch === null ? undefined : protections.get(branch), rights);
    if (reason !== null) refusals.push({ ref: change.ref, reason });
  }
  return refusals;
}
