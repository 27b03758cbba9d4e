import { sql } from "kysely";
import { expect, it } from "vitest";
import { createIssue, createWorkspace } from "./__tests__/collaboration.js";
import { createProject } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";
import { fillPublicOpenIssueCounts } from "./migrations/0009_public_issues_sealed_imports.js";

describeStores("public open issue counts", (ctx) => {
  /** The project's counters next to a count of its open issues, all and not confidential. */
  async function countsAndTruth(projectId: number) {
    const rows = await ctx.opened.db
      .selectFrom("issues")
      .select(["state", "confidential"])
      .where("project_id", "=", projectId)
      .where("state", "=", "opened")
      .execute();
    const project = await ctx.stores.projects.findById(projectId);
    return {
      counted: { open: project?.open_issues_count, public: project?.public_open_issues_count },
      truth: { open: rows.length, public: rows.filter((row) => row.confidential === 0).length },
    };
  }

  async function expectCounts(projectId: number, open: number, publicOpen: number) {
    expect(await countsAndTruth(projectId)).toEqual({
      counted: { open, public: publicOpen },
      truth: { open, public: publicOpen },
    });
  }

  it("counts open issues that are not confidential through creation, state changes and deletion", async () => {
    const { project } = await createWorkspace(ctx.stores, "alice");
    const plain = await createIssue(ctx.stores, project.id, "plain");
    const secret = await createIssue(ctx.stores, project.id, "secret", { confidential: true });
    await expectCounts(project.id, 2, 1);

    await ctx.stores.issues.setState(plain.id, "opened", "closed");
    await ctx.stores.issues.setState(secret.id, "opened", "closed");
    await expectCounts(project.id, 0, 0);
    await ctx.stores.issues.setState(plain.id, "closed", "reopened");
    await ctx.stores.issues.setState(secret.id, "closed", "reopened");
    await expectCounts(project.id, 2, 1);

    await ctx.stores.issues.delete(secret.id);
    await expectCounts(project.id, 1, 1);
    await ctx.stores.issues.delete(plain.id);
    await expectCounts(project.id, 0, 0);
    const closed = await createIssue(ctx.stores, project.id, "closed then deleted");
    await ctx.stores.issues.setState(closed.id, "opened", "closed");
    await ctx.stores.issues.delete(closed.id);
    await expectCounts(project.id, 0, 0);
  });

  it("moves an open issue out of the public count when it becomes confidential, and back", async () => {
    const { project } = await createWorkspace(ctx.stores, "bob");
    const issue = await createIssue(ctx.stores, project.id, "toggled");
    const closed = await createIssue(ctx.stores, project.id, "closed");
    await ctx.stores.issues.setState(closed.id, "opened", "closed");

    expect(await ctx.stores.issues.update(issue.id, { confidential: true })).toMatchObject({
      confidential: true,
    });
    await expectCounts(project.id, 1, 0);
    // The same value again changes nothing.
    await ctx.stores.issues.update(issue.id, { confidential: true, title: "still secret" });
    await expectCounts(project.id, 1, 0);
    await ctx.stores.issues.update(issue.id, { confidential: false });
    await expectCounts(project.id, 1, 1);
    // A closed issue is in neither count, confidential or not.
    await ctx.stores.issues.update(closed.id, { confidential: true });
    await ctx.stores.issues.setState(closed.id, "closed", "reopened");
    await expectCounts(project.id, 2, 1);
    expect(await ctx.stores.issues.update(closed.id + 100, { confidential: false })).toBeUndefined();
    await expectCounts(project.id, 2, 1);
  });

  it("stays exact under concurrent confidentiality changes, closes and deletions", async () => {
    const { project } = await createWorkspace(ctx.stores, "carol");
    const issues = await Promise.all(
      Array.from({ length: 6 }, (_, i) => createIssue(ctx.stores, project.id, `issue ${i}`)),
    );
    // Each issue is made confidential and not, and one in three is deleted, one closed, one left open.
    const changes = [
      (id: number) => ctx.stores.issues.delete(id),
      (id: number) => ctx.stores.issues.setState(id, "opened", "closed"),
      async (_id: number) => undefined,
    ];
    await Promise.all(
      issues.flatMap((issue, i) => [
        ctx.stores.issues.update(issue.id, { confidential: true }),
        ctx.stores.issues.update(issue.id, { confidential: i % 2 === 0 }),
        changes[i % 3]?.(issue.id),
        ctx.stores.issues.update(issue.id, { confidential: i % 4 === 0 }),
      ]),
    );
    const { counted, truth } = await countsAndTruth(project.id);
    expect(truth.open).toBe(2);
    expect(counted).toEqual(truth);
  });

  it("fills the counts from the rows, as the migration did", async () => {
    const { project } = await createWorkspace(ctx.stores, "dave");
    const other = await createProject(ctx.stores, project.namespace_id, "other");
    await createIssue(ctx.stores, project.id, "a");
    await createIssue(ctx.stores, project.id, "b", { confidential: true });
    const closed = await createIssue(ctx.stores, other.id, "c");
    await ctx.stores.issues.setState(closed.id, "opened", "closed");
    await createIssue(ctx.stores, other.id, "d");
    await sql`update projects set public_open_issues_count = 42`.execute(ctx.opened.db);
    await fillPublicOpenIssueCounts(ctx.opened.db);
    await expectCounts(project.id, 2, 1);
    await expectCounts(other.id, 1, 1);
  });
});
