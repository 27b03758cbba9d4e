import { ciPipelines } from "../ci/push.js";
import type { PushEvent } from "../domain-events.js";
import type { OnDisk } from "./disk.js";

/** Commits `.gitlab-ci.yml` to master through the API and runs the CI subscriber on the push. */
export async function pushCiFile(
  disk: OnDisk & { owner: { id: number } },
  projectId: number,
  content: string,
  message = "ci",
) {
  const owner = await disk.runtime.stores.users.findById(disk.owner.id);
  if (!owner) throw new Error("no owner");
  const seen = disk.events.length;
  const exists = await disk.runtime.stores.ciPipelines.list(projectId, null, { page: 1, perPage: 1 });
  const write =
    exists.items.length === 0 && seen === 0
      ? disk.as(owner).repositoryFiles.create
      : disk.as(owner).repositoryFiles.update;
  await write({
    id: projectId,
    file_path: ".gitlab-ci.yml",
    branch_name: "master",
    commit_message: message,
    content,
  });
  const push = disk.events.slice(seen).find((event): event is PushEvent => event.kind === "push");
  if (!push) throw new Error("no push event");
  await ciPipelines(disk.runtime).handle(push, 0); // ci_pipelines reads no outbox id
  return push;
}
