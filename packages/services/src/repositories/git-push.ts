import type { AuthorizePush, PushRefusal, RefUpdate } from "@kiln/git";
import { accessTo } from "../projects/access.js";
import type { ServiceRuntime } from "../runtime.js";
import { afterPush } from "./after-push.js";
import { type GitGrant, type GitRefusal, gitContext } from "./git-access.js";
import { refusedChanges } from "./push-rules.js";

/**
 * The per-ref decision of a push, run by git's pre-receive step while the push is in flight (so
 * the refusal reaches the pusher's terminal and no ref moves). The user's rights and the project
 * are read again at that moment rather than trusted from the start of the request: the default
 * branch or the protections may have changed since (a concurrent first push, say). GitLab 8.x's
 * push rules decide each ref (see {@link refusedChanges}); one refusal rejects the whole push.
 * `word` gives the text the pusher sees for each refusal (the transport's wording, not ours).
 */
export function gitPushAuthorizer(
  runtime: ServiceRuntime,
  grant: GitGrant,
  word: (refusal: GitRefusal) => string,
): AuthorizePush {
  return async (updates): Promise<PushRefusal[]> => {
    const project = await runtime.stores.projects.findById(grant.access.project.id);
    if (!project || !grant.identity) return [{ message: word("project_not_found") }];
    if (project.archived) return [{ message: word("archived_project") }];
    const access = await accessTo(gitContext(runtime, grant.identity), project);
    const changes = updates.map(({ ref, kind, forced }) => ({ ref, kind, forced }));
    const refusals = await refusedChanges(runtime.stores, access, changes);
    return refusals.map(({ ref, reason }) => ({ ref, message: word(reason) }));
  };
}

/**
 * What follows a push once receive-pack exited: the updates git applied go through
 * {@link afterPush} ("pushed to" events, the first branch of an empty project made default and
 * protected, push domain events). Nothing happens for a push that changed nothing. Reads the
 * project again, so a default branch set meanwhile is not claimed twice.
 */
export async function recordGitPush(
  runtime: ServiceRuntime,
  grant: GitGrant,
  applied: readonly RefUpdate[],
): Promise<void> {
  if (!grant.identity || applied.length === 0) return;
  const project = await runtime.stores.projects.findById(grant.access.project.id);
  if (!project) return;
  const namespace =
    (await runtime.stores.namespaces.findById(project.namespace_id)) ?? grant.access.namespace;
  const moves = applied.map((update) => ({ ref: update.ref, before: update.oldSha, after: update.newSha }));
  await afterPush(runtime, { project, namespace }, grant.identity.user, moves);
}
