import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Visibility } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { onDisk, scratchDataDirs } from "../__tests__/disk.js";
import { forEachDialect } from "../__tests__/harness.js";
import { actorOf } from "../auth/credentials.js";
import type { Context } from "../context.js";
import { repositoryOf } from "../repositories/access.js";
import { insertProject, type NewProjectPlan } from "./create.js";
import { projectView } from "./views.js";

/**
 * What a request does when what it read was deleted before it wrote: the moments between a read
 * and a write, taken here one at a time, that simultaneous requests hit only sometimes (the
 * server's delete-races test sends them).
 */
forEachDialect((h) => {
  describe("projects deleted meanwhile", () => {
    const dataDir = scratchDataDirs("kiln-deleted-meanwhile");
    const repositories = () => readdirSync(join(dataDir(), "repositories"));

    async function setup() {
      const disk = onDisk(h(), dataDir());
      const alice = await h().user("alice");
      const { project } = await disk.as(alice).projects.create({ name: "web", visibility_level: 20 });
      const group = await disk.as(alice).groups.create({ name: "team", path: "team", visibility_level: 20 });
      const plan = (extra: Partial<NewProjectPlan>): NewProjectPlan => ({
        namespace: group.group,
        name: "late",
        path: "late",
        visibility: Visibility.PUBLIC,
        description: null,
        importUrl: null,
        flags: {},
        creator: alice,
        ...extra,
      });
      const ctx: Context = {
        runtime: disk.runtime,
        actor: actorOf({ user: alice, method: "private_token" }),
        system: false,
      };
      return { disk, alice, project, group: group.group, plan, ctx };
    }

    it("gives a project read before its deletion no repository: 404, nothing on disk", async () => {
      const { disk, alice, project } = await setup();
      await disk.as(alice).projects.remove({ id: project.id });
      // Its repository was asked for after the project was read and before it was deleted.
      await expect(repositoryOf(disk.runtime, project)).rejects.toMatchObject({
        kind: "not_found",
        failure: { kind: "not_found", subject: "project" },
      });
      expect(repositories().filter((name) => !name.startsWith(".kiln-"))).toEqual([]);
    });

    it("answers a project deleted before it is presented (a change or a creation racing a deletion) as 404", async () => {
      const { disk, alice, project, ctx } = await setup();
      await disk.as(alice).projects.remove({ id: project.id });
      await expect(projectView(ctx, project)).rejects.toMatchObject({
        kind: "not_found",
        failure: { kind: "not_found", subject: "project" },
      });
    });

    it("answers a project in a group deleted since it was read as GitLab's invalid namespace", async () => {
      const { disk, alice, group, plan, ctx } = await setup();
      await disk.as(alice).groups.remove({ id: group.id });
      await expect(insertProject(ctx, plan({}))).rejects.toMatchObject({
        kind: "validation",
        fields: { namespace: ["is not valid"] },
      });
      expect(await h().runtime.stores.projects.idsInNamespace(group.id)).toEqual([]);
    });

    it("answers a fork of a project deleted since it was read as 404, and leaves no fork", async () => {
      const { disk, alice, project, plan, ctx } = await setup();
      await disk.as(alice).projects.remove({ id: project.id });
      await expect(insertProject(ctx, plan({ forkOf: project }))).rejects.toMatchObject({
        kind: "not_found",
        failure: { kind: "not_found", subject: "project" },
      });
      expect(repositories().filter((name) => !name.startsWith(".kiln-"))).toEqual([]);
      expect(existsSync(join(dataDir(), "repositories", `${project.id}.git`))).toBe(false);
    });
  });
});
