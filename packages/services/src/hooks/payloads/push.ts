import { isZeroSha, type PushCommit, type User } from "@kiln/domain";
import type { PushEvent } from "../../domain-events.js";
import { fullRepository, type HookProject, projectHookAttrs } from "./common.js";

/** The paths a commit added, modified and removed (renamed files count as added). */
export interface CommitFiles {
  added: string[];
  modified: string[];
  removed: string[];
}

/** What a push payload is built from besides the event. */
export interface PushPayloadSource {
  event: PushEvent;
  pusher: Pick<User, "id" | "name" | "email">;
  where: HookProject;
  baseUrl: string;
  /** The commit the ref now names (a tag's target commit); null when the ref was deleted. */
  checkoutSha: string | null;
  /** An annotated tag's message; null otherwise. */
  message: string | null;
  /** Each listed commit's files, by commit id. */
  files: ReadonlyMap<string, CommitFiles>;
}

/** True for a push of a tag (`Tag Push Hook`), false for a branch's (`Push Hook`). */
export const isTagPush = (event: PushEvent): boolean => event.ref.startsWith("refs/tags/");

/** A commit whose files could not be listed. */
export const NO_FILES: Readonly<CommitFiles> = Object.freeze({ added: [], modified: [], removed: [] });

/** A commit of the payload (`id, message, timestamp, url, author`, then its files). */
function hookCommit(commit: PushCommit, files: ReadonlyMap<string, CommitFiles>) {
  const { added, modified, removed } = files.get(commit.id) ?? NO_FILES;
  return { ...commit, added, modified, removed };
}

/**
 * The push and tag push payload of GitLab 8.x (`Gitlab::DataBuilder::Push`), keys in its order:
 * at most 20 commits, the latest, oldest first; `total_commits_count` counts them all.
 */
export function pushPayload(source: PushPayloadSource) {
  const { event, pusher, where, baseUrl } = source;
  const kind = isTagPush(event) ? "tag_push" : "push";
  return {
    object_kind: kind,
    event_name: kind,
    before: event.before,
    after: event.after,
    ref: event.ref,
    checkout_sha: isZeroSha(event.after) ? null : source.checkoutSha,
    message: source.message,
    user_id: pusher.id,
    user_name: pusher.name,
    user_email: pusher.email,
    user_avatar: null,
    project_id: where.project.id,
    project: projectHookAttrs(where, baseUrl),
    commits: event.commits.map((commit) => hookCommit(commit, source.files)),
    total_commits_count: event.totalCommits,
    repository: fullRepository(where, baseUrl),
  };
}
