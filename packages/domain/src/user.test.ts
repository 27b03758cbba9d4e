import { describe, expect, it } from "vitest";
import { canCreateProject, creationRights } from "./user.js";

describe("creation rights", () => {
  it("take away projects and groups from external users, whatever was asked", () => {
    expect(creationRights(true, { can_create_group: true, projects_limit: 10 })).toEqual({
      can_create_group: false,
      projects_limit: 0,
    });
  });

  it("keep what was asked for everyone else", () => {
    expect(creationRights(false, { can_create_group: true, projects_limit: 10 })).toEqual({
      can_create_group: true,
      projects_limit: 10,
    });
  });

  it("let a user create a project only below the limit", () => {
    expect(canCreateProject({ projects_limit: 2, personal_projects_count: 1 })).toBe(true);
    expect(canCreateProject({ projects_limit: 2, personal_projects_count: 2 })).toBe(false);
    expect(canCreateProject({ projects_limit: 0, personal_projects_count: 0 })).toBe(false);
  });
});
