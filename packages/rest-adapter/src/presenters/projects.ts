import { eventActionName, type ProjectEvent, type User } from "@kiln/domain";
import type { EventJson, MemberJson } from "@kiln/schemas";
import { type Member, type NoteView, presentUserBasic } from "@kiln/services";
import type { PresentContext } from "../route.js";
import { presentNote } from "./notes.js";

// The project shapes are the services' (shared with tRPC); members and events are v3's alone.
export { presentBasicProject, presentNamespace, presentProject } from "@kiln/services";

/** A project member (team member); group members leave out the email. */
export function presentMember(
  { user, membership }: Member,
  context: PresentContext,
  withEmail = true,
): MemberJson {
  const json: MemberJson = {
    ...presentUserBasic(user, context),
    created_at: user.created_at,
    access_level: membership.access_level,
  };
  if (withEmail) json.email = user.email;
  return json;
}

/** An entry of a project's activity feed. */
export function presentEvent(
  { event, author, note }: { event: ProjectEvent; author: User | null; note?: NoteView | null },
  context: PresentContext,
): EventJson {
  return {
    title: null,
    project_id: event.project_id,
    action_name: eventActionName(event),
    target_id: event.target_id,
    target_type: event.target_type,
    author_id: event.author_id,
    data: event.data ?? null,
    target_title: event.target_title,
    created_at: event.created_at,
    // Comment events show their note here, between created_at and author (GitLab's order).
    ...(note ? { note: presentNote(note, context) } : {}),
    author: author && presentUserBasic(author, context),
    author_username: author?.username ?? null,
  };
}
