import { mapPage, type Page, type PageRequest, type ProjectEvent, type User } from "@kiln/domain";
import type { EventFilter } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { confidentialFilterFor } from "../issuables/access.js";
import { eventNotes, type NoteView } from "../notes/views.js";
import type { ProjectAccess } from "./access.js";

/** An entry of the feed with what it shows: its author and, for a comment, the note. */
export interface EventView {
  event: ProjectEvent;
  author: User | null;
  note: NoteView | null;
}

/**
 * Which events of the project the caller sees: each passes the rule of reading what it is about
 * (GitLab's `Event#visible_to_user?`). Pushes need `download_code`; issues, and notes on them,
 * the confidential issue rule; merge requests, and notes on them, `read_merge_request` or being
 * their author or assignee. Milestones, the project's creation and memberships are for everyone
 * who reads the project.
 */
export function eventFilterFor(access: ProjectAccess, user: User): EventFilter {
  return {
    withoutPushes: !access.allows("download_code"),
    confidential: confidentialFilterFor(access, user),
    mergeRequestsOf: access.allows("read_merge_request") ? undefined : { userId: user.id },
  };
}

/** One page of the project's events the caller sees, newest first, with their authors and notes. */
export async function projectFeed(
  ctx: Context,
  access: ProjectAccess,
  user: User,
  page: PageRequest,
): Promise<Page<EventView>> {
  const { stores } = ctx.runtime;
  const events = await stores.events.listForProject(access.project.id, page, eventFilterFor(access, user));
  const authors = await stores.users.findByIds(events.items.flatMap((event) => event.author_id ?? []));
  const notes = await eventNotes(stores, events.items);
  return mapPage(events, (event) => ({
    event,
    author: event.author_id === null ? null : (authors.get(event.author_id) ?? null),
    note: notes.get(event.id) ?? null,
  }));
}
