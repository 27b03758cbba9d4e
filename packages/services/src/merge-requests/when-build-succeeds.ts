import { DomainError, type MergeRequest, TodoAction, type User } from "@kiln/domain";
import { actorOf } from "../auth/credentials.js";
import type { PipelineEvent } from "../domain-events.js";
import { findMergeRequest, type MergeRequestAccess } from "../issuables/access.js";
import { buildFailedTodo } from "../issuables/todos.js";
import type { SignedInContext } from "../operation.js";
import type { OutboxSubscriber } from "../outbox/dispatcher.js";
import { repositoryOf } from "../repositories/access.js";
import type { ServiceRuntime } from "../runtime.js";
import { finishTodos } from "../todos/changes.js";
import { acceptMergeRequest } from "./accept.js";
import { headOfBranch } from "./git.js";
import { headPipeline } from "./head-pipeline.js";

/** A context acting as `user`, for what the CI does in their name (a merge they asked for). */
const contextOf = (runtime: ServiceRuntime, user: User): SignedInContext => ({
  runtime,
  actor: actorOf({ user, method: "private_token" }),
  system: false,
});

/** The user of `id` while their account is active: blocked and deleted users no longer act. */
async function activeUser(runtime: ServiceRuntime, id: number | null): Promise<User | null> {
  const user = id === null ? undefined : await runtime.stores.users.findById(id);
  return user?.state === "active" ? user : null;
}

/**
 * Merges a merge request set to merge when its build succeeds, as the user who set it, with the
 * options they gave, through the accept itself (their right to merge checked again, `sha` the
 * commit built). A merge request that cannot be merged now (conflicts, closed, the branch moved,
 * the user no longer allowed) stays as it is.
 */
async function mergeAfterBuild(runtime: ServiceRuntime, mr: MergeRequest, sha: string): Promise<void> {
  const merger = await activeUser(runtime, mr.merge_user_id);
  if (!merger) return;
  const params = await runtime.stores.mergeRequests.mergeParams(mr.id);
  try {
    await acceptMergeRequest(contextOf(runtime, merger), {
      id: mr.project_id,
      merge_request_id: mr.id,
      sha,
      ...(params.commit_message !== undefined ? { merge_commit_message: params.commit_message } : {}),
      ...(params.should_remove_source_branch !== undefined
        ? { should_remove_source_branch: params.should_remove_source_branch }
        : {}),
    });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
  }
}

/**
 * 8.x's TodoService#merge_request_build_failed: the author of the merge request gets a
 * `build_failed` todo on it (none when they have a pending todo there already, or may no longer
 * read it).
 */
async function todoForFailure(runtime: ServiceRuntime, mr: MergeRequest): Promise<void> {
  const author = await activeUser(runtime, mr.author_id);
  if (!author) return;
  let access: MergeRequestAccess;
  try {
    access = await findMergeRequest(contextOf(runtime, author), mr.project_id, mr.id);
  } catch (error) {
    if (error instanceof DomainError) return;
    throw error;
  }
  await runtime.stores.transaction((tx) =>
    buildFailedTodo(tx, { access, type: "MergeRequest", target: access.mergeRequest }, author),
  );
}

/**
 * What a finished pipeline means for the open merge requests whose source head it built (8.x's
 * `pipeline.merge_requests`: same source project and branch, the head being its commit, and it
 * the newest pipeline of that commit there): on success those set to merge when the build
 * succeeds are merged, and the `build_failed` todos on them are done; on failure their authors
 * get a `build_failed` todo (the merge stays set, for a pipeline that succeeds later).
 */
async function onPipeline(runtime: ServiceRuntime, event: PipelineEvent): Promise<void> {
  if (event.status !== "success" && event.status !== "failed") return;
  const { stores } = runtime;
  const pipeline = await stores.ciPipelines.find(event.pipelineId);
  // A pipeline retried since the event is judged by its next end, not this one.
  if (!pipeline || pipeline.tag || pipeline.status !== event.status) return;
  const mrs = await stores.mergeRequests.openFromBranch(pipeline.project_id, pipeline.ref);
  if (mrs.length === 0) return;
  const head = await headOfBranch(await repositoryOf(runtime, { id: pipeline.project_id }), pipeline.ref);
  if (head !== pipeline.sha) return;
  for (const mr of mrs) {
    if ((await headPipeline(runtime, mr, head))?.id !== pipeline.id) continue;
    if (pipeline.status === "failed") {
      await todoForFailure(runtime, mr);
      continue;
    }
    await finishTodos(stores, { type: "MergeRequest", id: mr.id }, { action: TodoAction.BUILD_FAILED });
    if (mr.merge_when_build_succeeds) await mergeAfterBuild(runtime, mr, head);
  }
}

/**
 * Merge when the build succeeds, and `build_failed` todos, as a durable subscriber of the
 * outbox's pipeline events: a pipeline that succeeded merges its merge requests even if the
 * server stopped right after it.
 */
export function mergeWhenBuildSucceeds(runtime: ServiceRuntime): OutboxSubscriber {
  return {
    name: "merge_when_build_succeeds",
    kinds: ["pipeline"],
    handle: async (event) => {
      if (event.kind === "pipeline") await onPipeline(runtime, event);
    },
  };
}
