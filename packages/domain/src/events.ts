import { isZeroSha } from "./push.js";

/** Kinds of activity in a project's event feed, numbered as GitLab stores them. */
export const EventAction = {
  CREATED: 1,
  UPDATED: 2,
  CLOSED: 3,
  REOPENED: 4,
  PUSHED: 5,
  COMMENTED: 6,
  MERGED: 7,
  JOINED: 8,
  LEFT: 9,
  DESTROYED: 10,
  EXPIRED: 11,
} as const;

/** One of the event action numbers. */
export type EventAction = (typeof EventAction)[keyof typeof EventAction];

/** An entry of a project's activity feed. */
export interface ProjectEvent {
  id: number;
  project_id: number | null;
  author_id: number | null;
  action: EventAction;
  /** `Issue`, `MergeRequest`, `Milestone`, `Note`, or null (project and push events). */
  target_type: string | null;
  target_id: number | null;
  target_title: string | null;
  /** The push payload for push events, else null. */
  data: unknown;
  created_at: string;
}

/** What GitLab 8.x calls an event in its feed (`action_name`). */
export function eventActionName(event: Pick<ProjectEvent, "action" | "target_type" | "data">): string {
  switch (event.action) {
    case EventAction.CREATED:
      return event.target_type ? "opened" : "created";
    case EventAction.UPDATED:
      return "updated";
    case EventAction.CLOSED:
      return "closed";
    case EventAction.REOPENED:
      return "opened";
    case EventAction.PUSHED:
      return pushActionName(event.data);
    case EventAction.COMMENTED:
      return "commented on";
    case EventAction.MERGED:
      return "accepted";
    case EventAction.JOINED:
      return "joined";
    case EventAction.LEFT:
      return "left";
    case EventAction.DESTROYED:
      return "destroyed";
    case EventAction.EXPIRED:
      return "removed due to membership expiration from";
  }
}

function pushActionName(data: unknown): string {
  const push = data as { before?: string; after?: string } | null;
  if (push?.before && isZeroSha(push.before)) return "pushed new";
  if (push?.after && isZeroSha(push.after)) return "deleted";
  return "pushed to";
}
