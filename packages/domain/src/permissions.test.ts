import { describe, expect, it } from "vitest";
import { AccessLevel, Visibility } from "./access.js";
import {
  can,
  canGroup,
  effectiveAccessLevel,
  GROUP_ABILITIES,
  type GroupAbility,
  PROJECT_ABILITIES,
  type ProjectAbility,
  readsConfidentialIssues,
} from "./permissions.js";

const { NONE, GUEST, REPORTER, DEVELOPER, MASTER, OWNER } = AccessLevel;
const LEVELS = [NONE, GUEST, REPORTER, DEVELOPER, MASTER, OWNER] as const;
const VISIBILITIES = [Visibility.PRIVATE, Visibility.INTERNAL, Visibility.PUBLIC] as const;

/**
 * GitLab 8.x's project policy, restated as the spec and reference give it: the lowest member level
 * per ability, and whether a signed-in non-member has it on an internal or public project.
 */
const EXPECTED: Record<ProjectAbility, { member: AccessLevel; nonMember: boolean }> = {
  read_project: { member: GUEST, nonMember: true },
  read_issue: { member: GUEST, nonMember: true },
  create_issue: { member: GUEST, nonMember: true },
  create_note: { member: GUEST, nonMember: true },
  read_label: { member: GUEST, nonMember: true },
  read_milestone: { member: GUEST, nonMember: true },
  read_project_member: { member: GUEST, nonMember: true },
  upload_file: { member: GUEST, nonMember: true },
  read_merge_request: { member: REPORTER, nonMember: true },
  download_code: { member: REPORTER, nonMember: true },
  fork_project: { member: REPORTER, nonMember: true },
  update_issue: { member: REPORTER, nonMember: false },
  admin_issue: { member: REPORTER, nonMember: false },
  admin_label: { member: REPORTER, nonMember: false },
  read_build: { member: REPORTER, nonMember: false },
  read_pipeline: { member: REPORTER, nonMember: true },
  read_commit_status: { member: REPORTER, nonMember: true },
  push_code: { member: DEVELOPER, nonMember: false },
  create_merge_request: { member: DEVELOPER, nonMember: false },
  update_merge_request: { member: DEVELOPER, nonMember: false },
  create_commit_status: { member: DEVELOPER, nonMember: false },
  update_build: { member: DEVELOPER, nonMember: false },
  create_pipeline: { member: DEVELOPER, nonMember: false },
  push_code_to_protected_branches: { member: MASTER, nonMember: false },
  admin_merge_request: { member: MASTER, nonMember: false },
  admin_milestone: { member: MASTER, nonMember: false },
  admin_note: { member: MASTER, nonMember: false },
  admin_project: { member: MASTER, nonMember: false },
  admin_project_member: { member: MASTER, nonMember: false },
  admin_hooks: { member: MASTER, nonMember: false },
  admin_build: { member: MASTER, nonMember: false },
  read_runners_token: { member: MASTER, nonMember: false },
  change_visibility_level: { member: OWNER, nonMember: false },
  rename_project: { member: OWNER, nonMember: false },
  remove_project: { member: OWNER, nonMember: false },
  archive_project: { member: OWNER, nonMember: false },
  remove_fork_project: { member: OWNER, nonMember: false },
  destroy_issue: { member: OWNER, nonMember: false },
  destroy_merge_request: { member: OWNER, nonMember: false },
};

const WRITES = new Set<ProjectAbility>([
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

describe("project abilities", () => {
  it("the table under test names every ability", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...PROJECT_ABILITIES].sort());
  });

  for (const ability of PROJECT_ABILITIES) {
    for (const visibility of VISIBILITIES) {
      for (const level of LEVELS) {
        const rule = EXPECTED[ability];
        const asMember = level !== NONE && level >= rule.member;
        const open = visibility !== Visibility.PRIVATE;
        const expected = asMember || (open && rule.nonMember);
        it(`${ability} at level ${level} on visibility ${visibility}: ${expected}`, () => {
          const project = { visibility, archived: false, publicBuilds: false };
          expect(can({ isAdmin: false, external: false, accessLevel: level }, project, ability)).toBe(
            expected,
          );
          // administrators may do everything, at any level
          expect(can({ isAdmin: true, external: false, accessLevel: level }, project, ability)).toBe(true);
          // archiving takes writes away from everyone but administrators
          const archived = { ...project, archived: true };
          expect(can({ isAdmin: false, external: false, accessLevel: level }, archived, ability)).toBe(
            expected && !WRITES.has(ability),
          );
        });
      }
    }
  }

  it("external users see internal projects only as members", () => {
    const internal = { visibility: Visibility.INTERNAL, archived: false, publicBuilds: false };
    expect(can({ isAdmin: false, external: true, accessLevel: NONE }, internal, "read_project")).toBe(false);
    expect(can({ isAdmin: false, external: true, accessLevel: GUEST }, internal, "read_project")).toBe(true);
    const publicProject = { ...internal, visibility: Visibility.PUBLIC };
    expect(can({ isAdmin: false, external: true, accessLevel: NONE }, publicProject, "read_project")).toBe(
      true,
    );
  });

  it("public builds open build reading to non-members of readable projects", () => {
    const project = { visibility: Visibility.PUBLIC, archived: false, publicBuilds: true };
    expect(can({ isAdmin: false, external: false, accessLevel: NONE }, project, "read_build")).toBe(true);
    const privateProject = { ...project, visibility: Visibility.PRIVATE };
    expect(can({ isAdmin: false, external: false, accessLevel: NONE }, privateProject, "read_build")).toBe(
      false,
    );
  });
});

describe("confidential issues", () => {
  it("reporters and above and administrators read every one; guests and non-members do not", () => {
    const reads = (accessLevel: AccessLevel, isAdmin = false) =>
      readsConfidentialIssues({ isAdmin, accessLevel });
    expect(LEVELS.filter((level) => reads(level))).toEqual([REPORTER, DEVELOPER, MASTER, OWNER]);
    expect(reads(NONE, true)).toBe(true);
  });
});

describe("effective access level", () => {
  it("takes the highest source, a share capped at its group_access", () => {
    const none = { ownsNamespace: false, projectMember: null, groupMember: null, shares: [] };
    expect(effectiveAccessLevel(none)).toBe(NONE);
    expect(effectiveAccessLevel({ ...none, ownsNamespace: true, projectMember: DEVELOPER })).toBe(OWNER);
    expect(effectiveAccessLevel({ ...none, projectMember: REPORTER, groupMember: MASTER })).toBe(MASTER);
    expect(effectiveAccessLevel({ ...none, shares: [{ memberLevel: OWNER, groupAccess: DEVELOPER }] })).toBe(
      DEVELOPER,
    );
    expect(
      effectiveAccessLevel({
        ...none,
        projectMember: GUEST,
        shares: [
          { memberLevel: REPORTER, groupAccess: MASTER },
          { memberLevel: MASTER, groupAccess: DEVELOPER },
        ],
      }),
    ).toBe(DEVELOPER);
  });
});

describe("group abilities", () => {
  const EXPECTED_GROUP: Record<GroupAbility, AccessLevel> = {
    read_group: GUEST,
    read_group_member: GUEST,
    create_projects: MASTER,
    admin_group: OWNER,
    admin_group_member: OWNER,
    remove_group: OWNER,
  };

  for (const ability of GROUP_ABILITIES) {
    for (const visibility of VISIBILITIES) {
      for (const level of LEVELS) {
        const readOnly = ability === "read_group" || ability === "read_group_member";
        const expected =
          (level !== NONE && level >= EXPECTED_GROUP[ability]) ||
          (readOnly && visibility !== Visibility.PRIVATE);
        it(`${ability} at level ${level} on visibility ${visibility}: ${expected}`, () => {
          const subject = { isAdmin: false, external: false, accessLevel: level, readsAProject: false };
          expect(canGroup(subject, visibility, ability)).toBe(expected);
          expect(canGroup({ ...subject, isAdmin: true }, visibility, ability)).toBe(true);
        });
      }
    }
  }

  it("a private group is visible to someone who reads one of its projects, and to no one else", () => {
    const stranger = { isAdmin: false, external: false, accessLevel: NONE, readsAProject: false };
    expect(canGroup(stranger, Visibility.PRIVATE, "read_group")).toBe(false);
    expect(canGroup({ ...stranger, readsAProject: true }, Visibility.PRIVATE, "read_group")).toBe(true);
    expect(canGroup({ ...stranger, readsAProject: true }, Visibility.PRIVATE, "admin_group")).toBe(false);
  });
});
