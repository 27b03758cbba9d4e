/**
 * Who may do what to a project or a group, stated once and independently of the server's own
 * permission table (`@kiln/domain`'s `can` and `canGroup` are never called here), so that the
 * permission matrix can catch a wrong entry in that table.
 *
 * Sources: the v3 spec (`Authentication`, `Projects`, `Groups`, `Application settings`), and where
 * it is silent GitLab 8.15 (`app/policies/project_policy.rb`, `app/policies/group_policy.rb`,
 * `lib/api/projects.rb`, `lib/api/groups.rb`, `lib/api/members.rb`, `lib/api/project_hooks.rb`).
 * Where the spec and GitLab differ, the spec wins (noted beside the rule).
 */

export const GUEST = 10;
export const REPORTER = 20;
export const DEVELOPER = 30;
export const MASTER = 40;
export const OWNER = 50;

/**
 * The cast. On the personal fixture projects `owner` owns the namespace and master..guest are
 * project members; on the group fixtures (and the projects in them) they are group members at
 * those levels, `owner` being the group's owner; on the shared fixture projects (personal
 * projects of `owner`'s) master..guest are members of a group the project is shared with.
 * `extguest` is an external user who is a guest wherever `guest` is. `projmember` is a guest of
 * one private project inside each fixture group and nothing else; `nonmember` and `external` (an
 * external user) belong to nothing; `blocked` was a master everywhere before being blocked;
 * `anonymous` sends no token.
 */
export const ROLES = [
  "admin",
  "owner",
  "master",
  "developer",
  "reporter",
  "guest",
  "extguest",
  "projmember",
  "nonmember",
  "external",
  "blocked",
  "anonymous",
] as const;
export type Role = (typeof ROLES)[number];

export type Visibility = 0 | 10 | 20;
export const VISIBILITIES: readonly Visibility[] = [0, 10, 20];
export const VISIBILITY_NAMES: Record<Visibility, string> = { 0: "private", 10: "internal", 20: "public" };

/** The access level each role holds on every fixture project and fixture group (0: none). */
export const LEVEL: Record<Role, number> = {
  admin: 0,
  owner: OWNER,
  master: MASTER,
  developer: DEVELOPER,
  reporter: REPORTER,
  guest: GUEST,
  extguest: GUEST,
  projmember: 0,
  nonmember: 0,
  external: 0,
  blocked: MASTER,
  anonymous: 0,
};

/** Blocked users and requests without a token are `401` on every route (spec: Authentication). */
export const signedIn = (role: Role): boolean => role !== "blocked" && role !== "anonymous";

/** Whether the role is a member (of any level) of the fixture projects and groups. */
export const isMember = (role: Role): boolean => LEVEL[role] >= GUEST;

/**
 * External users: they see internal projects and groups only as members, and create neither
 * projects nor groups (GitLab 8.x sets their projects_limit to 0 and can_create_group to false).
 */
export const isExternal = (role: Role): boolean => role === "external" || role === "extguest";

/**
 * Whether a project or group of this visibility is open to the role without a membership: public
 * ones to every signed-in user, internal ones to every signed-in user who is not external.
 */
export function openTo(role: Role, visibility: Visibility): boolean {
  if (!signedIn(role)) return false;
  return visibility === 20 || (visibility === 10 && !isExternal(role));
}

/** Reading a project: administrators, members of any level, and those it is open to. */
export function readsProject(role: Role, visibility: Visibility): boolean {
  if (!signedIn(role)) return false;
  return role === "admin" || isMember(role) || openTo(role, visibility);
}

/**
 * Reading a group: administrators, its members, those it is open to, and anyone who may read one
 * of its projects. Every fixture group holds a private project whose guest is `projmember`, and a
 * project of the group's own visibility.
 */
export function readsGroup(role: Role, visibility: Visibility): boolean {
  if (!signedIn(role)) return false;
  const readsAProject = role === "projmember" || readsProject(role, visibility);
  return role === "admin" || isMember(role) || openTo(role, visibility) || readsAProject;
}

/** Who may use a route. */
export type Rule =
  /** Administrators only: anyone else gets 403, before the project or group is even looked up. */
  | { who: "admins" }
  /**
   * Administrators, members from level `min` up, and (when `open`) non-members it is open to.
   * The project or group must be readable first (404 otherwise); readable but not allowed is 403.
   */
  | { who: "members"; min: number; open: boolean };

const members = (min: number, open = false): Rule => ({ who: "members", min, open });
const admins: Rule = { who: "admins" };

/** The project rules. */
export const PROJECT_RULES = {
  /** Read the project, its events and members; star and unstar it. */
  read: members(GUEST, true),
  /** Change settings (description, features): admin_project, master. */
  editSettings: members(MASTER),
  /** Change the name or path: rename_project, owner. (GitLab 8.15's API checks the name only.) */
  rename: members(OWNER),
  /** Change the visibility: change_visibility_level, owner. */
  changeVisibility: members(OWNER),
  /** Archive and unarchive (spec: admin or project owner). */
  archive: members(OWNER),
  /** Delete the project: remove_project, owner. */
  remove: members(OWNER),
  /** Add, change and remove members: admin_project_member, master. */
  manageMembers: members(MASTER),
  /** Manage webhooks, listing them included: admin_project, master. */
  manageHooks: members(MASTER),
  /** Share with a group and stop sharing: admin_project, master. */
  share: members(MASTER),
  /** Fork: reporters of any project, and anyone a project is open to (public_access). */
  fork: members(REPORTER, true),
  /** Upload a file: guests, and anyone the project is open to (guest_access). */
  upload: members(GUEST, true),
  /** Create or remove a fork relation (spec: admin only; GitLab 8.15 lets owners remove one). */
  forkRelation: admins,
  /** `/projects/all`, `POST /projects/user/:user_id`, transfers, application settings. */
  adminOnly: admins,
} satisfies Record<string, Rule>;

/** The group rules. */
export const GROUP_RULES = {
  /** Read the group, its projects and its members. */
  read: members(GUEST, true),
  /** Update or delete the group, add, change or remove its members: admin_group, owner. */
  admin: members(OWNER),
  /** Create projects in the group: create_projects, master. */
  createProjects: members(MASTER),
} satisfies Record<string, Rule>;

function allows(rule: Rule & { who: "members" }, role: Role, visibility: Visibility): boolean {
  return role === "admin" || LEVEL[role] >= rule.min || (rule.open && openTo(role, visibility));
}

/** The status a project route answers: 401, 404 (hidden), 403 (readable, not allowed) or `success`. */
export function projectStatus(rule: Rule, role: Role, visibility: Visibility, success: number): number {
  if (!signedIn(role)) return 401;
  if (rule.who === "admins") return role === "admin" ? success : 403;
  if (!readsProject(role, visibility)) return 404;
  return allows(rule, role, visibility) ? success : 403;
}

/** The status a group route answers: 401, 404 (hidden), 403 (readable, not allowed) or `success`. */
export function groupStatus(rule: Rule, role: Role, visibility: Visibility, success: number): number {
  if (!signedIn(role)) return 401;
  if (rule.who === "admins") return role === "admin" ? success : 403;
  if (!readsGroup(role, visibility)) return 404;
  // An open group rule is given to everyone who may read the group, whatever the reason.
  return rule.open || allows(rule, role, visibility) ? success : 403;
}

/**
 * The projects a user's lists count as visible to them: their memberships and the projects open to
 * them. GitLab 8.x builds these lists the same way for administrators (authorized projects, plus
 * `public_to_user`, plus for stars `viewable_starred_projects`), so an administrator does not see
 * other people's private projects in them; `/projects/all` is the administrators' list.
 */
const visibleInLists = (role: Role, visibility: Visibility): boolean =>
  signedIn(role) && (isMember(role) || openTo(role, visibility));

/** Which fixture projects each project list holds for a role. */
export const PROJECT_LISTS = {
  /** GitLab's authorized projects: memberships only, administrators included (reference §5.8). */
  "GET /projects": (role: Role, _visibility: Visibility) => isMember(role),
  "GET /projects/visible": visibleInLists,
  /** The caller's namespace and the groups they own. */
  "GET /projects/owned": (role: Role, _visibility: Visibility) => role === "owner",
  /** Starred by the caller (all of them starred it while it was public) and still visible to them. */
  "GET /projects/starred": visibleInLists,
  "GET /projects/all": (role: Role, _visibility: Visibility) => role === "admin",
  "GET /projects/search/:query": visibleInLists,
} satisfies Record<string, (role: Role, visibility: Visibility) => boolean>;

/** Which fixture groups `GET /groups` and `GET /namespaces` hold: the caller's groups, all for administrators. */
export const listsGroup = (role: Role, _visibility: Visibility): boolean =>
  signedIn(role) && (role === "admin" || isMember(role));

/** The status of a list route: 401 without a user, 403 for non-admins on admin lists, else 200. */
export function listStatus(adminOnly: boolean, role: Role): number {
  if (!signedIn(role)) return 401;
  return adminOnly && role !== "admin" ? 403 : 200;
}
