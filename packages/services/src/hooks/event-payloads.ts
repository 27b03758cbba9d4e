import type { MergeRequest } from "@kiln/domain";
import { findTag, runGit } from "@kiln/git";
import type { DomainEvent, IssueEvent, MergeRequestEvent, NoteEvent, PushEvent } from "../domain-events.js";
import type { ServiceRuntime } from "../runtime.js";
import { buildMessage, pipelineMessage } from "./ci-messages.js";
import { issuePayload } from "./payloads/issue.js";
import { type MergeRequestPayloadSource, mergeRequestPayload } from "./payloads/merge-request.js";
import { notePayload } from "./payloads/note.js";
import { type CommitFiles, isTagPush, NO_FILES, pushPayload } from "./payloads/push.js";
import { GHOST, gitDir, type HookMessage, hookCommitAt, hookProject, userOrNull } from "./sources.js";

export type { HookMessage } from "./sources.js";

/** `git diff-tree --name-status` of one commit against its first parent: renamed files count as added. */
async function commitFiles(dir: string, id: string): Promise<CommitFiles> {
  const files: CommitFiles = { added: [], modified: [], removed: [] };
  const { stdout } = await runGit(
    ["diff-tree", "-r", "-z", "--root", "--no-commit-id", "--name-status", "-M", "--end-of-options", id],
    { gitDir: dir },
  );
  const fields = stdout.toString("utf8").split("\0");
  for (let i = 0; i < fields.length - 1; ) {
    const status = fields[i] as string;
    if (status.startsWith("R") || status.startsWith("C")) {
      files.added.push(fields[i + 2] as string);
      i += 3;
      continue;
    }
    const path = fields[i + 1] as string;
    if (status === "A") files.added.push(path);
    else if (status === "D") files.removed.push(path);
    else files.modified.push(path);
    i += 2;
  }
  return files;
}

async function pushMessage(runtime: ServiceRuntime, event: PushEvent): Promise<HookMessage | null> {
  const where = await hookProject(runtime, event.projectId);
  if (!where) return null;
  const pusher = (await userOrNull(runtime, event.userId)) ?? GHOST;
  const dir = gitDir(runtime, event.projectId);
  const files = new Map<string, CommitFiles>();
  let checkoutSha: string | null = event.after;
  let message: string | null = null;
  if (dir !== null) {
    for (const commit of event.commits)
      files.set(commit.id, await commitFiles(dir, commit.id).catch(() => NO_FILES));
    if (isTagPush(event)) {
      const tag = await findTag(dir, event.ref.slice("refs/tags/".length)).catch(() => null);
      const current = tag?.target === event.after ? tag : null;
      checkoutSha = current?.commit?.id ?? null;
      // Without the final newline git stores, as the tags API answers it.
      message = current?.message?.replace(/\r?\n$/, "") ?? null;
    }
  }
  const payload = pushPayload({
    event,
    pusher,
    where,
    baseUrl: runtime.baseUrl,
    checkoutSha,
    message,
    files,
  });
  return isTagPush(event)
    ? { eventName: "Tag Push Hook", flag: "tag_push_events", payload }
    : { eventName: "Push Hook", flag: "push_events", payload };
}

async function issueMessage(runtime: ServiceRuntime, event: IssueEvent): Promise<HookMessage | null> {
  const issue = await runtime.stores.issues.findById(event.issueId);
  // Confidential issues go to GitLab's confidential issue hooks, which v3 cannot subscribe to.
  if (!issue || issue.confidential) return null;
  const where = await hookProject(runtime, issue.project_id);
  if (!where) return null;
  const payload = issuePayload({
    issue,
    action: event.action,
    user: (await userOrNull(runtime, event.userId)) ?? GHOST,
    assignee: await userOrNull(runtime, issue.assignee_id),
    where,
    baseUrl: runtime.baseUrl,
  });
  return { eventName: "Issue Hook", flag: "issues_events", payload };
}

async function mergeRequestAttrsSource(
  runtime: ServiceRuntime,
  mergeRequest: MergeRequest,
): Promise<Omit<MergeRequestPayloadSource, "action" | "user" | "assignee"> | null> {
  const target = await hookProject(runtime, mergeRequest.project_id);
  if (!target) return null;
  const source = await hookProject(runtime, mergeRequest.source_project_id);
  return {
    mergeRequest,
    target,
    source,
    lastCommit: source && (await hookCommitAt(runtime, source, mergeRequest.diff_head_sha)),
    baseUrl: runtime.baseUrl,
  };
}

async function mergeRequestMessage(
  runtime: ServiceRuntime,
  event: MergeRequestEvent,
): Promise<HookMessage | null> {
  const mergeRequest = await runtime.stores.mergeRequests.findById(event.mergeRequestId);
  const attrs = mergeRequest && (await mergeRequestAttrsSource(runtime, mergeRequest));
  if (!mergeRequest || !attrs) return null;
  const payload = mergeRequestPayload({
    ...attrs,
    action: event.action,
    user: (await userOrNull(runtime, event.userId)) ?? GHOST,
    assignee: await userOrNull(runtime, mergeRequest.assignee_id),
  });
  return { eventName: "Merge Request Hook", flag: "merge_requests_events", payload };
}

async function noteMessage(runtime: ServiceRuntime, event: NoteEvent): Promise<HookMessage | null> {
  const note = await runtime.stores.notes.findById(event.noteId);
  if (!note || note.system) return null;
  const where = await hookProject(runtime, note.project_id);
  if (!where) return null;
  let on: Parameters<typeof notePayload>[0]["on"];
  if (note.noteable_type === "Issue") {
    const issue = await runtime.stores.issues.findById(note.noteable_id);
    // Comments on confidential issues stay as confidential as the issue.
    if (!issue || issue.confidential) return null;
    on = { type: "Issue", issue };
  } else {
    const mergeRequest = await runtime.stores.mergeRequests.findById(note.noteable_id);
    const attrs = mergeRequest && (await mergeRequestAttrsSource(runtime, mergeRequest));
    if (!attrs) return null;
    on = { type: "MergeRequest", mergeRequest: attrs };
  }
  const user = (await userOrNull(runtime, note.author_id)) ?? GHOST;
  const payload = notePayload({ note, user, where, on, baseUrl: runtime.baseUrl });
  return { eventName: "Note Hook", flag: "note_events", payload };
}

/**
 * What `event` sends to hooks, built now from what the event names (the issue, merge request or
 * note as it is when its deliveries are queued); null when nothing is sent (its subject is gone,
 * it is confidential, or the event is of a kind hooks do not hear of).
 */
export function hookMessageOf(runtime: ServiceRuntime, event: DomainEvent): Promise<HookMessage | null> {
  switch (event.kind) {
    case "push":
      return pushMessage(runtime, event);
    case "issue":
      return issueMessage(runtime, event);
    case "merge_request":
      return mergeRequestMessage(runtime, event);
    case "note":
      return noteMessage(runtime, event);
    case "system":
      return Promise.resolve({ eventName: "System Hook", flag: null, payload: event.payload });
    case "build":
      return buildMessage(runtime, event);
    case "pipeline":
      return pipelineMessage(runtime, event);
    default:
      return Promise.resolve(null);
  }
}
