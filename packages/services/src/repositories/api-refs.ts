import { badRequest } from "@kiln/domain";
import type { Stores } from "@kiln/storage-kysely";
import type { RepositoryAccess } from "./access.js";
import { refusedChanges } from "./push-rules.js";

/**
 * Refuses (400, for the reason a `git push` would be refused) a branch or tag the caller creates or
 * removes through the API when the push rules would refuse the same change pushed: the API is
 * no way around protected branches or existing tags.
 */
export async function checkPushRules(
  stores: Stores,
  access: RepositoryAccess,
  ref: string,
  kind: "create" | "delete",
): Promise<void> {
  const [refusal] = await refusedChanges(stores, access, [{ ref, kind, forced: false }]);
  if (refusal) throw badRequest({ reason: "push_refused", refusal: refusal.reason });
}

/**
 * True unless a new branch or tag name would read as a full ref name (`refs/heads/x`,
 * `refs/remotes/x`), which GitLab's `GitRefValidator` refuses on top of git's own rules: such a
 * name makes every later lookup of `x` ambiguous.
 */
export function isUnambiguousRefName(name: string): boolean {
  return !name.startsWith("refs/heads/") && !name.startsWith("refs/remotes/");
}
