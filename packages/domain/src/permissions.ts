import { AccessLevel, Visibility } from "./access.js";

/**
 * What someone may do to a project. One table says which access level each ability needs; the
 * visibility of the project adds what non-members may do; archiving takes writes away.
 */
export type ProjectAbility =
  // guest
  | "read_project"
  | "read_issue"
  | "create_issue"
  | "create_note"
  | "read_label"
  | "read_milestone"
  | "read_project_member"
  | "upload_file"
  // reporter
  | "read_merge_request"
  | "download_code"
  | "fork_project"
  | "update_issue"
  | "admin_issue"
  | "admin_label"
  | "read_build"
  | "read_pipeline"
  | "read_commit_status"
  // developer
  | "push_code"
  | "create_merge_request"
  | "update_merge_request"
  | "create_commit_status"
  | "update_build"
  | "create_pipeline"
  // master
  | "push_code_to_protected_branches"
  | "admin_merge_request"
  | "admin_milestone"
  | "admin_note"
  | "admin_project"
  | "admin_project_member"
  | "admin_hooks"
  | "admin_build"
  | "read_runners_token"
  // owner
  | "change_visibility_level"
  | "rename_project"
  | "remove_project"
  | "archive_project"
  | "remove_fork_project"
  | "destroy_issue"
  | "destroy_merge_request";

/** The lowest access level that grants each ability to a member. */
export const PROJECT_ABILITY_LEVELS: Readonly<Record<ProjectAbility, AccessLevel>> = {
  read_project: AccessLevel.GUEST,
  read_issue: AccessLevel.GUEST,
  create_issue: AccessLevel.GUEST,
  create_note: AccessLevel.GUEST,
  read_label: AccessLevel.GUEST,
  read_milestone: AccessLevel.GUEST,
  read_project_member: AccessLevel.GUEST,
  upload_file: AccessLevel.GUEST,
  // GitLab 8.13 took merge requests of private projects from guests ("Make guests unable to view
  // MRs"): they show the code. Anyone a project is open to still reads them (NON_MEMBER_ABILITIES).
  read_merge_request: AccessLevel.REPORTER,
  download_code: AccessLevel.REPORTER,
  fork_project: AccessLevel.REPORTER,
  update_issue: AccessLevel.REPORTER,
  admin_issue: AccessLevel.REPORTER,
  admin_label: AccessLevel.REPORTER,
  read_build: AccessLevel.REPORTER,
  read_pipeline: AccessLevel.REPORTER,
  read_commit_status: AccessLevel.REPORTER,
  push_code: AccessLevel.DEVELOPER,
  create_merge_request: AccessLevel.DEVELOPER,
  update_merge_request: AccessLevel.DEVELOPER,
  create_commit_status: AccessLevel.DEVELOPER,
  update_build: AccessLevel.DEVELOPER,
  create_pipeline: AccessLevel.DEVELOPER,
  push_code_to_protected_branches: AccessLevel.MASTER,
  admin_merge_request: AccessLevel.MASTER,
  admin_milestone: AccessLevel.MASTER,
  admin_note: AccessLevel.MASTER,
  admin_project: AccessLevel.MASTER,
  admin_project_member: AccessLevel.MASTER,
  admin_hooks: AccessLevel.MASTER,
  admin_build: AccessLevel.MASTER,
  read_runners_token: AccessLevel.MASTER,
  change_visibility_level: AccessLevel.OWNER,
  rename_project: AccessLevel.OWNER,
  remove_project: AccessLevel.OWNER,
  archive_project: AccessLevel.OWNER,
  remove_fork_project: AccessLevel.OWNER,
  destroy_issue: AccessLevel.OWNER,
  destroy_merge_request: AccessLevel.OWNER,
};

/** Every project ability, in table order. */
export const PROJECT_ABILITIES = Object.keys(PROJECT_ABILITY_LEVELS) as ProjectAbility[];

/**
 * What any signed-in user may do on an internal or public project without being a member: read
 * it and take part as a guest, and read and fork its code (GitLab's base read-only plus public access).
 */
const NON_MEMBER_ABILITIES: ReadonlySet<ProjectAbility> = new Set<ProjectAbility>([
  "read_project",
  "read_issue",
  "create_issue",
  "create_note",
  "read_label",
  "read_milestone",
  "read_merge_request",
  "read_project_member",
  "upload_file",
  "download_code",
  "fork_project",
  "read_pipeline",
  "read_commit_status",
]);

/** Abilities an archived project no longer grants to anyone but administrators. */
const WRITES_LOST_WHEN_ARCHIVED: ReadonlySet<ProjectAbility> = new Set<ProjectAbility>([
  "push_code",
  "push_code_to_protected_branches",
  "create_merge_request",
  "update_merge_request",
  "admin_merge_request",
  "create_issue",
  "update_issue",
  "create_note",
  "upload_file",
  "create_pipeline",
  "update_build",
  "create_commit_status",
]);

/** Who is asking. */
export interface Subject {
  /** Administrators may do everything. */
  isAdmin: boolean;
  /** External users see internal projects only as members. */
  external: boolean;
  /** The highest access level the subject holds on this project (0 for none): see {@link effectiveAccessLevel}. */
  accessLevel: AccessLevel;
}

/** The facts about a project that permissions depend on. */
export interface ProjectFacts {
  visibility: Visibility;
  archived: boolean;
  /** Whether builds (and their traces) are readable by everyone who may read the project. */
  publicBuilds: boolean;
}

/** True when the project is visible to the subject without a membership. */
function openTo(subject: Subject, project: ProjectFacts): boolean {
  if (project.visibility === Visibility.PUBLIC) return true;
  return project.visibility === Visibility.INTERNAL && !subject.external;
}

/** True when `subject` may perform `ability` on the project. */
export function can(subject: Subject, project: ProjectFacts, ability: ProjectAbility): boolean {
  if (subject.isAdmin) return true;
  if (project.archived && WRITES_LOST_WHEN_ARCHIVED.has(ability)) return false;
  if (subject.accessLevel >= PROJECT_ABILITY_LEVELS[ability] && subject.accessLevel > AccessLevel.NONE)
    return true;
  if (!openTo(subject, project)) return false;
  if (ability === "read_build") return project.publicBuilds;
  return NON_MEMBER_ABILITIES.has(ability);
}

/**
 * True when the subject reads every confidential issue of a project it may read: administrators,
 * reporters and above (GitLab 8.x's `read_confidential_issues`). Others read only the confidential
 * issues they wrote or are assigned to.
 */
export function readsConfidentialIssues(subject: Pick<Subject, "isAdmin" | "accessLevel">): boolean {
  return subject.isAdmin || subject.accessLevel >= AccessLevel.REPORTER;
}

/** Where a user's access to a project can come from. */
export interface AccessSources {
  /** The user owns the project's personal namespace. */
  ownsNamespace: boolean;
  /** Direct membership of the project. */
  projectMember: AccessLevel | null;
  /** Membership of the group that holds the project. */
  groupMember: AccessLevel | null;
  /** Shares of the project with groups the user belongs to: the user's level there, capped at the share. */
  shares: readonly { memberLevel: AccessLevel; groupAccess: AccessLevel }[];
}

/** A user's level on a project: the highest of every source, a share capped at its `group_access`. */
export function effectiveAccessLevel(sources: AccessSources): AccessLevel {
  let level: number = sources.ownsNamespace ? AccessLevel.OWNER : AccessLevel.NONE;
  level = Math.max(level, sources.projectMember ?? 0, sources.groupMember ?? 0);
  for (const share of sources.shares) level = Math.max(level, Math.min(share.memberLevel, share.groupAccess));
  return level as AccessLevel;
}

/** What someone may do to a group. */
export type GroupAbility =
  | "read_group"
  | "read_group_member"
  | "create_projects"
  | "admin_group"
  | "admin_group_member"
  | "remove_group";

/** The lowest group access level that grants each group ability. */
export const GROUP_ABILITY_LEVELS: Readonly<Record<GroupAbility, AccessLevel>> = {
  read_group: AccessLevel.GUEST,
  read_group_member: AccessLevel.GUEST,
  create_projects: AccessLevel.MASTER,
  admin_group: AccessLevel.OWNER,
  admin_group_member: AccessLevel.OWNER,
  remove_group: AccessLevel.OWNER,
};

/** Every group ability, in table order. */
export const GROUP_ABILITIES = Object.keys(GROUP_ABILITY_LEVELS) as GroupAbility[];

/** Who is asking about a group. */
export interface GroupSubject {
  isAdmin: boolean;
  external: boolean;
  /** The subject's level as a member of the group (0 for none). */
  accessLevel: AccessLevel;
  /** Whether the subject may read at least one project of the group (which makes the group visible). */
  readsAProject: boolean;
}

/** True when `subject` may perform `ability` on a group of the given visibility. */
export function canGroup(subject: GroupSubject, visibility: Visibility, ability: GroupAbility): boolean {
  if (subject.isAdmin) return true;
  if (subject.accessLevel > AccessLevel.NONE && subject.accessLevel >= GROUP_ABILITY_LEVELS[ability])
    return true;
  if (ability !== "read_group" && ability !== "read_group_member") return false;
  if (visibility === Visibility.PUBLIC) return true;
  if (visibility === Visibility.INTERNAL && !subject.external) return true;
  return subject.readsAProject;
}
