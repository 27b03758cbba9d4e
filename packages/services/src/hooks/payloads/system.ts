import {
  type AccessLevel,
  type Namespace,
  type Project,
  pathWithNamespace,
  type SshKey,
  type User,
  visibilityName,
} from "@kiln/domain";
import type { Stores } from "@kiln/storage-kysely";
import type { SystemEvent, SystemEventName } from "../../domain-events.js";

/** GitLab's human name of an access level, as system hooks spell it. */
const ACCESS_NAMES: Readonly<Record<number, string>> = {
  10: "Guest",
  20: "Reporter",
  30: "Developer",
  40: "Master",
  50: "Owner",
};

type Timestamped = Pick<User, "created_at" | "updated_at">;

/** `event_name`, `created_at`, `updated_at`: the head of every system hook payload (`SystemHooksService`). */
function head(name: SystemEventName, model: Timestamped) {
  return { event_name: name, created_at: model.created_at, updated_at: model.updated_at };
}

const event = (projectId: number, payload: SystemEvent["payload"]): SystemEvent => ({
  kind: "system",
  projectId,
  payload,
});

/** Who a project belongs to, as 8.x names it: the user of a personal namespace, else the group (no email). */
export interface ProjectOwner {
  name: string;
  email: string;
}

/** The owner of a project in `namespace`, `owner` being the namespace's user for a personal one. */
export function projectOwner(namespace: Namespace, owner: Pick<User, "name" | "email"> | null): ProjectOwner {
  if (namespace.kind === "group" || owner === null) return { name: namespace.name, email: "" };
  return { name: owner.name, email: owner.email };
}

/** The owner of the projects of `namespace`, read in `tx`. */
export async function namespaceOwner(tx: Stores, namespace: Namespace): Promise<ProjectOwner> {
  const user = namespace.owner_id === null ? undefined : await tx.users.findById(namespace.owner_id);
  return projectOwner(namespace, user ?? null);
}

/** `project_create`, `project_destroy`, `project_rename`, `project_transfer` (the last two with the old path). */
export function projectSystemEvent(
  name: "project_create" | "project_destroy" | "project_rename" | "project_transfer",
  project: Project,
  namespace: Namespace,
  owner: ProjectOwner,
  oldPathWithNamespace?: string,
): SystemEvent {
  return event(project.id, {
    ...head(name, project),
    name: project.name,
    path: project.path,
    path_with_namespace: pathWithNamespace(namespace, project),
    project_id: project.id,
    owner_name: owner.name,
    owner_email: owner.email,
    project_visibility: visibilityName(project.visibility_level),
    ...(oldPathWithNamespace !== undefined && { old_path_with_namespace: oldPathWithNamespace }),
  });
}

/** `user_create`, `user_destroy`. */
export function userSystemEvent(name: "user_create" | "user_destroy", user: User): SystemEvent {
  return event(0, {
    ...head(name, user),
    name: user.name,
    email: user.email,
    user_id: user.id,
    username: user.username,
  });
}

/** `key_create`, `key_destroy`. */
export function keySystemEvent(name: "key_create" | "key_destroy", key: SshKey, owner: User): SystemEvent {
  return event(0, {
    ...head(name, { created_at: key.created_at, updated_at: key.created_at }),
    username: owner.username,
    key: key.key,
    id: key.id,
  });
}

/** `group_create`, `group_destroy`, with the group's owner when known. */
export function groupSystemEvent(
  name: "group_create" | "group_destroy",
  group: Namespace,
  owner: Pick<User, "name" | "email"> | null,
): SystemEvent {
  return event(0, {
    ...head(name, group),
    name: group.name,
    path: group.path,
    group_id: group.id,
    owner_name: owner?.name ?? null,
    owner_email: owner?.email ?? null,
  });
}

/** `user_add_to_team`, `user_remove_from_team`: a project membership. */
export function teamSystemEvent(
  name: "user_add_to_team" | "user_remove_from_team",
  project: Project,
  namespace: Namespace,
  user: User,
  accessLevel: AccessLevel,
  at: Timestamped,
): SystemEvent {
  return event(project.id, {
    ...head(name, at),
    project_name: project.name,
    project_path: project.path,
    project_path_with_namespace: pathWithNamespace(namespace, project),
    project_id: project.id,
    user_username: user.username,
    user_name: user.name,
    user_email: user.email,
    user_id: user.id,
    access_level: ACCESS_NAMES[accessLevel] ?? String(accessLevel),
    project_visibility: visibilityName(project.visibility_level),
  });
}

/** `user_add_to_group`, `user_remove_from_group`: a group membership. */
export function groupMemberSystemEvent(
  name: "user_add_to_group" | "user_remove_from_group",
  group: Namespace,
  user: User,
  accessLevel: AccessLevel,
  at: Timestamped,
): SystemEvent {
  return event(0, {
    ...head(name, at),
    group_name: group.name,
    group_path: group.path,
    group_id: group.id,
    user_username: user.username,
    user_name: user.name,
    user_email: user.email,
    user_id: user.id,
    group_access: ACCESS_NAMES[accessLevel] ?? String(accessLevel),
  });
}
