import { z } from "zod";
import { NoteJson } from "./notes.js";
import { Id, Timestamp } from "./primitives.js";
import { UserBasic } from "./users.js";

/** A namespace as embedded in a project. Group namespaces add `avatar`, `share_with_group_lock`, `visibility_level`. */
export const NamespaceJson = z.object({
  id: Id,
  name: z.string(),
  path: z.string(),
  kind: z.enum(["user", "group"]),
  owner_id: Id.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  description: z.string(),
  avatar: z.object({ url: z.string().nullable() }).optional(),
  share_with_group_lock: z.boolean().optional(),
  visibility_level: z.number().int().optional(),
});
export type NamespaceJson = z.infer<typeof NamespaceJson>;

/** `{id, http_url_to_repo, web_url, name, name_with_namespace, path, path_with_namespace}`. */
export const BasicProjectDetails = z.object({
  id: Id,
  http_url_to_repo: z.string(),
  web_url: z.string(),
  name: z.string(),
  name_with_namespace: z.string(),
  path: z.string(),
  path_with_namespace: z.string(),
});
export type BasicProjectDetails = z.infer<typeof BasicProjectDetails>;

const AccessJson = z
  .object({ access_level: z.number().int(), notification_level: z.number().int() })
  .nullable();

/** A project, as every v3 project endpoint answers it. */
export const ProjectJson = z.object({
  id: Id,
  description: z.string().nullable(),
  default_branch: z.string().nullable(),
  tag_list: z.array(z.string()),
  public: z.boolean(),
  archived: z.boolean(),
  visibility_level: z.number().int(),
  ssh_url_to_repo: z.string(),
  http_url_to_repo: z.string(),
  web_url: z.string(),
  /** Present for projects in a personal namespace. */
  owner: z.object({ id: Id, name: z.string(), created_at: Timestamp }).optional(),
  name: z.string(),
  name_with_namespace: z.string(),
  path: z.string(),
  path_with_namespace: z.string(),
  container_registry_enabled: z.boolean(),
  issues_enabled: z.boolean(),
  merge_requests_enabled: z.boolean(),
  wiki_enabled: z.boolean(),
  builds_enabled: z.boolean(),
  snippets_enabled: z.boolean(),
  created_at: Timestamp,
  last_activity_at: Timestamp,
  shared_runners_enabled: z.boolean(),
  lfs_enabled: z.boolean(),
  creator_id: Id.nullable(),
  namespace: NamespaceJson,
  /** Present on forks. */
  forked_from_project: BasicProjectDetails.optional(),
  avatar_url: z.string().nullable(),
  star_count: z.number().int(),
  forks_count: z.number().int(),
  open_issues_count: z.number().int().optional(),
  /** Present when the caller is a master or above. */
  runners_token: z.string().optional(),
  public_builds: z.boolean(),
  shared_with_groups: z.array(
    z.object({ group_id: Id, group_name: z.string(), group_access_level: z.number().int() }),
  ),
  only_allow_merge_if_build_succeeds: z.boolean(),
  request_access_enabled: z.boolean(),
  /** Present on the lists and details that carry the caller's access. */
  permissions: z.object({ project_access: AccessJson, group_access: AccessJson }).optional(),
});
export type ProjectJson = z.infer<typeof ProjectJson>;

/** A member of a project (`access_level` up to 40) or of a group (up to 50). */
export const MemberJson = z.object({
  id: Id,
  username: z.string(),
  name: z.string(),
  state: z.enum(["active", "blocked"]),
  avatar_url: z.string().nullable(),
  web_url: z.string(),
  created_at: Timestamp,
  access_level: z.number().int(),
  /** Team (project) members carry the email; group members do not. */
  email: z.string().optional(),
});
export type MemberJson = z.infer<typeof MemberJson>;

/** An entry of a project's event feed. */
export const EventJson = z.object({
  title: z.string().nullable(),
  project_id: Id.nullable(),
  action_name: z.string(),
  target_id: Id.nullable(),
  target_type: z.string().nullable(),
  author_id: Id.nullable(),
  data: z.unknown().nullable(),
  target_title: z.string().nullable(),
  created_at: Timestamp,
  /** Present on comment events (`commented on`): the note itself. */
  note: NoteJson.optional(),
  author: UserBasic.nullable(),
  author_username: z.string().nullable(),
});
export type EventJson = z.infer<typeof EventJson>;

/** A group in lists. */
export const GroupJson = z.object({
  id: Id,
  name: z.string(),
  path: z.string(),
  description: z.string(),
  visibility_level: z.number().int(),
  avatar_url: z.string().nullable(),
  web_url: z.string(),
});
export type GroupJson = z.infer<typeof GroupJson>;

/** A group with its projects (`GET /groups/:id`, `PUT /groups/:id`). */
export const GroupDetailJson = GroupJson.extend({
  projects: z.array(ProjectJson),
  shared_projects: z.array(ProjectJson),
});
export type GroupDetailJson = z.infer<typeof GroupDetailJson>;
