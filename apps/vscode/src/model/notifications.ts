import type { LiveEventJson } from "@kiln/schemas";

/** Which notifications the user asked for (settings `kiln.notifications.*`, off by default). */
export interface NotificationSettings {
  buildFailed: boolean;
  mergeRequestAssigned: boolean;
}

/** Who is told, on one instance: to tell which branches are "mine". */
export interface Recipient {
  username: string;
  /** The branch checked out, as `projectId:branch`, if the workspace has one. */
  checkedOut: string | null;
}

/** A message to show, and what its one action opens. */
export interface Notice {
  level: "warning" | "information";
  message: string;
  action: { title: string } & ({ url: string } | { command: string });
}

/** A pipeline of mine: of the branch checked out, or one I pushed. */
const isMine = (event: Extract<LiveEventJson, { kind: "pipeline" }>, recipient: Recipient): boolean =>
  recipient.checkedOut === `${event.project_id}:${event.pipeline.ref}` ||
  event.pipeline.user?.username === recipient.username;

/**
 * What a stream event is worth telling, given the settings: a pipeline of my branch that failed
 * (a warning that opens the Builds view), or a merge request someone assigned me (its "assigned"
 * todo: information that opens it). Null for everything else.
 */
export function noticeOf(
  event: LiveEventJson,
  recipient: Recipient,
  settings: NotificationSettings,
): Notice | null {
  if (settings.buildFailed && event.kind === "pipeline" && event.pipeline.status === "failed") {
    if (!isMine(event, recipient)) return null;
    return {
      level: "warning",
      message: `Kiln: pipeline #${event.pipeline.id} of ${event.pipeline.ref} failed.`,
      action: { title: "Show Builds", command: "kiln.builds.focus" },
    };
  }
  if (settings.mergeRequestAssigned && event.kind === "todo" && event.action === "created") {
    const { todo } = event;
    if (todo.target_type !== "MergeRequest" || todo.action_name !== "assigned") return null;
    return {
      level: "information",
      message: `Kiln: ${todo.author.name} assigned you !${todo.target.iid} ${todo.target.title} (${todo.project.path_with_namespace}).`,
      action: { title: "Open Merge Request", url: todo.target_url },
    };
  }
  return null;
}
