import { MILESTONE_STATE_FILTERS } from "@kiln/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createIssue, createMergeRequest, createWorkspace, iids } from "./__tests__/collaboration.js";
import { ALL, createProject } from "./__tests__/fixtures.js";
import type { OpenDatabase } from "./connect.js";
import { UniqueViolation } from "./errors.js";
import type { NewMilestone } from "./stores/milestones.js";
import { Stores } from "./stores.js";
import { testDialects } from "./testing.js";

for (const dialect of testDialects()) {
  describe.skipIf(dialect.unavailable !== null)(
    `milestone store on ${dialect.name} ${dialect.unavailable ?? ""}`,
    () => {
      let opened: OpenDatabase;
      let stores: Stores;

      beforeEach(async () => {
        opened = await dialect.open();
        stores = new Stores(opened.db);
      });
      afterEach(async () => {
        await opened.close();
      });

      const newMilestone = (projectId: number, title: string, overrides: Partial<NewMilestone> = {}) => ({
        project_id: projectId,
        title,
        description: null,
        due_date: null,
        start_date: null,
        ...overrides,
      });

      it("creates active milestones numbered per project apart from issues, titles unique in a project", async () => {
        const { project } = await createWorkspace(stores, "alice");
        const other = await createProject(stores, project.namespace_id, "other");
        await createIssue(stores, project.id, "an issue first");
        const v1 = await stores.milestones.create(
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
        await expect(stores.milestones.create(newMilestone(project.id, "v1"))).rejects.toBeInstanceOf(
          UniqueViolation,
        );
        const v2 = await stores.milestones.create(newMilestone(project.id, "v2"));
        const elsewhere = await stores.milestones.create(newMilestone(other.id, "v1"));
        // The refused creation's transaction took its number back.
        expect([v2.iid, elsewhere.iid]).toEqual([2, 1]);
        expect(await stores.milestones.findById(v1.id)).toEqual(v1);
        expect(await stores.milestones.findByIid(project.id, 2)).toEqual(v2);
        expect(await stores.milestones.findByTitle(other.id, "v1")).toEqual(elsewhere);
        expect(await stores.milestones.findByTitle(other.id, "v2")).toBeUndefined();
        expect([...(await stores.milestones.findByIds([v1.id, elsewhere.id])).keys()].sort()).toEqual(
          [v1.id, elsewhere.id].sort(),
        );
      });

      it("edits, refusing a taken title, and closes and activates only from the other state", async () => {
        const { project } = await createWorkspace(stores, "bob");
        const v1 = await stores.milestones.create(newMilestone(project.id, "v1"));
        await stores.milestones.create(newMilestone(project.id, "v2"));
        expect(
          await stores.milestones.update(v1.id, {
            title: "1.0",
            due_date: "2016-12-31",
            description: undefined,
          }),
        ).toMatchObject({
          title: "1.0",
          due_date: "2016-12-31",
          description: null,
        });
        await expect(stores.milestones.update(v1.id, { title: "v2" })).rejects.toBeInstanceOf(
          UniqueViolation,
        );
        expect(await stores.milestones.update(v1.id + 100, { title: "x" })).toBeUndefined();
        expect((await stores.milestones.setState(v1.id, "active", "closed"))?.state).toBe("closed");
        expect(await stores.milestones.setState(v1.id, "active", "closed")).toBeUndefined();
        expect((await stores.milestones.setState(v1.id, "closed", "active"))?.state).toBe("active");
      });

      it("lists a project's milestones by id, filtered by state, iid and title", async () => {
        const { project } = await createWorkspace(stores, "carol");
        const other = await createProject(stores, project.namespace_id, "other");
        for (const title of ["a", "b", "c"]) await stores.milestones.create(newMilestone(project.id, title));
        await stores.milestones.create(newMilestone(other.id, "a"));
        await stores.milestones.setState(
          (await stores.milestones.findByIid(project.id, 2))!.id,
          "active",
          "closed",
        );
        const list = async (filter: Parameters<typeof stores.milestones.list>[1]) =>
          iids((await stores.milestones.list(project.id, filter, ALL)).items);
        expect(await list({})).toEqual([1, 2, 3]);
        expect(await list({ states: MILESTONE_STATE_FILTERS.active })).toEqual([1, 3]);
        expect(await list({ states: MILESTONE_STATE_FILTERS.closed })).toEqual([2]);
        expect(await list({ states: MILESTONE_STATE_FILTERS.all })).toEqual([1, 2, 3]);
        expect(await list({ states: [] })).toEqual([]);
        expect(await list({ iids: [3, 1] })).toEqual([1, 3]);
        expect(await list({ iids: [] })).toEqual([]);
        expect(await list({ title: "b" })).toEqual([2]);
        const page = await stores.milestones.list(project.id, {}, { page: 2, perPage: 2 });
        expect({ iids: iids(page.items), total: page.total }).toEqual({ iids: [3], total: 3 });
      });

      it("leaves issues and merge requests without a milestone when it is deleted", async () => {
        const { project } = await createWorkspace(stores, "dave");
        const v1 = await stores.milestones.create(newMilestone(project.id, "v1"));
        const issue = await createIssue(stores, project.id, "planned", { milestone_id: v1.id });
        const mr = await createMergeRequest(stores, project.id, "topic", { milestone_id: v1.id });
        expect(await stores.milestones.delete(v1.id)).toBe(true);
        expect(await stores.milestones.delete(v1.id)).toBe(false);
        expect((await stores.issues.findById(issue.id))?.milestone_id).toBeNull();
        expect((await stores.mergeRequests.findById(mr.id))?.milestone_id).toBeNull();
        expect((await stores.milestones.create(newMilestone(project.id, "v1"))).iid).toBe(2);
      });
    },
  );
}
