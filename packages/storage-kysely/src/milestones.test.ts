import { MILESTONE_STATE_FILTERS } from "@kiln/domain";
import { expect, it } from "vitest";
import { createIssue, createMergeRequest, createWorkspace, iids } from "./__tests__/collaboration.js";
import { ALL, createProject } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";
import { UniqueViolation } from "./errors.js";
import type { NewMilestone } from "./stores/milestones.js";

describeStores("milestone store", (ctx) => {
  const newMilestone = (projectId: number, title: string, overrides: Partial<NewMilestone> = {}) => ({
    project_id: projectId,
    title,
    description: null,
    due_date: null,
    start_date: null,
    ...overrides,
  });

  it("creates active milestones numbered per project apart from issues, titles unique in a project", async () => {
    const { project } = await createWorkspace(ctx.stores, "alice");
    const other = await createProject(ctx.stores, project.namespace_id, "other");
    await createIssue(ctx.stores, project.id, "an issue first");
    const v1 = await ctx.stores.milestones.create(
      newMilestone(project.id, "v1", {
        description: "first",
        due_date: "2016-03-01",
        start_date: "2016-02-01",
      }),
    );
    expect(v1).toEqual({
      id: v1.id,
      project_id: project.id,
      iid: 1,
      title: "v1",
      description: "first",
      state: "active",
      due_date: "2016-03-01",
      start_date: "2016-02-01",
      created_at: v1.created_at,
      updated_at: v1.created_at,
    });
    await expect(ctx.stores.milestones.create(newMilestone(project.id, "v1"))).rejects.toBeInstanceOf(
      UniqueViolation,
    );
    const v2 = await ctx.stores.milestones.create(newMilestone(project.id, "v2"));
    const elsewhere = await ctx.stores.milestones.create(newMilestone(other.id, "v1"));
    // The refused creation's transaction took its number back.
    expect([v2.iid, elsewhere.iid]).toEqual([2, 1]);
    expect(await ctx.stores.milestones.findById(v1.id)).toEqual(v1);
    expect(await ctx.stores.milestones.findByIid(project.id, 2)).toEqual(v2);
    expect(await ctx.stores.milestones.findByTitle(other.id, "v1")).toEqual(elsewhere);
    expect(await ctx.stores.milestones.findByTitle(other.id, "v2")).toBeUndefined();
    expect([...(await ctx.stores.milestones.findByIds([v1.id, elsewhere.id])).keys()].sort()).toEqual(
      [v1.id, elsewhere.id].sort(),
    );
  });

  it("edits, refusing a taken title, and closes and activates only from the other state", async () => {
    const { project } = await createWorkspace(ctx.stores, "bob");
    const v1 = await ctx.stores.milestones.create(newMilestone(project.id, "v1"));
    await ctx.stores.milestones.create(newMilestone(project.id, "v2"));
    expect(
      await ctx.stores.milestones.update(v1.id, {
        title: "1.0",
        due_date: "2016-12-31",
        description: undefined,
      }),
    ).toMatchObject({
      title: "1.0",
      due_date: "2016-12-31",
      description: null,
    });
    await expect(ctx.stores.milestones.update(v1.id, { title: "v2" })).rejects.toBeInstanceOf(
      UniqueViolation,
    );
    expect(await ctx.stores.milestones.update(v1.id + 100, { title: "x" })).toBeUndefined();
    expect((await ctx.stores.milestones.setState(v1.id, "active", "closed"))?.state).toBe("closed");
    expect(await ctx.stores.milestones.setState(v1.id, "active", "closed")).toBeUndefined();
    expect((await ctx.stores.milestones.setState(v1.id, "closed", "active"))?.state).toBe("active");
  });

  it("lists a project's milestones by id, filtered by state, iid and title", async () => {
    const { project } = await createWorkspace(ctx.stores, "carol");
    const other = await createProject(ctx.stores, project.namespace_id, "other");
    for (const title of ["a", "b", "c"]) await ctx.stores.milestones.create(newMilestone(project.id, title));
    await ctx.stores.milestones.create(newMilestone(other.id, "a"));
    await ctx.stores.milestones.setState(
      (await ctx.stores.milestones.findByIid(project.id, 2))!.id,
      "active",
      "closed",
    );
    const list = async (filter: Parameters<typeof ctx.stores.milestones.list>[1]) =>
      iids((await ctx.stores.milestones.list(project.id, filter, ALL)).items);
    expect(await list({})).toEqual([1, 2, 3]);
    expect(await list({ states: MILESTONE_STATE_FILTERS.active })).toEqual([1, 3]);
    expect(await list({ states: MILESTONE_STATE_FILTERS.closed })).toEqual([2]);
    expect(await list({ states: MILESTONE_STATE_FILTERS.all })).toEqual([1, 2, 3]);
    expect(await list({ states: [] })).toEqual([]);
    expect(await list({ iids: [3, 1] })).toEqual([1, 3]);
    expect(await list({ iids: [] })).toEqual([]);
    expect(await list({ title: "b" })).toEqual([2]);
    const page = await ctx.stores.milestones.list(project.id, {}, { page: 2, perPage: 2 });
    expect({ iids: iids(page.items), total: page.total }).toEqual({ iids: [3], total: 3 });
  });

  it("leaves issues and merge requests without a milestone when it is deleted", async () => {
    const { project } = await createWorkspace(ctx.stores, "dave");
    const v1 = await ctx.stores.milestones.create(newMilestone(project.id, "v1"));
    const issue = await createIssue(ctx.stores, project.id, "planned", { milestone_id: v1.id });
    const mr = await createMergeRequest(ctx.stores, project.id, "topic", { milestone_id: v1.id });
    expect(await ctx.stores.milestones.delete(v1.id)).toBe(true);
    expect(await ctx.stores.milestones.delete(v1.id)).toBe(false);
    expect((await ctx.stores.issues.findById(issue.id))?.milestone_id).toBeNull();
    expect((await ctx.stores.mergeRequests.findById(mr.id))?.milestone_id).toBeNull();
    expect((await ctx.stores.milestones.create(newMilestone(project.id, "v1"))).iid).toBe(2);
  });
});
