import { describe, expect, it } from "vitest";
import { actingAs, refusedFor } from "../__tests__/acting.js";
import { git, scratchDataDirs, seededProject } from "../__tests__/disk.js";
import { forEachDialect } from "../__tests__/harness.js";
import { requestBuild } from "./claim.js";
import { registerRunner, registrationToken } from "./runners.js";
import { triggers } from "./triggers.operations.js";

const CI_FILE = `
build:
  script: make
  except: [triggers]
deploy:
  script: make deploy
  only: [triggers]
`;

describe("build triggers /projects/:id/triggers and /trigger/builds", () => {
  const dataDir = scratchDataDirs("kiln-triggers");
  forEachDialect((h) => {
    const setup = async () => {
      const seeded = await seededProject(h(), dataDir());
      const { owner, project, gitDir, commit } = seeded;
      // A tag on the first commit, which has no .gitlab-ci.yml; master gets one.
      git(gitDir, ["update-ref", "refs/tags/v0", commit]);
      await seeded.as(owner).repositoryFiles.create({
        id: project.id,
        file_path: ".gitlab-ci.yml",
        branch_name: "master",
        commit_message: "ci",
        content: CI_FILE,
      });
      return seeded;
    };

    it("makes, lists, reads and deletes triggers for masters; developers are refused", async () => {
      const { runtime, owner, developer, project } = await setup();
      const asOwner = actingAs(runtime, owner);
      const made = await asOwner(triggers.create, { id: project.id });
      expect(made.token).toMatch(/^[0-9a-f]{30}$/);
      // Kept as a digest and a seal: the database never holds the token itself.
      const [row] = await runtime.stores.ciTriggers.list(project.id);
      expect(JSON.stringify(row)).not.toContain(made.token);
      expect((await asOwner(triggers.list, { id: project.id })).items.map((t) => t.token)).toEqual([
        made.token,
      ]);
      expect((await asOwner(triggers.get, { id: project.id, token: made.token })).trigger.id).toBe(row?.id);
      await expect(actingAs(runtime, developer)(triggers.list, { id: project.id })).rejects.toMatchObject({
        kind: "forbidden",
      });
      const deleted = await asOwner(triggers.remove, { id: project.id, token: made.token });
      expect(deleted.trigger.deleted_at).not.toBeNull();
      await expect(asOwner(triggers.get, { id: project.id, token: made.token })).rejects.toMatchObject({
        failure: { kind: "not_found", subject: "trigger" },
      });
      await expect(
        actingAs(runtime, null)(triggers.trigger, { id: project.id, token: made.token, ref: "master" }),
      ).rejects.toMatchObject({ kind: "not_found" });
    });

    it("builds the ref's head for a trigger: only: [triggers] jobs, with the trigger's variables", async () => {
      const { runtime, owner, project } = await setup();
      const { token } = await actingAs(runtime, owner)(triggers.create, { id: project.id });
      const request = await actingAs(runtime, null)(triggers.trigger, {
        id: project.id,
        token,
        ref: "master",
        variables: { DEPLOY_TO: "production" },
      });
      expect(request.variables).toEqual({ DEPLOY_TO: "production" });
      const pipeline = await runtime.stores.ciPipelines.find(request.id);
      expect(pipeline).toMatchObject({ source: "trigger", ref: "master", user_id: null });
      const builds = await runtime.stores.ciBuilds.ofPipeline(request.id);
      expect(builds.map((build) => build.name)).toEqual(["deploy"]);
      const runner = await registerRunner(runtime, { token: await registrationToken(runtime) });
      const claimed = await requestBuild(runtime, runner.token, { waitMs: 0 });
      expect(claimed?.build.name).toBe("deploy");
      expect(claimed?.variables).toContainEqual({ key: "CI_BUILD_TRIGGERED", value: "true", public: true });
      expect(claimed?.variables.at(-1)).toEqual({ key: "DEPLOY_TO", value: "production", public: false });
      const [used] = await runtime.stores.ciTriggers.list(project.id);
      expect(used?.last_used_at).not.toBeNull();
    });

    it("refuses as 8.x: unknown token 404, another project's 401, no ref or file 400, non-string variables 400", async () => {
      const seeded = await setup();
      const { runtime, owner, project } = seeded;
      const asOwner = actingAs(runtime, owner);
      const { token } = await asOwner(triggers.create, { id: project.id });
      const { project: other } = await seeded.as(owner).projects.create({ name: "other" });
      const { token: otherToken } = await asOwner(triggers.create, { id: other.id });
      const trigger = (input: Record<string, unknown>) =>
        actingAs(runtime, null)(triggers.trigger, { id: project.id, token, ref: "master", ...input });
      await expect(trigger({ token: "f".repeat(30) })).rejects.toMatchObject({
        failure: { kind: "not_found" },
      });
      await expect(trigger({ id: 999_999 })).rejects.toMatchObject({ failure: { kind: "not_found" } });
      await expect(trigger({ token: otherToken })).rejects.toMatchObject({ kind: "unauthenticated" });
      await expect(trigger({ ref: "nope" })).rejects.toMatchObject(refusedFor("trigger_no_builds"));
      await expect(trigger({ ref: "v0" })).rejects.toMatchObject(refusedFor("trigger_no_builds"));
      await expect(trigger({ variables: { A: ["x"] } })).rejects.toMatchObject(
        refusedFor("trigger_variables_invalid"),
      );
      await seeded.as(owner).projects.update({ id: project.id, builds_enabled: false });
      await expect(trigger({})).rejects.toMatchObject(refusedFor("trigger_no_builds"));
      expect(await runtime.stores.ciPipelines.list(project.id, null, { page: 1, perPage: 5 })).toMatchObject({
        total: 0,
      });
    });
  });
});
