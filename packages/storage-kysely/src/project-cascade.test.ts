import { sql } from "kysely";
import { expect, it } from "vitest";
import { createIssue, createMergeRequest, createWorkspace } from "./__tests__/collaboration.js";
import { ALL, createProject } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";
import type { Database } from "./database.js";

/** The tables of issue 5's collaboration data, each with the column that names the project of a row. */
const TABLES: [keyof Database, string][] = [
  ["internal_ids", "project_id"],
  ["issues", "project_id"],
  ["merge_requests", "project_id"],
  ["notes", "project_id"],
  ["labels", "project_id"],
  ["milestones", "project_id"],
  ["todos", "project_id"],
  ["subscriptions", "project_id"],
];

describeStores("collaboration data", (ctx) => {
  /** Fills a project with one of everything. */
  async function populate(projectId: number, userId: number): Promise<void> {
    const milestone = await ctx.stores.milestones.create({
      project_id: projectId,
      title: "v1",
      description: null,
      due_date: null,
      start_date: null,
    });
    const label = await ctx.stores.labels.create({
      project_id: projectId,
      title: "bug",
      color: "#FFF",
      description: null,
      priority: null,
    });
    const issue = await createIssue(ctx.stores, projectId, "issue", {
      author_id: userId,
      assignee_id: userId,
      milestone_id: milestone.id,
    });
    const mr = await createMergeRequest(ctx.stores, projectId, "topic", {
      author_id: userId,
      milestone_id: milestone.id,
    });
    for (const target of [
      { type: "Issue" as const, id: issue.id },
      { type: "MergeRequest" as const, id: mr.id },
    ]) {
      await ctx.stores.labels.addLabels(target, [label.id]);
      const note = await ctx.stores.notes.create({
        project_id: projectId,
        noteable_type: target.type,
        noteable_id: target.id,
        author_id: userId,
        body: "note",
        attachment: null,
        system: false,
      });
      await ctx.stores.todos.createPending({
        user_id: userId,
        project_id: projectId,
        target_type: target.type,
        target_id: target.id,
        action: 2,
        author_id: userId,
        note_id: note.id,
      });
      await ctx.stores.subscriptions.set(userId, { ...target, projectId }, true);
    }
    await ctx.stores.subscriptions.set(userId, { type: "Label", id: label.id, projectId }, true);
  }

  /** How many rows each table holds for a project, and how many label links there are in all. */
  async function rowsOf(projectId: number): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const [table, column] of TABLES) {
      const { rows } = await sql<{
        n: number | string;
      }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(column)} = ${projectId}`.execute(
        ctx.opened.db,
      );
      counts[table] = Number(rows[0]?.n);
    }
    const { rows } = await sql<{
      n: number | string;
    }>`select count(*) as n from label_links ll join labels l on l.id = ll.label_id where l.project_id = ${projectId}`.execute(
      ctx.opened.db,
    );
    counts["label_links"] = Number(rows[0]?.n);
    return counts;
  }

  it("goes with its project, and nothing of another project goes with it", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "alice");
    const other = await createProject(ctx.stores, project.namespace_id, "other");
    await populate(project.id, user.id);
    await populate(other.id, user.id);
    const full = {
      internal_ids: 3,
      issues: 1,
      merge_requests: 1,
      notes: 2,
      labels: 1,
      milestones: 1,
      todos: 2,
      subscriptions: 3,
      label_links: 2,
    };
    expect(await rowsOf(project.id)).toEqual(full);
    expect(await ctx.stores.projects.delete(project.id)).toBe(true);
    expect(await rowsOf(project.id)).toEqual(Object.fromEntries(Object.keys(full).map((key) => [key, 0])));
    expect(await rowsOf(other.id)).toEqual(full);
  });

  it("goes with its owner's account, which can be deleted however much they took part elsewhere", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "bob");
    const { project: theirs } = await createWorkspace(ctx.stores, "carol");
    await populate(project.id, user.id);
    await populate(theirs.id, user.id);
    expect(await ctx.stores.users.delete(user.id)).toBe(true);
    expect((await rowsOf(project.id)).issues).toBe(0);
    // What they wrote elsewhere stays, without them; their own todos and subscriptions go.
    expect(await rowsOf(theirs.id)).toEqual({
      internal_ids: 3,
      issues: 1,
      merge_requests: 1,
      notes: 2,
      labels: 1,
      milestones: 1,
      todos: 0,
      subscriptions: 0,
      label_links: 2,
    });
    const scope = { kind: "project" as const, projectId: theirs.id };
    const [issue] = (await ctx.stores.issues.list(scope, {}, { by: "id", direction: "asc" }, ALL)).items;
    expect(issue).toMatchObject({ author_id: null, assignee_id: null });
    const [mr] = (await ctx.stores.mergeRequests.list(scope, {}, { by: "id", direction: "asc" }, ALL)).items;
    expect(mr).toMatchObject({ author_id: null, state: "opened" });
    expect(await ctx.stores.issues.counts(theirs.id)).toEqual({ opened: 1, closed: 0 });
    expect(await ctx.stores.mergeRequests.counts(theirs.id)).toEqual({ opened: 1, closed: 0, merged: 0 });
  });
});
