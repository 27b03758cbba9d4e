import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccessLevel, Visibility } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { groupTeam, projectIn } from "../__tests__/groups.js";
import { forEachDialect } from "../__tests__/harness.js";
import { actorOf } from "../auth/credentials.js";
import { createCaller } from "../router.js";
import { ServiceRuntime } from "../runtime.js";

const groupNotFound = { code: "NOT_FOUND", cause: { failure: { kind: "not_found", subject: "group" } } };
const invalidField = (field: string, message: unknown) => ({
  code: "BAD_REQUEST",
  cause: { kind: "validation", fields: { [field]: [message] } },
});

forEachDialect((h) => {
  describe("updating groups", () => {
    it("lets owners and admins change a group, refuses lower members (403) and hides it from others (404)", async () => {
      const team = await groupTeam(h(), Visibility.PRIVATE);
      const updated = await h()
        .as(team.owner)
        .groups.update({ id: "team", name: "Renamed", path: "renamed", description: "new" });
      expect(updated.group).toMatchObject({
        id: team.group.id,
        name: "Renamed",
        path: "renamed",
        description: "new",
      });
      expect(updated.projects).toEqual([]);
      for (const member of [team.master, team.developer, team.reporter, team.guest]) {
        await expect(h().as(member).groups.update({ id: team.group.id, name: "Nope" })).rejects.toMatchObject(
          { code: "FORBIDDEN" },
        );
      }
      await expect(
        h().as(team.stranger).groups.update({ id: team.group.id, name: "Nope" }),
      ).rejects.toMatchObject(groupNotFound);
      const byAdmin = await h().as(team.admin).groups.update({ id: team.group.id, description: "admin" });
      expect(byAdmin.group).toMatchObject({ name: "Renamed", description: "admin" });
    });

    it("keeps the path unique, but a group may change the case of its own path", async () => {
      const team = await groupTeam(h(), Visibility.PUBLIC);
      await h().as(team.owner).groups.create({ name: "Other", path: "other" });
      const taken = invalidField("path", "has already been taken");
      await expect(h().as(team.owner).groups.update({ id: "team", path: "Other" })).rejects.toMatchObject(
        taken,
      );
      await expect(h().as(team.owner).groups.update({ id: "team", path: "guest" })).rejects.toMatchObject(
        taken,
      );
      expect((await h().as(team.owner).groups.update({ id: "team", path: "TEAM" })).group.path).toBe("TEAM");
    });

    it("refuses a visibility below one of the group's projects, with GitLab's message", async () => {
      const team = await groupTeam(h(), Visibility.PUBLIC);
      await projectIn(h(), team.owner, team.group.id, "shown", { visibility_level: Visibility.INTERNAL });
      await expect(
        h().as(team.owner).groups.update({ id: "team", visibility_level: Visibility.PRIVATE }),
      ).rejects.toMatchObject(
        invalidField(
          "visibility_level",
          "private is not allowed since this group contains projects with higher visibility.",
        ),
      );
      const internal = await h().as(team.owner).groups.update({ id: "team", visibility_level: 10 });
      expect(internal.group.visibility_level).toBe(Visibility.INTERNAL);
      expect((await h().as(team.admin).groups.get({ id: "team" })).group.visibility_level).toBe(10);
    });

    it("refuses restricted visibility levels to non-admin owners", async () => {
      const team = await groupTeam(h(), Visibility.PRIVATE);
      await h().system.settings.update({ restricted_visibility_levels: [20] });
      await expect(
        h().as(team.owner).groups.update({ id: "team", visibility_level: 20 }),
      ).rejects.toMatchObject(invalidField("visibility_level", expect.stringContaining("restricted")));
      expect(
        (await h().as(team.admin).groups.update({ id: "team", visibility_level: 20 })).group.visibility_level,
      ).toBe(20);
    });
  });

  describe("deleting groups", () => {
    it("lets owners delete a group with its projects and their files; others get 403 or 404", async () => {
      const team = await groupTeam(h(), Visibility.PRIVATE);
      const project = await projectIn(h(), team.owner, team.group.id, "doomed");
      const dataDir = mkdtempSync(join(tmpdir(), "kiln-groups-"));
      try {
        const runtime = new ServiceRuntime({
          stores: h().runtime.stores,
          secretKey: randomBytes(32),
          singleProcess: false,
          dataDir,
        });
        const uploads = join(dataDir, "uploads", String(project.id));
        mkdirSync(uploads, { recursive: true });
        writeFileSync(join(uploads, "file.txt"), "x");
        const as = (user: typeof team.owner) =>
          createCaller({ runtime, actor: actorOf({ user, method: "private_token" }), system: false });
        await expect(as(team.master).groups.remove({ id: "team" })).rejects.toMatchObject({
          code: "FORBIDDEN",
        });
        await expect(as(team.stranger).groups.remove({ id: "team" })).rejects.toMatchObject(groupNotFound);
        expect(await as(team.owner).groups.remove({ id: "team" })).toMatchObject({
          id: team.group.id,
          path: "team",
        });
        expect(existsSync(uploads)).toBe(false);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
      expect(await h().runtime.stores.projects.findById(project.id)).toBeUndefined();
      await expect(h().as(team.admin).groups.get({ id: "team" })).rejects.toMatchObject(groupNotFound);
      await expect(h().as(team.admin).groups.remove({ id: "team" })).rejects.toMatchObject(groupNotFound);
    });

    it("lets administrators delete any group", async () => {
      const team = await groupTeam(h(), Visibility.PRIVATE);
      expect((await h().as(team.admin).groups.remove({ id: team.group.id })).id).toBe(team.group.id);
      expect(await h().runtime.stores.namespaces.pathTaken("team")).toBe(false);
    });
  });

  describe("transferring projects into groups", () => {
    it("moves a project into the group (administrators only), no more visible than the group", async () => {
      const team = await groupTeam(h(), Visibility.INTERNAL);
      const outsider = await h().user("outsider");
      const { project } = await h().as(outsider).projects.create({ name: "Moving", visibility_level: 20 });
      await expect(
        h().as(team.owner).groups.transfer({ id: "team", project_id: project.id }),
      ).rejects.toMatchObject({ code: "FORBIDDEN" });
      const detail = await h().as(team.admin).groups.transfer({ id: "team", project_id: "outsider/moving" });
      expect(detail.group.id).toBe(team.group.id);
      expect(detail.projects.map((view) => [view.project.name, view.project.visibility_level])).toEqual([
        ["Moving", Visibility.INTERNAL],
      ]);
      expect((await h().as(team.guest).projects.get({ id: "team/moving" })).project.id).toBe(project.id);
      // the outsider stays a master through their project membership
      const members = await h().as(outsider).projectMembers.list({ id: project.id });
      expect(members.items.map((m) => m.membership.access_level)).toEqual([AccessLevel.MASTER]);
    });

    it("answers 404 for a missing group or project, 409 for a taken name or path, 400 when already there", async () => {
      const team = await groupTeam(h(), Visibility.PUBLIC);
      await projectIn(h(), team.owner, team.group.id, "Same");
      const outsider = await h().user("outsider");
      const { project } = await h().as(outsider).projects.create({ name: "same" });
      const { project: otherPath } = await h()
        .as(outsider)
        .projects.create({ name: "Different", path: "same-2" });
      const admin = h().as(team.admin);
      await expect(admin.groups.transfer({ id: "nope", project_id: project.id })).rejects.toMatchObject(
        groupNotFound,
      );
      await expect(admin.groups.transfer({ id: "team", project_id: 999_999 })).rejects.toMatchObject({
        code: "NOT_FOUND",
        cause: { failure: { kind: "not_found", subject: "project" } },
      });
      await expect(admin.groups.transfer({ id: "team", project_id: project.id })).rejects.toMatchObject({
        code: "CONFLICT",
      });
      const moved = await admin.groups.transfer({ id: "team", project_id: otherPath.id });
      expect(moved.projects.map((view) => view.project.path)).toEqual(["same", "same-2"]);
      await expect(admin.groups.transfer({ id: "team", project_id: otherPath.id })).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
    });

    it("drops the project's share with the group it moves into", async () => {
      const team = await groupTeam(h(), Visibility.PRIVATE);
      const outsider = await h().user("outsider");
      const { project } = await h().as(outsider).projects.create({ name: "shared" });
      const admin = h().as(team.admin);
      await admin.projectLinks.share({
        id: project.id,
        group_id: team.group.id,
        group_access: AccessLevel.GUEST,
      });
      expect((await admin.groups.get({ id: "team" })).sharedProjects).toHaveLength(1);
      const detail = await admin.groups.transfer({ id: "team", project_id: project.id });
      expect(detail.projects.map((view) => view.project.id)).toEqual([project.id]);
      expect(detail.sharedProjects).toEqual([]);
      expect(detail.projects[0]?.sharedWithGroups).toEqual([]);
    });
  });
});
