import { pathProblem, RESERVED_NAMESPACE_PATHS } from "@kiln/domain";
import { z } from "zod";
import { PaginationParams } from "./pagination.js";
import { Id, idOrPath, ruled, ShortText } from "./primitives.js";
import { MemberAccessLevel, ProjectListParams, ProjectRef, VisibilityLevel } from "./projects.js";

// ---------------------------------------------------------------------------------------- input

/** A group named by id, or by its path (digits always mean an id). */
export const GroupRef = idOrPath(z.string().min(1));
export type GroupRef = z.infer<typeof GroupRef>;

// Letters, digits, `_`, `.`, dashes and spaces (GitLab's namespace name rule).
const GROUP_NAME = /^[\p{L}\p{N}\p{Pd}_. ]*$/u;

/** Why a group name is unacceptable, or null. */
export function groupNameProblem(name: string): string | null {
  if (name.trim().length === 0) return "can't be blank";
  if (name.length > 255) return "is too long (maximum is 255 characters)";
  if (!GROUP_NAME.test(name)) return "can contain only letters, digits, '_', '.', dash and space.";
  return null;
}

/** Why a group path is unacceptable, or null: the path rules, and no name that shadows a server route. */
export function groupPathProblem(path: string): string | null {
  const problem = pathProblem(path);
  if (problem) return problem;
  if (RESERVED_NAMESPACE_PATHS.has(path.toLowerCase())) return "is reserved";
  return null;
}

const GroupFields = {
  name: ruled(groupNameProblem),
  path: ruled(groupPathProblem),
  description: ShortText,
  visibility_level: VisibilityLevel,
};

/** `GET /groups`: `search` matches the name or the path. */
export const ListGroupsInput = PaginationParams.extend({ search: z.string().optional() });
export type ListGroupsInput = z.infer<typeof ListGroupsInput>;

/** Routes that name one group. */
export const GroupRefInput = z.object({ id: GroupRef });
export type GroupRefInput = z.infer<typeof GroupRefInput>;

/** `POST /groups`. */
export const CreateGroupInput = z.object({
  name: GroupFields.name,
  path: GroupFields.path,
  description: GroupFields.description.optional(),
  visibility_level: GroupFields.visibility_level.optional(),
});
export type CreateGroupInput = z.infer<typeof CreateGroupInput>;

/** `PUT /groups/:id`: any of the group's fields. */
export const UpdateGroupInput = z.object({ id: GroupRef, ...z.object(GroupFields).partial().shape });
export type UpdateGroupInput = z.infer<typeof UpdateGroupInput>;

/** `GET /groups/:id/members`: `query` matches the username or the name. */
export const ListGroupMembersInput = PaginationParams.extend({ id: GroupRef, query: z.string().optional() });
export type ListGroupMembersInput = z.infer<typeof ListGroupMembersInput>;

/** Routes that name one member of a group. */
export const GroupMemberRefInput = z.object({ id: GroupRef, user_id: Id });
export type GroupMemberRefInput = z.infer<typeof GroupMemberRefInput>;

/** Adding a member to a group or changing their level (10 to 50). */
export const SetGroupMemberInput = z.object({ id: GroupRef, user_id: Id, access_level: MemberAccessLevel });
export type SetGroupMemberInput = z.infer<typeof SetGroupMemberInput>;

/** `POST /groups/:id/projects/:project_id`: moves a project into the group. */
export const TransferProjectInput = z.object({ id: GroupRef, project_id: ProjectRef });
export type TransferProjectInput = z.infer<typeof TransferProjectInput>;

/** `GET /groups/:id/projects`: the shared list parameters, and builds-enabled projects first on request. */
export const GroupProjectsInput = ProjectListParams.extend({
  id: GroupRef,
  ci_enabled_first: z.boolean().optional(),
});
export type GroupProjectsInput = z.infer<typeof GroupProjectsInput>;

/** `GET /namespaces`: `search` matches the name or the path. */
export const ListNamespacesInput = PaginationParams.extend({ search: z.string().optional() });
export type ListNamespacesInput = z.infer<typeof ListNamespacesInput>;

// --------------------------------------------------------------------------------------- output

/** An item of `GET /namespaces`, as GitLab 8.15 answers it. */
export const NamespaceListJson = z.object({
  id: Id,
  path: z.string(),
  kind: z.enum(["user", "group"]),
});
export type NamespaceListJson = z.infer<typeof NamespaceListJson>;
