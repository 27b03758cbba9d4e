import type { HookFlag, User } from "@kiln/domain";
import { getCommit } from "@kiln/git";
import type { ServiceRuntime } from "../runtime.js";
import { type HookProject, projectUrls } from "./payloads/common.js";
import type { HookCommit } from "./payloads/merge-request.js";

/** What one event sends: its `X-Gitlab-Event`, the project hooks' flag that subscribes to it, and the body. */
export interface HookMessage {
  eventName: string;
  /** The project hooks' flag (null: system events, for system hooks only). */
  flag: HookFlag | null;
  payload: unknown;
}

/** The project's repository on disk, or null where repositories are not kept. */
export const gitDir = (runtime: ServiceRuntime, projectId: number): string | null =>
  runtime.repositories?.path(projectId) ?? null;

/** The project with its namespace, or null once either is gone. */
export async function hookProject(
  runtime: ServiceRuntime,
  projectId: number | null,
): Promise<HookProject | null> {
  if (projectId === null) return null;
  const project = await runtime.stores.projects.findById(projectId);
  const namespace = project && (await runtime.stores.namespaces.findById(project.namespace_id));
  return project && namespace ? { project, namespace } : null;
}

/** The user, or null for none or one deleted since. */
export async function userOrNull(runtime: ServiceRuntime, id: number | null): Promise<User | null> {
  return id === null ? null : ((await runtime.stores.users.findById(id)) ?? null);
}

/** The user deleted since, as GitLab shows a removed account. */
export const GHOST = { id: 0, name: "Ghost User", username: "ghost", email: "" };

/** A commit of the project as hooks describe commits (8.x's `Commit#hook_attrs`); null when the repository lacks it. */
export async function hookCommitAt(
  runtime: ServiceRuntime,
  where: HookProject,
  sha: string | null,
): Promise<HookCommit | null> {
  const dir = gitDir(runtime, where.project.id);
  if (!dir || sha === null) return null;
  const commit = await getCommit(dir, sha).catch(() => null);
  if (!commit) return null;
  return {
    id: commit.id,
    message: commit.message,
    timestamp: commit.authored_date,
    url: `${projectUrls(where, runtime.baseUrl).web_url}/commit/${commit.id}`,
    author: { name: commit.author_name, email: commit.author_email },
  };
}
