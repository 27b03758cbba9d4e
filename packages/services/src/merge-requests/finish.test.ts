import { EventAction, type MergeRequest, type User } from "@kiln/domain";
import { landMerge, writeMergeCommit } from "@kiln/git";
import type { MergeIntent } from "@kiln/storage-kysely";
import { describe, expect, it } from "vitest";
import { git, type OnDisk, onDisk, outcome, scratchDataDirs, seededProject } from "../__tests__/disk.js";
import { forEachDialect } from "../__tests__/harness.js";
import { finishInterruptedMerges } from "./finish.js";

forEachDialect((h) => {
  describe("merges cut short and merges racing from several processes (services)", () => {
    const dataDir = scratchDataDirs("kiln-finish");

    /** The seeded project, with helpers to open merge requests and to leave merges cut short. */
    async function seeded() {
      const disk = await seededProject(h(), dataDir());
      const { owner, developer, project, gitDir, commit: base } = disk;

      /** A branch off master adding `file`, and a merge request of it into master by the developer. */
      async function topic(branch: string, file: string, content = `${branch}\n`, description?: string) {
        const blob = git(gitDir, ["hash-object", "-w", "--stdin"], content);
        const tree = git(gitDir, ["mktree"], `100644 blob ${blob}\t${file}\n`);
        const head = git(gitDir, ["commit-tree", tree, "-p", base, "-m", `add ${file}`]);
        git(gitDir, ["update-ref", `refs/heads/${branch}`, head]);
        const view = await disk.as(developer).mergeRequests.create({
          id: project.id,
          source_branch: branch,
          target_branch: "master",
          title: `Merge ${branch}`,
          ...(description ? { description } : {}),
        });
        return { mr: view.mergeRequest, head };
      }

      /**
       * What an accept leaves when the process dies before recording the merge: the merge commit
       * written, the intent recorded, and (with `landed`) the target moved to the commit.
       */
      async function cutShort(
        mr: MergeRequest,
        head: string,
        merger: User,
        landed: boolean,
        closing: number[] = [],
      ) {
        const written = await writeMergeCommit(gitDir, {
          target: "master",
          source: head,
          message: `Merge ${mr.source_branch}`,
          author: { name: merger.name, email: merger.email },
        });
        const intent = await h().runtime.stores.mergeIntents.record({
          merge_request_id: mr.id,
          target_branch: "master",
          previous_sha: written.previous,
          commit_sha: written.commit,
          source_sha: head,
          user_id: merger.id,
          remove_source_branch: true,
          closing_issue_ids: closing,
        });
        if (landed) await landMerge(gitDir, "master", written);
        return { intent, written };
      }

      const feed = async () =>
        (await h().runtime.stores.events.listForProject(project.id, { page: 1, perPage: 100 })).items;
      const ref = (mr: MergeRequest) => ({ id: project.id, merge_request_id: mr.id });
      return { disk, owner, developer, project, gitDir, base, topic, cutShort, feed, ref };
    }

    /** The kinds and actions of the domain events a runtime raised. */
    const raised = (disk: OnDisk) =>
      disk.events.map((event) => ("action" in event ? `${event.kind} ${event.action}` : event.kind));

    it("finishes at start a merge whose target moved before the crash: merged, issues closed, events once", async () => {
      const { disk, owner, developer, project, gitDir, topic, cutShort, feed, ref } = await seeded();
      const issue = await disk.as(owner).issues.create({ id: project.id, title: "A bug" });
      const { mr, head } = await topic("fix", "fix.txt", "fix\n", `Closes #${issue.issue.iid}`);
      const { written } = await cutShort(mr, head, developer, true, [issue.issue.id]);
      const feedBefore = await feed();

      // The next start: a new process on the same data.
      const restarted = onDisk(h(), dataDir());
      expect(await finishInterruptedMerges(restarted.runtime)).toEqual({
        finished: 1,
        dropped: 0,
        failed: [],
      });
      const merged = await restarted.as(developer).mergeRequests.get(ref(mr));
      expect(merged.mergeRequest).toMatchObject({
        state: "merged",
        merge_commit_sha: written.commit,
        should_remove_source_branch: true,
      });
      expect(
        (await restarted.as(owner).issues.get({ id: project.id, issue_id: issue.issue.id })).issue.state,
      ).toBe("closed");
      // The source branch went, as the accept asked.
      expect(git(gitDir, ["for-each-ref", "--format=%(refname)", "refs/heads/fix"])).toBe("");
      const feedAfter = await feed();
      // The feed is newest first.
      const added = feedAfter.slice(0, feedAfter.length - feedBefore.length);
      expect(added.map((event) => [event.action, event.target_type, event.author_id]).sort()).toEqual(
        [
          [EventAction.CLOSED, "Issue", developer.id],
          [EventAction.MERGED, "MergeRequest", developer.id],
          [EventAction.PUSHED, null, developer.id],
          [EventAction.PUSHED, null, developer.id],
        ].sort(),
      );
      expect(raised(restarted).sort()).toEqual(["issue close", "merge_request merge", "push", "push"]);

      // Another start (or another process) finds nothing left; accepting again is 406.
      const again = onDisk(h(), dataDir());
      expect(await finishInterruptedMerges(again.runtime)).toEqual({ finished: 0, dropped: 0, failed: [] });
      expect(await outcome(() => again.as(developer).mergeRequests.accept(ref(mr)))).toBe(
        "PRECONDITION_FAILED",
      );
      expect(await feed()).toHaveLength(added.length + feedBefore.length);
      expect(again.events).toEqual([]);
    });

    it("drops a merge whose target never moved: the merge request stays open and merges when accepted", async () => {
      const { developer, gitDir, base, topic, cutShort, ref } = await seeded();
      const { mr, head } = await topic("feature", "feature.txt");
      await cutShort(mr, head, developer, false);

      const restarted = onDisk(h(), dataDir());
      expect(await finishInterruptedMerges(restarted.runtime)).toEqual({
        finished: 0,
        dropped: 1,
        failed: [],
      });
      expect(await h().runtime.stores.mergeIntents.all()).toEqual([]);
      expect((await restarted.as(developer).mergeRequests.get(ref(mr))).mergeRequest.state).toBe("opened");
      expect(git(gitDir, ["rev-parse", "master"])).toBe(base);

      const accepted = await restarted.as(developer).mergeRequests.accept(ref(mr));
      expect(accepted.mergeRequest.state).toBe("merged");
      expect(git(gitDir, ["rev-parse", "master"])).toBe(accepted.mergeRequest.merge_commit_sha);
      expect(git(gitDir, ["log", "-1", "--format=%P", "master"])).toBe(`${base} ${head}`);
    });

    it("finishes a merge cut short when the merge request is next read, or next accepted", async () => {
      const { developer, topic, cutShort, ref } = await seeded();
      const read = await topic("read", "read.txt");
      const { written } = await cutShort(read.mr, read.head, developer, true);
      const restarted = onDisk(h(), dataDir());
      expect((await restarted.as(developer).mergeRequests.get(ref(read.mr))).mergeRequest).toMatchObject({
        state: "merged",
        merge_commit_sha: written.commit,
      });

      const accepted = await topic("accepted", "accepted.txt");
      const second = await cutShort(accepted.mr, accepted.head, developer, true);
      expect(await outcome(() => restarted.as(developer).mergeRequests.accept(ref(accepted.mr)))).toBe(
        "PRECONDITION_FAILED",
      );
      expect((await restarted.as(developer).mergeRequests.get(ref(accepted.mr))).mergeRequest).toMatchObject({
        state: "merged",
        merge_commit_sha: second.written.commit,
      });
      expect(raised(restarted).filter((event) => event === "merge_request merge")).toHaveLength(2);
    });

    it("records a merge once when two processes finish it at the same time", async () => {
      const { developer, topic, cutShort, feed, ref } = await seeded();
      const { mr, head } = await topic("twice", "twice.txt");
      await cutShort(mr, head, developer, true);
      const processes = [onDisk(h(), dataDir()), onDisk(h(), dataDir()), onDisk(h(), dataDir())];
      const reports = await Promise.all(processes.map((one) => finishInterruptedMerges(one.runtime)));
      expect(reports.reduce((sum, report) => sum + report.finished, 0)).toBe(1);
      const merges = (await feed()).filter((event) => event.action === EventAction.MERGED);
      expect(merges.map((event) => event.target_id)).toEqual([mr.id]);
      expect(processes.flatMap(raised).filter((event) => event === "merge_request merge")).toHaveLength(1);
      expect((await processes[0]?.as(developer).mergeRequests.get(ref(mr)))?.mergeRequest.state).toBe(
        "merged",
      );
    });

    it("merges every merge request accepted into one target from two processes at once, on the new head each time", async () => {
      const { developer, gitDir, base, topic, ref } = await seeded();
      const processes = [onDisk(h(), dataDir()), onDisk(h(), dataDir())];
      const topics = [];
      for (const name of ["a", "b", "c", "d"]) topics.push(await topic(name, `${name}.txt`));
      const clash = [await topic("x", "clash.txt", "one\n"), await topic("y", "clash.txt", "two\n")];
      const all = [...topics, ...clash];
      const results = await Promise.all(
        all.map((one, index) =>
          outcome(() => (processes[index % 2] as OnDisk).as(developer).mergeRequests.accept(ref(one.mr))),
        ),
      );
      expect(results.slice(0, topics.length)).toEqual(topics.map(() => "ok"));
      expect(results.slice(topics.length).sort()).toEqual(["METHOD_NOT_SUPPORTED", "ok"]);
      const merged = all.filter((_, index) => results[index] === "ok");
      for (const one of merged) git(gitDir, ["merge-base", "--is-ancestor", one.head, "master"]);
      expect(git(gitDir, ["rev-list", "--merges", "--count", `${base}..master`])).toBe(String(merged.length));
      expect(await h().runtime.stores.mergeIntents.all()).toEqual<MergeIntent[]>([]);
    }, 60_000);
  });
});
