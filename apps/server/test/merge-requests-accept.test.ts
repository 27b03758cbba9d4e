import type { BranchJson, IssueJson, MergeRequestJson, ProjectJson } from "@kiln/schemas";
import { git, repositoryPath } from "@kiln/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import {
  commitTo,
  headOf,
  type MergeFixture,
  mergeFixture,
  openMergeRequest,
} from "./merge-requests-support.js";
import { onEachDatabase } from "./support.js";

type Reply = MergeRequestJson & { message?: unknown };

onEachDatabase("accepting merge requests", (ctx) => {
  let fx: MergeFixture;
  beforeAll(async () => {
    fx = await mergeFixture(ctx(), "mra");
  });
  const people = () => fx.cast.people;
  const id = () => fx.project.id;
  const MRS = () => `/projects/${id()}/merge_requests`;
  let branches = 0;

  /**
   * A target branch of its own off master and a topic branch setting `file` to `content`, and a merge request
   * between them opened by the developer. Answers the merge request and both branch names.
   */
  async function prepare(
    options: { title?: string; description?: string; target?: string; file?: string; content?: string } = {},
  ) {
    branches += 1;
    const target = options.target ?? `target-${branches}`;
    if (options.target === undefined) commitTo(fx.repo, target, {}, { from: "master", message: "Target\n" });
    const base = headOf(fx.repo, target) as string;
    const source = `source-${branches}`;
    const head = commitTo(
      fx.repo,
      source,
      { [options.file ?? `file-${branches}.txt`]: options.content ?? "content\n" },
      { from: target },
    );
    const res = await openMergeRequest(ctx(), id(), people().developer, {
      source_branch: source,
      target_branch: target,
      title: options.title ?? `Topic ${branches}`,
      ...(options.description ? { description: options.description } : {}),
    });
    expect(res.status).toBe(200);
    return { mr: res.body, source, target, head, base };
  }
  const accept = (mrId: number, user = people().developer, json: Record<string, unknown> = {}) =>
    ctx().api<Reply>({ method: "PUT", path: `${MRS()}/${mrId}/merge`, token: user.token, json });
  const cancel = (mrId: number, user = people().developer) =>
    ctx().api<Reply>({
      method: "PUT",
      path: `${MRS()}/${mrId}/cancel_merge_when_build_succeeds`,
      token: user.token,
    });
  /** How many merge commits `branch` gained since `base`. */
  const mergesOn = (branch: string, base: string) =>
    Number(git(["rev-list", "--merges", "--count", `${base}..${branch}`], fx.repo).trim());

  describe("refusals, in the spec's order", () => {
    it("answers 401 to those who may not merge", async () => {
      const { mr } = await prepare();
      for (const user of [people().reporter, people().guest]) {
        const res = await accept(mr.id, user);
        expect(res).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
      }
      expect((await accept(mr.id, people().outsider)).status).toBe(404);
    });

    it("answers 401 to a developer when the target is protected, unless developers may merge", async () => {
      const { mr, target } = await prepare();
      const protect = (json: Record<string, unknown>) =>
        ctx().api({
          method: "PUT",
          path: `/projects/${id()}/repository/branches/${target}/protect`,
          token: people().master.token,
          json,
        });
      expect((await protect({})).status).toBe(200);
      expect((await accept(mr.id)).status).toBe(401);
      expect((await protect({ developers_can_merge: true })).status).toBe(200);
      expect((await accept(mr.id)).body.state).toBe("merged");
    });

    it("answers 405 for conflicts and for a work in progress", async () => {
      const base = await prepare({ file: "shared.txt" });
      // Another change of the same file lands on the target first.
      commitTo(fx.repo, base.target, { "shared.txt": "something else\n" });
      const conflicting = await accept(base.mr.id);
      expect(conflicting).toMatchObject({ status: 405, body: { message: "Branch cannot be merged" } });
      const shown = await ctx().api<Reply>({
        path: `${MRS()}/${base.mr.id}`,
        token: people().developer.token,
      });
      expect(shown.body.merge_status).toBe("cannot_be_merged");

      const wip = await prepare({ title: "WIP: not yet" });
      expect(await accept(wip.mr.id)).toMatchObject({
        status: 405,
        body: { message: "Branch cannot be merged" },
      });
    });

    it("answers 406 when closed or merged already", async () => {
      const { mr } = await prepare();
      await ctx().api({
        method: "PUT",
        path: `${MRS()}/${mr.id}`,
        token: people().developer.token,
        json: { state_event: "close" },
      });
      expect(await accept(mr.id)).toMatchObject({ status: 406, body: { message: "Method Not Allowed" } });

      const other = await prepare();
      expect((await accept(other.mr.id)).status).toBe(200);
      expect(await accept(other.mr.id)).toMatchObject({
        status: 406,
        body: { message: "Method Not Allowed" },
      });
    });

    it("answers 409 when sha is not the source head", async () => {
      const { mr, head, target, base } = await prepare();
      const res = await accept(mr.id, people().developer, { sha: "0".repeat(40) });
      expect(res).toMatchObject({
        status: 409,
        body: { message: "SHA does not match HEAD of source branch" },
      });
      expect(mergesOn(target, base)).toBe(0);
      expect((await accept(mr.id, people().developer, { sha: head })).status).toBe(200);
    });
  });

  describe("merging", () => {
    it("writes the merge commit, moves the target, closes issues and removes the source branch", async () => {
      const issue = (
        await ctx().api<IssueJson>({
          method: "POST",
          path: `/projects/${id()}/issues`,
          token: people().owner.token,
          json: { title: "A bug" },
        })
      ).body;
      const { mr, source, head } = await prepare({
        target: "master",
        title: "Fix the bug",
        description: `Closes #${issue.iid}`,
      });
      const before = headOf(fx.repo, "master");
      const todo = await ctx().api({
        method: "POST",
        path: `${MRS()}/${mr.id}/todo`,
        token: people().reporter.token,
      });
      expect(todo.status).toBe(200);
      const res = await accept(mr.id, people().master, { should_remove_source_branch: true });
      expect(res.status).toBe(200);
      const merged = res.body;
      expect(merged).toMatchObject({ state: "merged", should_remove_source_branch: true });
      expect(merged.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);

      // The target branch now points at the merge commit, whose parents are the old target and the source.
      const branch = await ctx().api<BranchJson>({
        path: `/projects/${id()}/repository/branches/master`,
        token: people().developer.token,
      });
      expect(branch.body.commit.id).toBe(merged.merge_commit_sha);
      expect(git(["log", "-1", "--format=%P", "master"], fx.repo).trim()).toBe(`${before} ${head}`);
      expect(git(["log", "-1", "--format=%B", "master"], fx.repo).trim()).toBe(
        `Merge branch '${source}' into 'master'\n\nFix the bug\n\nCloses #${issue.iid}\n\nSee merge request !${mr.iid}`,
      );
      expect(git(["log", "-1", "--format=%an <%ae>", "master"], fx.repo).trim()).toBe(
        `${people().master.username} <${people().master.username}@example.com>`,
      );
      expect(headOf(fx.repo, source)).toBeNull();

      const closed = await ctx().api<IssueJson>({
        path: `/projects/${id()}/issues/${issue.id}`,
        token: people().owner.token,
      });
      expect(closed.body.state).toBe("closed");
      // Merged: the todos on it are done.
      const pending = await ctx().api<{ target: { id: number } }[]>({
        path: "/todos",
        token: people().reporter.token,
      });
      expect(pending.body.map((item) => item.target.id)).not.toContain(mr.id);

      // Commits stay readable once merged; the feed has the merge, the push and the branch removal.
      const commits = await ctx().api<{ id: string }[]>({
        path: `${MRS()}/${mr.id}/commits`,
        token: people().developer.token,
      });
      expect(commits.body.map((commit) => commit.id)).toEqual([head]);
      const events = await ctx().api<
        {
          action_name: string;
          target_type: string | null;
          target_id: number | null;
          data: { ref?: string } | null;
        }[]
      >({ path: `/projects/${id()}/events`, token: people().developer.token, query: { per_page: 100 } });
      const actions = events.body.map((event) =>
        event.target_type
          ? `${event.action_name} ${event.target_type} ${event.target_id}`
          : `${event.action_name} ${event.data?.ref}`,
      );
      expect(actions).toContain(`accepted MergeRequest ${mr.id}`);
      expect(actions).toContain(`opened MergeRequest ${mr.id}`);
      expect(actions).toContain(`closed Issue ${issue.id}`);
      expect(actions).toContain("pushed to refs/heads/master");
      expect(actions).toContain(`deleted refs/heads/${source}`);
    });

    it("takes a merge commit message and keeps the source branch unless asked", async () => {
      const { mr, source, target } = await prepare();
      const res = await accept(mr.id, people().developer, { merge_commit_message: "Custom message" });
      expect(res.status).toBe(200);
      expect(git(["log", "-1", "--format=%B", target], fx.repo).trim()).toBe("Custom message");
      expect(headOf(fx.repo, source)).not.toBeNull();
    });

    it("merges once when two accepts race: one 200, one 406", async () => {
      const { mr, target, base } = await prepare();
      const results = await Promise.all([accept(mr.id), accept(mr.id, people().master)]);
      expect(results.map((res) => res.status).sort()).toEqual([200, 406]);
      expect(mergesOn(target, base)).toBe(1);
      const shown = await ctx().api<Reply>({ path: `${MRS()}/${mr.id}`, token: people().developer.token });
      expect(shown.body.state).toBe("merged");
    });

    it("merges every one of several merge requests accepted into one target at once, and 405s the one that now conflicts", async () => {
      const first = await prepare();
      const others = [await prepare({ target: first.target })];
      for (let i = 0; i < 2; i += 1) others.push(await prepare({ target: first.target }));
      // Two changes of the same new file: whichever merges first, the other then conflicts.
      const clash = `clash-${branches}.txt`;
      const clashing = [
        await prepare({ target: first.target, file: clash, content: "one\n" }),
        await prepare({ target: first.target, file: clash, content: "two\n" }),
      ];
      const all = [first, ...others, ...clashing];
      const results = await Promise.all(all.map((one) => accept(one.mr.id)));

      const statuses = results.map((res) => res.status);
      expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
      expect(statuses.slice(4).sort()).toEqual([200, 405]);
      const refused = results.find((res) => res.status === 405);
      expect(refused?.body).toEqual({ message: "Branch cannot be merged" });
      // The target holds every merged source, with one merge commit each.
      const merged = all.filter((_, index) => results[index]?.status === 200);
      for (const one of merged) {
        expect(git(["merge-base", "--is-ancestor", one.head, one.target], fx.repo)).toBe("");
      }
      expect(mergesOn(first.target, first.base)).toBe(merged.length);
      for (const [index, one] of all.entries()) {
        const shown = await ctx().api<Reply>({
          path: `${MRS()}/${one.mr.id}`,
          token: people().developer.token,
        });
        expect(shown.body.state).toBe(results[index]?.status === 200 ? "merged" : "opened");
      }
    }, 60_000);
  });

  describe("from a fork", () => {
    it("opens a merge request into the project the fork came from, and merges the fork's commits", async () => {
      const fork = await ctx().api<ProjectJson>({
        method: "POST",
        path: `/projects/fork/${id()}`,
        token: people().developer.token,
      });
      expect(fork.status).toBe(201);
      const forkRepo = repositoryPath(ctx().server, fork.body.id);
      const head = commitTo(forkRepo, "fork-topic", { "from-fork.txt": "forked\n" }, { from: "master" });

      const res = await openMergeRequest(ctx(), fork.body.id, people().developer, {
        source_branch: "fork-topic",
        target_branch: "master",
        title: "From the fork",
        target_project_id: id(),
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        project_id: id(),
        source_project_id: fork.body.id,
        target_project_id: id(),
        merge_status: "can_be_merged",
        sha: head,
      });
      const listed = await ctx().api<Reply[]>({
        path: MRS(),
        token: people().reporter.token,
        query: { iid: res.body.iid },
      });
      expect(listed.body.map((mr) => mr.id)).toEqual([res.body.id]);
      const commits = await ctx().api<{ id: string }[]>({
        path: `${MRS()}/${res.body.id}/commits`,
        token: people().reporter.token,
      });
      expect(commits.body.map((commit) => commit.id)).toEqual([head]);

      const merged = await accept(res.body.id, people().master);
      expect(merged.body.state).toBe("merged");
      expect(git(["log", "-1", "--format=%P", "master"], fx.repo).trim().split(" ")[1]).toBe(head);
      expect(git(["show", "master:from-fork.txt"], fx.repo)).toBe("forked\n");
    });
  });

  describe("merge when build succeeds", () => {
    it("merges at once when the head has no pipeline to wait for, as 8.x", async () => {
      const { mr, target, base } = await prepare();
      const merged = await accept(mr.id, people().developer, { merge_when_build_succeeds: true });
      expect(merged.body).toMatchObject({ state: "merged", merge_when_build_succeeds: false });
      expect(mergesOn(target, base)).toBe(1);
    });

    it("waits for a head pipeline still to finish with the flag set, and cancels it with the spec's codes", async () => {
      const { mr, target, base, source, head } = await prepare();
      expect((await cancel(mr.id)).status).toBe(406);
      // An external CI's pending status makes the head's pipeline one still to finish.
      const pending = await ctx().api({
        method: "POST",
        path: `/projects/${id()}/statuses/${head}`,
        token: people().developer.token,
        json: { state: "pending", ref: source },
      });
      expect(pending.status).toBe(201);
      const set = await accept(mr.id, people().developer, { merge_when_build_succeeds: true });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ state: "opened", merge_when_build_succeeds: true });
      expect(mergesOn(target, base)).toBe(0);

      expect((await cancel(mr.id, people().reporter)).status).toBe(401);
      const cancelled = await cancel(mr.id);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.merge_when_build_succeeds).toBe(false);
      expect((await cancel(mr.id)).status).toBe(406);

      expect((await accept(mr.id)).status).toBe(200);
      expect(await cancel(mr.id)).toMatchObject({ status: 405, body: { message: "Method Not Allowed" } });
    });
  });
});
