import { ZERO_SHA } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { git, outcome, scratchDataDirs, seededProject } from "../__tests__/disk.js";
import { forEachDialect } from "../__tests__/harness.js";

forEachDialect((h) => {
  describe("repository branches and tags (services)", () => {
    const dataDir = scratchDataDirs("kiln-branches");
    const seeded = () => seededProject(h(), dataDir());

    it("emits a push domain event for each branch and tag made or removed through the API", async () => {
      const { as, owner, project, events, commit } = await seeded();
      await as(owner).repositoryBranches.create({ id: project.id, branch_name: "topic", ref: "master" });
      await as(owner).repositoryTags.create({ id: project.id, tag_name: "v1", ref: "topic" });
      await as(owner).repositoryBranches.remove({ id: project.id, branch: "topic" });
      await as(owner).repositoryTags.remove({ id: project.id, tag_name: "v1" });
      const pushes = events.filter((event) => event.kind === "push");
      expect(pushes.map((event) => [event.ref, event.before, event.after, event.userId])).toEqual([
        ["refs/heads/topic", ZERO_SHA, commit, owner.id],
        ["refs/tags/v1", ZERO_SHA, commit, owner.id],
        ["refs/heads/topic", commit, ZERO_SHA, owner.id],
        ["refs/tags/v1", commit, ZERO_SHA, owner.id],
      ]);
    });

    it("keeps an archived project's refs as they are: developers may read but not change them", async () => {
      const { as, owner, developer, project } = await seeded();
      await as(owner).projects.archive({ id: project.id });
      const dev = as(developer);
      expect((await dev.repositoryBranches.list({ id: project.id })).map((branch) => branch.name)).toEqual([
        "master",
      ]);
      expect(
        await outcome(() =>
          dev.repositoryBranches.create({ id: project.id, branch_name: "x", ref: "master" }),
        ),
      ).toBe("FORBIDDEN");
      expect(
        await outcome(() => dev.repositoryTags.create({ id: project.id, tag_name: "x", ref: "master" })),
      ).toBe("FORBIDDEN");
    });

    it("answers a tag of a tree with no commit instead of failing the whole list", async () => {
      const { as, owner, project, gitDir, tree, commit } = await seeded();
      git(gitDir, ["tag", "tree-tag", tree]);
      git(gitDir, ["tag", "commit-tag", commit]);
      const tags = await as(owner).repositoryTags.list({ id: project.id });
      expect(tags.map((tag) => [tag.name, tag.commit?.id ?? null])).toEqual([
        ["tree-tag", null],
        ["commit-tag", commit],
      ]);
    });

    it("changes the default branch only to a branch the repository has, moving HEAD with it", async () => {
      const { as, owner, project, gitDir } = await seeded();
      await as(owner).repositoryBranches.create({ id: project.id, branch_name: "next", ref: "master" });
      const moved = await as(owner).projects.update({ id: project.id, default_branch: "next" });
      expect(moved.project.default_branch).toBe("next");
      expect(git(gitDir, ["symbolic-ref", "HEAD"])).toBe("refs/heads/next");
      const kept = await as(owner).projects.update({ id: project.id, default_branch: "nowhere" });
      expect(kept.project.default_branch).toBe("next");
      expect(git(gitDir, ["symbolic-ref", "HEAD"])).toBe("refs/heads/next");
    });
  });
});
