import { describe, expect, it } from "vitest";
import { git, onDisk, scratchDataDirs, seededProject } from "../__tests__/disk.js";
import { forEachDialect } from "../__tests__/harness.js";
import type { PipelineEvent } from "../domain-events.js";
import { OutboxDispatcher } from "../outbox/dispatcher.js";
import { mergeWhenBuildSucceeds } from "./when-build-succeeds.js";

/** Polls `probe` until it answers true, failing after `ms`. */
async function until(probe: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) expect.fail("the condition did not hold in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type Seeded = Awaited<ReturnType<typeof seededProject>>;

/** A `topic` branch one commit ahead of master, and the developer's merge request of it. */
async function topicMergeRequest(seeded: Seeded) {
  const { gitDir, project, developer } = seeded;
  const topic = git(gitDir, ["commit-tree", seeded.tree, "-p", seeded.commit, "-m", "topic"]);
  git(gitDir, ["update-ref", "refs/heads/topic", topic]);
  const { mergeRequest: mr } = await seeded.as(developer).mergeRequests.create({
    id: project.id,
    source_branch: "topic",
    target_branch: "master",
    title: "Topic",
  });
  return { topic, mr };
}

describe("merge when the build succeeds, from the outbox", () => {
  const dataDir = scratchDataDirs("kiln-mwbs");
  forEachDialect((h) => {
    it("merges after a restart when the pipeline succeeded before the subscriber ran, once however often it runs", async () => {
      const seeded = await setup();
      const { runtime, project, owner, developer, gitDir } = seeded;
      const { topic, mr } = await topicMergeRequest(seeded);
      const status = { id: project.id, sha: topic, ref: "topic", name: "ci" };
      await seeded.as(developer).commitStatuses.create({ ...status, state: "running" });
      const set = await seeded.as(owner).mergeRequests.accept({
        id: project.id,
        merge_request_id: mr.id,
        merge_when_build_succeeds: true,
        merge_commit_message: "Merged by the build",
      });
      expect(set.mergeRequest).toMatchObject({
        state: "opened",
        merge_when_build_succeeds: true,
        merge_user_id: owner.id,
      });

      // The pipeline succeeds and the process stops before any subscriber ran: nothing merged.
      await seeded.as(developer).commitStatuses.create({ ...status, state: "success" });
      const succeeded = seeded.events.find(
        (event): event is PipelineEvent => event.kind === "pipeline" && event.status === "success",
      );
      expect(succeeded).toBeDefined();
      expect((await runtime.stores.mergeRequests.findById(mr.id))?.state).toBe("opened");

      // Another process starts: its dispatcher hands the kept event to the subscriber.
      const restarted = onDisk(h(), dataDir());
      const dispatcher = new OutboxDispatcher(restarted.runtime, { pollMs: 20 });
      dispatcher.subscribe(mergeWhenBuildSucceeds(restarted.runtime));
      await dispatcher.start();
      try {
        await until(async () => (await runtime.stores.mergeRequests.findById(mr.id))?.state === "merged");
      } finally {
        await dispatcher.stop();
      }
      const head = git(gitDir, ["rev-parse", "master"]);
      expect(git(gitDir, ["log", "-1", "--format=%s%n%P", head])).toBe(
        `Merged by the build\n${seeded.commit} ${topic}`,
      );

      // At least once: the same event handled again merges nothing more.
      await mergeWhenBuildSucceeds(restarted.runtime).handle(succeeded as PipelineEvent, 0);
      expect(git(gitDir, ["rev-parse", "master"])).toBe(head);
    });

    it("gives the author a build_failed todo when the head's pipeline fails, done once it succeeds", async () => {
      const seeded = await setup();
      const { runtime, project, owner, developer } = seeded;
      const { topic, mr } = await topicMergeRequest(seeded);
      const subscriber = mergeWhenBuildSucceeds(runtime);
      /** Posts a status as the owner and hands the pipeline events it raised to the subscriber. */
      const post = async (state: "failed" | "success") => {
        const seen = seeded.events.length;
        await seeded.as(owner).commitStatuses.create({ id: project.id, sha: topic, ref: "topic", state });
        for (const event of seeded.events.slice(seen)) {
          if (event.kind === "pipeline") await subscriber.handle(event, 0);
        }
      };
      const todos = async () => {
        const listed = async (state: "pending" | "done") =>
          (await seeded.as(developer).todos.list({ state, page: 1, per_page: 20 })).items.map((view) => [
            view.todo.action,
            view.todo.state,
          ]);
        return [...(await listed("pending")), ...(await listed("done"))];
      };

      await post("failed");
      expect(await todos()).toEqual([[3, "pending"]]);
      // Handled again (at least once), or failing again: still one todo.
      await post("failed");
      expect(await todos()).toEqual([[3, "pending"]]);
      await post("success");
      expect(await todos()).toEqual([[3, "done"]]);
      expect((await runtime.stores.mergeRequests.findById(mr.id))?.state).toBe("opened");
    });

    const setup = () => seededProject(h(), dataDir());
  });
});
