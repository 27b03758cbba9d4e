import { branchOfRef, isZeroSha } from "@kiln/domain";
import type { PushEvent } from "../domain-events.js";
import type { OutboxSubscriber } from "../outbox/dispatcher.js";
import type { ServiceRuntime } from "../runtime.js";
import { createPipeline } from "./create.js";

const TAG_PREFIX = "refs/tags/";

/** The short name of a pushed ref and whether it is a tag; null for refs that are neither. */
function refOf(fullRef: string): { ref: string; tag: boolean } | null {
  if (fullRef.startsWith(TAG_PREFIX)) return { ref: fullRef.slice(TAG_PREFIX.length), tag: true };
  const branch = branchOfRef(fullRef);
  return branch === null ? null : { ref: branch, tag: false };
}

/**
 * Makes the pipeline of a push (a branch or tag created or moved, never deleted) whose commit has
 * a `.gitlab-ci.yml`. Called at least once per event: a pipeline already made for this very move
 * (same ref, old and new commit) is not made again.
 */
async function onPush(runtime: ServiceRuntime, event: PushEvent): Promise<void> {
  if (isZeroSha(event.after)) return;
  const ref = refOf(event.ref);
  if (!ref) return;
  const project = await runtime.stores.projects.findById(event.projectId);
  if (!project?.builds_enabled) return;
  const before = isZeroSha(event.before) ? null : event.before;
  const made = await runtime.stores.ciPipelines.forSha(project.id, event.after);
  if (made.some((p) => p.source === "push" && p.ref === ref.ref && p.before_sha === before)) return;
  await createPipeline(runtime, {
    project,
    ...ref,
    sha: event.after,
    beforeSha: before,
    userId: event.userId,
    source: "push",
  });
}

/**
 * Creates pipelines from pushes (git, the files API, branches and tags made through the API),
 * as a durable subscriber of the outbox: a push committed is built even if the server stopped
 * right after it.
 */
export function ciPipelines(runtime: ServiceRuntime): OutboxSubscriber {
  return {
    name: "ci_pipelines",
    kinds: ["push"],
    handle: async (event) => {
      if (event.kind === "push") await onPush(runtime, event);
    },
  };
}
