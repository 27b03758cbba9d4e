import type { User } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { actingAs, refusedFor } from "../__tests__/acting.js";
import { scratchDataDirs, seededProject } from "../__tests__/disk.js";
import { forEachDialect } from "../__tests__/harness.js";
import type { ServiceRuntime } from "../runtime.js";
import { registerRunner, registrationToken } from "./runners.js";
import { runners } from "./runners.operations.js";

/** A project's runners token, opened. */
async function runnersTokenOf(runtime: ServiceRuntime, projectId: number): Promise<string> {
  const sealed = (await runtime.stores.projects.sealedRunnersTokens([projectId])).get(projectId);
  if (!sealed) throw new Error("no runners token");
  return runtime.secrets.open(sealed);
}

describe("runners /runners and /projects/:id/runners", () => {
  const dataDir = scratchDataDirs("kiln-runners");
  forEachDialect((h) => {
    const setup = async () => {
      const seeded = await seededProject(h(), dataDir());
      const { runtime, owner, project } = seeded;
      const admin = await h().user("boss", { admin: true });
      const outsider = await h().user("outsider");
      const specific = await registerRunner(runtime, {
        token: await runnersTokenOf(runtime, project.id),
        description: "mine",
      });
      const shared = await registerRunner(runtime, { token: await registrationToken(runtime) });
      const { project: other } = await seeded.as(owner).projects.create({ name: "other" });
      return { ...seeded, admin, outsider, specific, shared, other };
    };

    it("lists the runners of projects one masters, every runner for administrators, a project's with the shared ones", async () => {
      const { runtime, owner, developer, admin, specific, shared, project } = await setup();
      const ids = (page: { items: { id: number }[] }) => page.items.map((runner) => runner.id);
      expect(ids(await actingAs(runtime, owner)(runners.own, {}))).toEqual([specific.runner.id]);
      expect(ids(await actingAs(runtime, owner)(runners.own, { scope: "paused" }))).toEqual([]);
      expect(ids(await actingAs(runtime, developer)(runners.own, {}))).toEqual([]);
      // Administrators list their own like anyone; every runner is /runners/all, theirs alone.
      expect(ids(await actingAs(runtime, admin)(runners.own, {}))).toEqual([]);
      expect(ids(await actingAs(runtime, admin)(runners.all, { scope: "shared" }))).toEqual([
        shared.runner.id,
      ]);
      await expect(actingAs(runtime, owner)(runners.all, {})).rejects.toMatchObject({ kind: "forbidden" });
      expect(ids(await actingAs(runtime, owner)(runners.ofProject, { id: project.id }))).toEqual([
        specific.runner.id,
        shared.runner.id,
      ]);
      await expect(actingAs(runtime, developer)(runners.ofProject, { id: project.id })).rejects.toMatchObject(
        { kind: "forbidden" },
      );
    });

    it("shows a runner's details and token only to those allowed, as 8.x", async () => {
      const { runtime, owner, developer, admin, outsider, specific, shared, project } = await setup();
      const mine = await actingAs(runtime, owner)(runners.get, { id: specific.runner.id });
      expect(mine.token).toBe(specific.token);
      expect(mine.projects.map((p) => p.project.id)).toEqual([project.id]);
      // A shared runner is shown to anyone signed in, without its token but to administrators.
      const seen = await actingAs(runtime, outsider)(runners.get, { id: shared.runner.id });
      expect(seen.token).toBeNull();
      expect((await actingAs(runtime, admin)(runners.get, { id: shared.runner.id })).token).toBe(
        shared.token,
      );
      // A developer of the project does not manage its runner.
      await expect(
        actingAs(runtime, developer)(runners.get, { id: specific.runner.id }),
      ).rejects.toMatchObject(refusedFor("runner_no_access"));
      await expect(actingAs(runtime, owner)(runners.get, { id: 999_999 })).rejects.toMatchObject(
        refusedFor("runner_missing"),
      );
    });

    it("changes a runner for its masters, refuses shared runners and a runner that could run nothing", async () => {
      const { runtime, owner, developer, admin, specific, shared } = await setup();
      const changed = await actingAs(runtime, owner)(runners.update, {
        id: specific.runner.id,
        description: "renamed",
        active: false,
        tag_list: ["docker, linux", "docker"],
      });
      expect(changed.runner).toMatchObject({
        description: "renamed",
        active: false,
        tag_list: ["docker", "linux"],
      });
      await expect(
        actingAs(runtime, owner)(runners.update, {
          id: specific.runner.id,
          tag_list: [],
          run_untagged: false,
        }),
      ).rejects.toMatchObject({
        fields: { tags_list: ["can not be empty when runner is not allowed to pick untagged jobs"] },
      });
      await expect(
        actingAs(runtime, owner)(runners.update, { id: shared.runner.id, description: "x" }),
      ).rejects.toMatchObject(refusedFor("runner_shared"));
      await expect(
        actingAs(runtime, developer)(runners.update, { id: specific.runner.id, description: "x" }),
      ).rejects.toMatchObject(refusedFor("runner_no_access"));
      const locked = await actingAs(runtime, admin)(runners.update, { id: shared.runner.id, locked: true });
      expect(locked.runner.locked).toBe(true);
    });

    it("enables and disables a runner on projects, and removes it only from one project", async () => {
      const { runtime, owner, developer, admin, outsider, specific, shared, project, other } = await setup();
      const id = specific.runner.id;
      const enable = (user: User, projectId: number, runnerId = id) =>
        actingAs(runtime, user)(runners.enable, { id: projectId, runner_id: runnerId });
      const disable = (user: User, projectId: number) =>
        actingAs(runtime, user)(runners.disable, { id: projectId, runner_id: id });
      expect((await enable(owner, other.id)).id).toBe(id);
      await expect(enable(owner, other.id)).rejects.toMatchObject(refusedFor("runner_already_enabled"));
      await expect(enable(admin, other.id, shared.runner.id)).rejects.toMatchObject(
        refusedFor("runner_shared"),
      );
      await expect(enable(outsider, other.id)).rejects.toMatchObject({ kind: "not_found" });
      await expect(disable(developer, project.id)).rejects.toMatchObject({ kind: "forbidden" });
      // Several projects: removing the runner is for administrators; disabling it on one is fine.
      await expect(actingAs(runtime, owner)(runners.remove, { id })).rejects.toMatchObject(
        refusedFor("runner_many_projects"),
      );
      await disable(owner, other.id);
      await expect(disable(owner, other.id)).rejects.toMatchObject({
        failure: { kind: "not_found", subject: "runner" },
      });
      await expect(disable(owner, project.id)).rejects.toMatchObject(refusedFor("runner_last_project"));
      await actingAs(runtime, admin)(runners.update, { id, locked: true });
      await expect(enable(owner, other.id)).rejects.toMatchObject(refusedFor("runner_locked"));
      expect((await actingAs(runtime, owner)(runners.remove, { id })).id).toBe(id);
      expect(await runtime.stores.ciRunners.find(id)).toBeUndefined();
    });
  });
});
