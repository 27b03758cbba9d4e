import {
  AccessLevel,
  isMemberAccessLevel,
  isVisibility,
  pathProblem,
  projectNameProblem,
} from "@kiln/domain";
import { z } from "zod";
import { PaginationParams } from "./pagination.js";
import { Id, idOrPath, ruled, ShortText, StoredInt } from "./primitives.js";

// ---------------------------------------------------------------------------------------- input

/** A project named by id, or by `namespace/project` (URL-encoded as `namespace%2Fproject`). */
export const ProjectRef = idOrPath(z.string().min(1));
export type ProjectRef = z.infer<typeof ProjectRef>;

/** A visibility level: 0 private, 10 internal, 20 public. */
export const VisibilityLevel = z
  .number()
  .int()
  .refine(isVisibility, { error: "must be 0 (private), 10 (internal) or 20 (public)" });

/** A membership access level: 10, 20, 30, 40 or 50. */
export const MemberAccessLevel = z
  .number()
  .int()
  .refine(isMemberAccessLevel, { error: "is not a valid access level" });

const ProjectSettings = {
  description: z.string().max(2000, { error: "is too long (maximum is 2000 characters)" }).optional(),
  issues_enabled: z.boolean().optional(),
  merge_requests_enabled: z.boolean().optional(),
  builds_enabled: z.boolean().optional(),
  wiki_enabled: z.boolean().optional(),
  snippets_enabled: z.boolean().optional(),
  container_registry_enabled: z.boolean().optional(),
  shared_runners_enabled: z.boolean().optional(),
  lfs_enabled: z.boolean().optional(),
  request_access_enabled: z.boolean().optional(),
  only_allow_merge_if_build_succeeds: z.boolean().optional(),
  public_builds: z.boolean().optional(),
  /** `true` means visibility 20, `false` 0; `visibility_level` wins when both are given. */
  public: z.boolean().optional(),
  visibility_level: VisibilityLevel.optional(),
};

/** `POST /projects/user/:user_id`: a project for another user (administrators). */
export const CreateProjectForUserInput = z.object({
  user_id: Id,
  name: ruled(projectNameProblem),
  import_url: z.string().optional(),
  ...ProjectSettings,
});
export type CreateProjectForUserInput = z.infer<typeof CreateProjectForUserInput>;

/** `POST /projects`. */
export const CreateProjectInput = z.object({
  name: ruled(projectNameProblem),
  /** Defaults to the name, parameterized. */
  path: ruled(pathProblem).optional(),
  /** Defaults to the caller's own namespace. */
  namespace_id: Id.optional(),
  import_url: z.string().optional(),
  ...ProjectSettings,
});
export type CreateProjectInput = z.infer<typeof CreateProjectInput>;

/** `PUT /projects/:id`. */
export const UpdateProjectInput = z.object({
  id: ProjectRef,
  name: ruled(projectNameProblem).optional(),
  path: ruled(pathProblem).optional(),
  default_branch: ShortText.optional(),
  /**
   * Seconds a build may run (8.x sets it in the project's CI settings; GitLab's later API takes it
   * here, as Kiln does, having no settings page).
   */
  build_timeout: StoredInt.min(1, { error: "must be greater than 0" }).optional(),
  ...ProjectSettings,
});
export type UpdateProjectInput = z.infer<typeof UpdateProjectInput>;

/** Routes that name one project. */
export const ProjectRefInput = z.object({ id: ProjectRef });
export type ProjectRefInput = z.infer<typeof ProjectRefInput>;

/** The list parameters every project list accepts. */
export const ProjectListParams = PaginationParams.extend({
  archived: z.boolean().optional(),
  visibility: z.enum(["public", "internal", "private"]).optional(),
  order_by: z.enum(["id", "name", "path", "created_at", "updated_at", "last_activity_at"]).optional(),
  sort: z.enum(["asc", "desc"]).optional(),
  search: z.string().optional(),
});
export type ProjectListParams = z.infer<typeof ProjectListParams>;

/** `GET /projects/search/:query`. */
export const SearchProjectsInput = ProjectListParams.extend({ query: z.string().min(1) });
export type SearchProjectsInput = z.infer<typeof SearchProjectsInput>;

/** `POST /projects/fork/:id`: into the caller's namespace, or `namespace` (id or path) where allowed. */
export const ForkProjectInput = z.object({
  id: ProjectRef,
  namespace: idOrPath(z.string().min(1)).optional(),
});
export type ForkProjectInput = z.infer<typeof ForkProjectInput>;

/** `POST /projects/:id/fork/:forked_from_id`. */
export const ForkRelationInput = z.object({ id: ProjectRef, forked_from_id: ProjectRef });

/** `POST /projects/:id/share`. */
export const ShareProjectInput = z.object({ id: ProjectRef, group_id: Id, group_access: MemberAccessLevel });
export type ShareProjectInput = z.infer<typeof ShareProjectInput>;

/** `DELETE /projects/:id/share/:group_id`. */
export const UnshareProjectInput = z.object({ id: ProjectRef, group_id: Id });

/** `GET /projects/:id/members`. */
export const ListMembersInput = PaginationParams.extend({ id: ProjectRef, query: z.string().optional() });

/** Routes that name one member of a project. */
export const MemberRefInput = z.object({ id: ProjectRef, user_id: Id });

/** Adding or changing a member of a project. */
export const SetMemberInput = z.object({ id: ProjectRef, user_id: Id, access_level: MemberAccessLevel });
export type SetMemberInput = z.infer<typeof SetMemberInput>;

/** `GET /projects/:id/events`. */
export const ProjectEventsInput = PaginationParams.extend({ id: ProjectRef });

/** The highest level a project membership may carry (owners are namespace owners, not members). */
export const MAX_PROJECT_MEMBER_LEVEL = AccessLevel.MASTER;
