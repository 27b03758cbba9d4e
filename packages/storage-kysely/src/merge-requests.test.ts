import { MERGE_REQUEST_STATE_FILTERS, type MergeRequestState } from "@kiln/domain";
import { expect, it } from "vitest";
import {
  createMergeRequest,
  createWorkspace,
  iids,
  minute,
  NEWEST_FIRST,
  OLDEST_FIRST,
} from "./__tests__/collaboration.js";
import { ALL, createAccount, createProject } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";
import { UniqueViolation } from "./errors.js";

describeStores("merge request store", (ctx) => {
  /** The counters of a project next to a real count of its merge requests by stored state. */
  async function countersAndTruth(projectId: number) {
    const rows = await ctx.opened.db
      .selectFrom("merge_requests")
      .select("state")
      .where("project_id", "=", projectId)
      .execute();
    const count = (state: string) => rows.filter((row) => row.state === state).length;
    return {
      counters: await ctx.stores.mergeRequests.counts(projectId),
      truth: { opened: count("opened"), closed: count("closed"), merged: count("merged") },
    };
  }

  it("creates merge requests numbered per target project, with every field, and finds them", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "alice");
    const fork = await createProject(ctx.stores, project.namespace_id, "fork");
    const first = await createMergeRequest(ctx.stores, project.id, "feature", {
      description: "does things",
      author_id: user.id,
      assignee_id: user.id,
      force_remove_source_branch: true,
      diff_head_sha: "a".repeat(40),
      created_at: minute(3),
      updated_at: minute(3),
    });
    expect(first).toEqual({
      id: first.id,
      project_id: project.id,
      iid: 1,
      target_project_id: project.id,
      source_project_id: project.id,
      source_branch: "feature",
      target_branch: "main",
      title: "Merge feature",
      description: "does things",
      state: "opened",
      author_id: user.id,
      assignee_id: user.id,
      milestone_id: null,
      merge_status: "unchecked",
      merge_when_build_succeeds: false,
      merge_user_id: null,
      should_remove_source_branch: false,
      force_remove_source_branch: true,
      diff_head_sha: "a".repeat(40),
      merge_commit_sha: null,
      created_at: minute(3),
      updated_at: minute(3),
    });
    // A fork's merge request belongs to the target project and takes its number there.
    const fromFork = await createMergeRequest(ctx.stores, project.id, "feature", {
      source_project_id: fork.id,
    });
    const inFork = await createMergeRequest(ctx.stores, fork.id, "topic");
    expect([fromFork.iid, inFork.iid]).toEqual([2, 1]);
    expect(await ctx.stores.mergeRequests.findById(first.id)).toEqual(first);
    expect(await ctx.stores.mergeRequests.findById(inFork.id + 10)).toBeUndefined();
    expect(await ctx.stores.mergeRequests.findByIid(project.id, 2)).toEqual(fromFork);
    expect([...(await ctx.stores.mergeRequests.findByIds([inFork.id, first.id])).keys()].sort()).toEqual(
      [first.id, inFork.id].sort(),
    );
    expect(await ctx.stores.issues.counts(project.id)).toEqual({ opened: 0, closed: 0 });
    expect(await ctx.stores.internalIds.last(project.id, "issues")).toBe(0);
  });

  it("keeps one open merge request per source and target branch, also when created at once", async () => {
    const { project } = await createWorkspace(ctx.stores, "bob");
    const fork = await createProject(ctx.stores, project.namespace_id, "fork");
    const first = await createMergeRequest(ctx.stores, project.id, "feature");
    await expect(createMergeRequest(ctx.stores, project.id, "feature")).rejects.toBeInstanceOf(
      UniqueViolation,
    );
    // Another target branch, another source project or another target project is another pair.
    await createMergeRequest(ctx.stores, project.id, "feature", { target_branch: "stable" });
    await createMergeRequest(ctx.stores, project.id, "feature", { source_project_id: fork.id });
    await createMergeRequest(ctx.stores, fork.id, "feature", { source_project_id: project.id });
    expect(await ctx.stores.mergeRequests.counts(project.id)).toEqual({ opened: 3, closed: 0, merged: 0 });

    // Closed or merged, it no longer blocks a new one; reopening it then would make two.
    await ctx.stores.mergeRequests.setState(first.id, "opened", "closed");
    const second = await createMergeRequest(ctx.stores, project.id, "feature");
    await expect(ctx.stores.mergeRequests.setState(first.id, "closed", "reopened")).rejects.toBeInstanceOf(
      UniqueViolation,
    );
    expect((await ctx.stores.mergeRequests.findById(first.id))?.state).toBe("closed");
    await expect(
      ctx.stores.mergeRequests.update(
        (await ctx.stores.mergeRequests.findOpen(project.id, "feature", project.id, "stable"))!.id,
        { target_branch: "main" },
      ),
    ).rejects.toBeInstanceOf(UniqueViolation);
    expect(second.iid).toBe(4);

    const racing = await Promise.allSettled(
      Array.from({ length: 6 }, () => createMergeRequest(ctx.stores, project.id, "racing")),
    );
    expect(racing.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of racing) {
      if (result.status === "rejected") expect(result.reason).toBeInstanceOf(UniqueViolation);
    }
    expect(await countersAndTruth(project.id)).toEqual({
      counters: { opened: 4, closed: 1, merged: 0 },
      truth: { opened: 4, closed: 1, merged: 0 },
    });
  });

  it("finds the open ones by source branch, by target branch and by pair", async () => {
    const { project } = await createWorkspace(ctx.stores, "carol");
    const fork = await createProject(ctx.stores, project.namespace_id, "fork");
    const a = await createMergeRequest(ctx.stores, project.id, "topic");
    const b = await createMergeRequest(ctx.stores, project.id, "topic", { target_branch: "stable" });
    const c = await createMergeRequest(ctx.stores, project.id, "topic", { source_project_id: fork.id });
    const closed = await createMergeRequest(ctx.stores, project.id, "old");
    await ctx.stores.mergeRequests.setState(closed.id, "opened", "closed");
    await ctx.stores.mergeRequests.setState(b.id, "opened", "closed");
    await ctx.stores.mergeRequests.setState(b.id, "closed", "reopened");

    expect((await ctx.stores.mergeRequests.findOpen(project.id, "topic", project.id, "stable"))?.id).toBe(
      b.id,
    );
    expect((await ctx.stores.mergeRequests.findOpen(fork.id, "topic", project.id, "main"))?.id).toBe(c.id);
    expect(await ctx.stores.mergeRequests.findOpen(project.id, "old", project.id, "main")).toBeUndefined();
    expect((await ctx.stores.mergeRequests.openFromBranch(project.id, "topic")).map((mr) => mr.id)).toEqual([
      a.id,
      b.id,
    ]);
    expect((await ctx.stores.mergeRequests.openFromBranch(fork.id, "topic")).map((mr) => mr.id)).toEqual([
      c.id,
    ]);
    expect(await ctx.stores.mergeRequests.openFromBranch(project.id, "old")).toEqual([]);
    expect((await ctx.stores.mergeRequests.openIntoBranch(project.id, "main")).map((mr) => mr.id)).toEqual([
      a.id,
      c.id,
    ]);
    expect((await ctx.stores.mergeRequests.openIntoBranch(project.id, "stable")).map((mr) => mr.id)).toEqual([
      b.id,
    ]);
  });

  it("edits fields, flags and the update time", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "dave");
    const mr = await createMergeRequest(ctx.stores, project.id, "feature", { created_at: minute(0) });
    const edited = await ctx.stores.mergeRequests.update(mr.id, {
      title: "WIP: better",
      target_branch: "stable",
      assignee_id: user.id,
      merge_status: "can_be_merged",
      merge_when_build_succeeds: true,
      merge_user_id: user.id,
      should_remove_source_branch: true,
      diff_head_sha: "b".repeat(40),
      updated_at: minute(4),
    });
    expect(edited).toEqual({
      ...mr,
      title: "WIP: better",
      target_branch: "stable",
      assignee_id: user.id,
      merge_status: "can_be_merged",
      merge_when_build_succeeds: true,
      merge_user_id: user.id,
      should_remove_source_branch: true,
      diff_head_sha: "b".repeat(40),
      updated_at: minute(4),
    });
    const cleared = await ctx.stores.mergeRequests.update(mr.id, {
      merge_when_build_succeeds: false,
      merge_user_id: null,
    });
    expect(cleared).toMatchObject({
      merge_when_build_succeeds: false,
      merge_user_id: null,
      should_remove_source_branch: true,
    });
    expect(cleared?.updated_at).not.toBe(minute(4));
    expect(await ctx.stores.mergeRequests.update(mr.id + 10, { title: "x" })).toBeUndefined();
  });

  it("merge only an open one, once, even when two merges race, and count it", async () => {
    const { project } = await createWorkspace(ctx.stores, "erin");
    const mr = await createMergeRequest(ctx.stores, project.id, "feature");
    const sha = "c".repeat(40);
    const results = await Promise.all(
      ["opened", "opened", "opened"].map(() =>
        ctx.stores.mergeRequests.setState(mr.id, "opened", "merged", { merge_commit_sha: sha }),
      ),
    );
    const winners = results.filter((result) => result !== undefined);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ state: "merged", merge_commit_sha: sha });
    expect(await ctx.stores.mergeRequests.setState(mr.id, "closed", "reopened")).toBeUndefined();
    expect(await countersAndTruth(project.id)).toEqual({
      counters: { opened: 0, closed: 0, merged: 1 },
      truth: { opened: 0, closed: 0, merged: 1 },
    });
    expect(await ctx.stores.mergeRequests.delete(mr.id)).toBe(true);
    expect(await ctx.stores.mergeRequests.delete(mr.id)).toBe(false);
    expect(await ctx.stores.mergeRequests.counts(project.id)).toEqual({ opened: 0, closed: 0, merged: 0 });
    expect((await createMergeRequest(ctx.stores, project.id, "feature")).iid).toBe(2);
  });

  it("list by state, iid, branch, author, labels and text, in order, totals from the counters", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "frank");
    const a = await createMergeRequest(ctx.stores, project.id, "a", {
      created_at: minute(1),
      author_id: user.id,
    });
    const b = await createMergeRequest(ctx.stores, project.id, "b", {
      created_at: minute(2),
      title: "Fix the crash",
    });
    const c = await createMergeRequest(ctx.stores, project.id, "c", {
      created_at: minute(3),
      target_branch: "stable",
    });
    const d = await createMergeRequest(ctx.stores, project.id, "d", { created_at: minute(4) });
    await ctx.stores.mergeRequests.setState(b.id, "opened", "closed");
    await ctx.stores.mergeRequests.setState(c.id, "opened", "merged");
    await ctx.stores.mergeRequests.setState(d.id, "opened", "closed");
    await ctx.stores.mergeRequests.setState(d.id, "closed", "reopened");
    const label = await ctx.stores.labels.create({
      project_id: project.id,
      title: "ready",
      color: "#00FF00",
      description: null,
      priority: null,
    });
    await ctx.stores.labels.addLabels({ type: "MergeRequest", id: a.id }, [label.id]);
    const scope = { kind: "project" as const, projectId: project.id };
    const list = async (filter: Parameters<typeof ctx.stores.mergeRequests.list>[1], order = OLDEST_FIRST) =>
      iids((await ctx.stores.mergeRequests.list(scope, filter, order, ALL)).items);
    const states = (filter: keyof typeof MERGE_REQUEST_STATE_FILTERS): readonly MergeRequestState[] =>
      MERGE_REQUEST_STATE_FILTERS[filter];
    expect(await list({ states: states("opened") })).toEqual([1, 4]);
    expect(await list({ states: states("closed") })).toEqual([2]);
    expect(await list({ states: states("merged") })).toEqual([3]);
    expect(await list({ states: states("all") }, NEWEST_FIRST)).toEqual([4, 3, 2, 1]);
    expect(await list({ states: ["reopened"] })).toEqual([4]);
    expect(await list({ iids: [2, 4] })).toEqual([2, 4]);
    expect(await list({ targetBranch: "stable" })).toEqual([3]);
    expect(await list({ sourceBranch: "d" })).toEqual([4]);
    expect(await list({ authorId: user.id })).toEqual([1]);
    expect(await list({ search: "CRASH" })).toEqual([2]);
    expect(await list({ labels: { titles: ["ready"], match: "any" } })).toEqual([1]);
    expect(await list({}, { by: "updated_at", direction: "desc" })).toEqual([4, 3, 2, 1]);

    // Skewed counters show where an unfiltered total comes from.
    await ctx.opened.db
      .updateTable("projects")
      .set({
        open_merge_requests_count: 10,
        closed_merge_requests_count: 20,
        merged_merge_requests_count: 30,
      })
      .where("id", "=", project.id)
      .execute();
    const total = async (filter: Parameters<typeof ctx.stores.mergeRequests.list>[1]) =>
      (await ctx.stores.mergeRequests.list(scope, filter, OLDEST_FIRST, { page: 1, perPage: 1 })).total;
    expect(await total({})).toBe(60);
    expect(await total({ states: states("opened") })).toBe(10);
    expect(await total({ states: states("closed") })).toBe(20);
    expect(await total({ states: states("merged") })).toBe(30);
    expect(await total({ states: ["opened"] })).toBe(1);
    expect(await total({ targetBranch: "main" })).toBe(3);
  });

  it("keep merge requests when their author or their fork goes, and go with the target project", async () => {
    const { project } = await createWorkspace(ctx.stores, "gina");
    const { user: author, namespace } = await createAccount(ctx.stores, "hank");
    const fork = await createProject(ctx.stores, namespace.id, "fork");
    const mr = await createMergeRequest(ctx.stores, project.id, "topic", {
      source_project_id: fork.id,
      author_id: author.id,
      assignee_id: author.id,
    });
    await ctx.stores.mergeRequests.update(mr.id, { merge_user_id: author.id });
    const inFork = await createMergeRequest(ctx.stores, fork.id, "x");
    await ctx.stores.users.delete(author.id);
    expect(await ctx.stores.mergeRequests.findById(inFork.id)).toBeUndefined();
    expect(await ctx.stores.mergeRequests.findById(mr.id)).toMatchObject({
      source_project_id: null,
      author_id: null,
      assignee_id: null,
      merge_user_id: null,
      state: "opened",
    });
    await ctx.stores.projects.delete(project.id);
    expect(await ctx.stores.mergeRequests.findById(mr.id)).toBeUndefined();
  });
});
