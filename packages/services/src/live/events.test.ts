import { TodoAction, type User } from "@kiln/domain";
import type { LiveEventJson } from "@kiln/schemas";
import { describe, expect, it, vi } from "vitest";
import { git, scratchDataDirs, seededProject } from "../__tests__/disk.js";
import { forEachDialect } from "../__tests__/harness.js";
import { actorOf } from "../auth/credentials.js";
import { mergeStatusRefresh } from "../merge-requests/refresh.js";
import { mergeWhenBuildSucceeds } from "../merge-requests/when-build-succeeds.js";
import { liveEventsOf } from "./events.js";
import { LiveHub } from "./hub.js";

type TodoChange = Extract<LiveEventJson, { kind: "todo" }>;

describe("the live stream's todos and merge statuses", () => {
  const dataDir = scratchDataDirs("kiln-live-events");
  forEachDialect((h) => {
    /** A seeded project, an outsider, and what each user's stream carries of the events written since `mark()`. */
    async function setup() {
      const seeded = await seededProject(h(), dataDir());
      const outsider = await h().user("outsider");
      const { stores } = seeded.runtime;
      let from = await stores.outbox.latestId();
      /** Forgets what was written so far: `streamOf` tells of what comes after. */
      const mark = async () => {
        from = await stores.outbox.latestId();
      };
      const contextOf = (user: User) => ({
        runtime: seeded.runtime,
        actor: actorOf({ user, method: "private_token" }),
        system: false,
      });
      const streamOf = async (user: User): Promise<LiveEventJson[]> => {
        const ctx = contextOf(user);
        const changes: LiveEventJson[] = [];
        for (const row of await stores.outbox.after(from, 1000)) {
          changes.push(...(await liveEventsOf(ctx, row, { projects: new Set() })));
        }
        return changes;
      };
      const todosOf = async (user: User) =>
        (await streamOf(user))
          .filter((change): change is TodoChange => change.kind === "todo")
          .map(({ action, todo }) => [action, todo.action_name, todo.target.title, todo.state]);
      return { ...seeded, outsider, mark, contextOf, streamOf, todosOf };
    }
    type Setup = Awaited<ReturnType<typeof setup>>;

    /** The developer's issue assigned to the owner: the owner's first todo. */
    const assignedIssue = async ({ as, developer, project, owner }: Setup, title = "Broken") =>
      (await as(developer).issues.create({ id: project.id, title, assignee_id: owner.id })).issue;

    /** A `topic` branch adding `file` (with `text`) to master, and the developer's merge request of it. */
    async function topicMergeRequest(seeded: Setup, assignee?: User, file = "a.txt", text = "topic\n") {
      const { gitDir, project, developer } = seeded;
      const tree = git(
        gitDir,
        ["mktree"],
        `100644 blob ${git(gitDir, ["hash-object", "-w", "--stdin"], text)}\t${file}\n`,
      );
      const topic = git(gitDir, ["commit-tree", tree, "-p", seeded.commit, "-m", "topic"]);
      git(gitDir, ["update-ref", "refs/heads/topic", topic]);
      const { mergeRequest } = await seeded.as(developer).mergeRequests.create({
        id: project.id,
        source_branch: "topic",
        target_branch: "master",
        title: "Topic",
        ...(assignee ? { assignee_id: assignee.id } : {}),
      });
      return { topic, mergeRequest };
    }

    it("tells the owner alone of a todo made by an assignment and by a mention", async () => {
      const seeded = await setup();
      const { as, developer, project, owner, outsider } = seeded;
      const issue = await assignedIssue(seeded);
      await as(developer).issueNotes.create({
        id: project.id,
        issue_id: issue.id,
        body: "@owner, see above",
      });
      // The assignment's todo is still pending, so the mention makes none; a second issue shows it.
      await as(developer).issues.create({ id: project.id, title: "Also", description: "@owner" });
      expect(await seeded.todosOf(owner)).toEqual([
        ["created", "assigned", "Broken", "pending"],
        ["created", "mentioned", "Also", "pending"],
      ]);
      for (const user of [developer, outsider]) expect(await seeded.todosOf(user)).toEqual([]);
    });

    it("tells of a todo marked done through the API, one at a time and all at once", async () => {
      const seeded = await setup();
      const { as, owner, developer } = seeded;
      await assignedIssue(seeded, "First");
      await assignedIssue(seeded, "Second");
      await assignedIssue(seeded, "Third");
      const pending = (await as(owner).todos.list({ page: 1, per_page: 20 })).items;
      await seeded.mark();
      await as(owner).todos.markDone({ id: pending[0]!.todo.id });
      // Marked again: nothing new to tell.
      await as(owner).todos.markDone({ id: pending[0]!.todo.id });
      expect(await seeded.todosOf(owner)).toEqual([["done", "assigned", "Third", "done"]]);
      await seeded.mark();
      expect(await as(owner).todos.markAllDone()).toBe(2);
      expect((await seeded.todosOf(owner)).sort()).toEqual([
        ["done", "assigned", "First", "done"],
        ["done", "assigned", "Second", "done"],
      ]);
      expect(await seeded.todosOf(developer)).toEqual([]);
    });

    it("tells of todos done when their target is closed, or when their owner acts on it", async () => {
      const seeded = await setup();
      const { as, owner, developer, project } = seeded;
      const closed = await assignedIssue(seeded, "Closed");
      const edited = await assignedIssue(seeded, "Edited");
      await seeded.mark();
      await as(developer).issues.edit({ id: project.id, issue_id: closed.id, state_event: "close" });
      await as(owner).issues.edit({ id: project.id, issue_id: edited.id, description: "Looked at it" });
      expect(await seeded.todosOf(owner)).toEqual([
        ["done", "assigned", "Closed", "done"],
        ["done", "assigned", "Edited", "done"],
      ]);
    });

    it("tells of a merge request's todo done when it is merged", async () => {
      const seeded = await setup();
      const { as, owner, developer, project } = seeded;
      const { topic, mergeRequest } = await topicMergeRequest(seeded, owner);
      expect(await seeded.todosOf(owner)).toEqual([["created", "assigned", "Topic", "pending"]]);
      await seeded.mark();
      await as(developer).mergeRequests.accept({
        id: project.id,
        merge_request_id: mergeRequest.id,
        sha: topic,
      });
      expect(await seeded.todosOf(owner)).toEqual([["done", "assigned", "Topic", "done"]]);
    });

    it("tells the owner of their todos done when the issue or merge request is deleted", async () => {
      const seeded = await setup();
      const { as, owner, developer, project } = seeded;
      const issue = await assignedIssue(seeded, "Doomed");
      const { mergeRequest } = await topicMergeRequest(seeded, owner);
      await seeded.mark();
      await as(owner).issues.remove({ id: project.id, issue_id: issue.id });
      await as(owner).mergeRequests.remove({ id: project.id, merge_request_id: mergeRequest.id });
      expect(await seeded.todosOf(owner)).toEqual([
        ["done", "assigned", "Doomed", "done"],
        ["done", "assigned", "Topic", "done"],
      ]);
      const told = (await seeded.streamOf(owner)).flatMap((change) =>
        change.kind === "todo" ? [[change.todo.target_type, change.todo.target.id]] : [],
      );
      expect(told).toEqual([
        ["Issue", issue.id],
        ["MergeRequest", mergeRequest.id],
      ]);
      expect(await seeded.todosOf(developer)).toEqual([]);
      expect((await as(owner).todos.list({ page: 1, per_page: 20 })).items).toEqual([]);
    });

    it("tells the author of a build_failed todo, and of it done once a build passes", async () => {
      const seeded = await setup();
      const { as, runtime, owner, developer, project } = seeded;
      const { topic } = await topicMergeRequest(seeded);
      const subscriber = mergeWhenBuildSucceeds(runtime);
      const post = async (state: "failed" | "success") => {
        const seen = seeded.events.length;
        await as(owner).commitStatuses.create({ id: project.id, sha: topic, ref: "topic", state });
        for (const event of seeded.events.slice(seen)) {
          if (event.kind === "pipeline") await subscriber.handle(event, 0);
        }
      };
      await seeded.mark();
      await post("failed");
      expect(await seeded.todosOf(developer)).toEqual([["created", "build_failed", "Topic", "pending"]]);
      await seeded.mark();
      await post("success");
      expect(await seeded.todosOf(developer)).toEqual([["done", "build_failed", "Topic", "done"]]);
      expect(await seeded.todosOf(owner)).toEqual([]);
      const [done] = (await as(developer).todos.list({ state: "done", page: 1, per_page: 20 })).items;
      expect(done?.todo.action).toBe(TodoAction.BUILD_FAILED);
    });

    it("tells the author, assignee and watchers of a merge status the push to its target changed, and nobody else", async () => {
      const seeded = await setup();
      const { as, runtime, owner, developer, project, gitDir, outsider } = seeded;
      const watcher = await h().user("watcher");
      await as(owner).projectMembers.add({ id: project.id, user_id: watcher.id, access_level: 20 });
      const { mergeRequest } = await topicMergeRequest(seeded, owner);
      await as(watcher).mergeRequests.subscribe({ id: project.id, merge_request_id: mergeRequest.id });
      expect(
        (await as(developer).mergeRequests.get({ id: project.id, merge_request_id: mergeRequest.id }))
          .mergeRequest.merge_status,
      ).toBe("can_be_merged");
      // Master changes the same file: the merge request now conflicts.
      const blob = git(gitDir, ["hash-object", "-w", "--stdin"], "master\n");
      const tree = git(gitDir, ["mktree"], `100644 blob ${blob}\ta.txt\n`);
      const before = seeded.commit;
      const after = git(gitDir, ["commit-tree", tree, "-p", before, "-m", "master"]);
      git(gitDir, ["update-ref", "refs/heads/master", after]);
      await seeded.mark();
      await mergeStatusRefresh(runtime).handle(
        {
          kind: "push",
          projectId: project.id,
          userId: owner.id,
          ref: "refs/heads/master",
          before,
          after,
          commits: [],
          totalCommits: 1,
        },
        0,
      );
      const statuses = async (user: User) =>
        (await seeded.streamOf(user)).flatMap((change) =>
          change.kind === "merge_request"
            ? [[change.merge_request.id, change.merge_request.merge_status]]
            : [],
        );
      for (const user of [developer, owner, watcher]) {
        expect(await statuses(user)).toEqual([[mergeRequest.id, "cannot_be_merged"]]);
      }
      expect(await statuses(outsider)).toEqual([]);
    });

    it("reads a merge request and its watchers once for all the streams of the process, and tells each caller what concerns them", async () => {
      const seeded = await setup();
      const { as, runtime, owner, developer, project, outsider } = seeded;
      const { mergeRequest } = await topicMergeRequest(seeded);
      await as(owner).mergeRequests.subscribe({ id: project.id, merge_request_id: mergeRequest.id });
      const hub = new LiveHub(runtime, { pollMs: 60_000 });
      try {
        await hub.ready;
        const start = hub.position;
        await as(developer).mergeRequests.update({
          id: project.id,
          merge_request_id: mergeRequest.id,
          title: "Renamed",
        });
        await hub.waitPast(start, 60_000);
        const rows = await hub.eventsAfter(start, 100);
        const findById = vi.spyOn(runtime.stores.mergeRequests, "findById");
        const choices = vi.spyOn(runtime.stores.subscriptions, "choices");
        const callers = [developer, owner, outsider, outsider, outsider];
        const told = await Promise.all(
          callers.map(async (user) => {
            const changes = [];
            for (const row of rows) {
              const filter = { projects: new Set<number>() };
              changes.push(
                ...(await liveEventsOf(seeded.contextOf(user), row, filter, hub.sharedReadsOf(row))),
              );
            }
            return changes.flatMap((change) =>
              change.kind === "merge_request" ? [change.merge_request.title] : [],
            );
          }),
        );
        expect(told).toEqual([["Renamed"], ["Renamed"], [], [], []]);
        const mergeRequestEvents = rows.filter((row) => row.kind === "merge_request").length;
        expect(mergeRequestEvents).toBe(1);
        // Whom it concerns is read once, whatever the number of streams; each caller told still
        // reads the merge request as their GET does.
        expect(choices).toHaveBeenCalledTimes(1);
        expect(findById).toHaveBeenCalledTimes(1 + 2);
      } finally {
        vi.restoreAllMocks();
        await hub.stop();
      }
    });
  });
});
