import { type HookDelivery, notFound, type User, ZERO_SHA } from "@kiln/domain";
import { getCommit } from "@kiln/git";
import type { PushEvent } from "../domain-events.js";
import type { ServiceRuntime } from "../runtime.js";
import { hookMessageOf } from "./event-payloads.js";
import { type DeliveryTarget, queueDeliveries } from "./subscriber.js";

/**
 * The push GitLab's "Test hook" sends: the last commit of the project's default branch, pushed by
 * `user`. `404 Commit Not Found` when the project has none.
 */
async function samplePush(runtime: ServiceRuntime, projectId: number, branch: string | null, user: User) {
  const dir = runtime.repositories?.path(projectId);
  const commit = branch && dir ? await getCommit(dir, `refs/heads/${branch}`).catch(() => null) : null;
  if (!commit || !branch) throw notFound("commit");
  const project = await runtime.stores.projects.findById(projectId);
  const namespace = project && (await runtime.stores.namespaces.findById(project.namespace_id));
  const webUrl = `${runtime.baseUrl}/${namespace?.path}/${project?.path}`;
  const event: PushEvent = {
    kind: "push",
    projectId,
    userId: user.id,
    ref: `refs/heads/${branch}`,
    before: commit.parent_ids[0] ?? ZERO_SHA,
    after: commit.id,
    commits: [
      {
        id: commit.id,
        message: commit.message,
        timestamp: commit.authored_date,
        url: `${webUrl}/commit/${commit.id}`,
        author: { name: commit.author_name, email: commit.author_email },
      },
    ],
    totalCommits: 1,
  };
  return event;
}

/** Queues a test push of the default branch's last commit to one project hook; answers the delivery. */
export async function queueTestPush(
  runtime: ServiceRuntime,
  target: DeliveryTarget & { projectId: number },
  defaultBranch: string | null,
  user: User,
): Promise<HookDelivery> {
  const event = await samplePush(runtime, target.projectId, defaultBranch, user);
  const message = await hookMessageOf(runtime, event);
  if (!message) throw notFound("project");
  const [uuid] = await queueDeliveries(runtime, null, [target], message);
  return (await runtime.stores.deliveries.findByUuid(uuid as string)) as HookDelivery;
}
