import { expect, it } from "vitest";
import { createIssue, createMergeRequest, createWorkspace } from "./__tests__/collaboration.js";
import { createAccount } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";

describeStores("issuable parts store", (ctx) => {
  const label = async (projectId: number, title: string) =>
    ctx.stores.labels.create({
      project_id: projectId,
      title,
      color: "#FF0000",
      description: null,
      priority: null,
    });
  const note = (projectId: number, type: "Issue" | "MergeRequest", id: number, system: boolean) =>
    ctx.stores.notes.create({
      project_id: projectId,
      noteable_type: type,
      noteable_id: id,
      author_id: null,
      body: "note",
      attachment: null,
      system,
    });

  it("reads authors, assignees, milestones, labels in title order, user notes and one user's subscriptions", async () => {
    const { user: alice, project } = await createWorkspace(ctx.stores, "alice");
    const { user: bob } = await createAccount(ctx.stores, "bob");
    const milestone = await ctx.stores.milestones.create({
      project_id: project.id,
      title: "v1",
      description: null,
      due_date: "2016-02-01",
      start_date: null,
    });
    const [zeta, alpha, beta] = [
      await label(project.id, "zeta"),
      await label(project.id, "Alpha"),
      await label(project.id, "beta"),
    ];
    const full = await createIssue(ctx.stores, project.id, "full", {
      author_id: alice.id,
      assignee_id: bob.id,
      milestone_id: milestone.id,
    });
    const bare = await createIssue(ctx.stores, project.id, "bare");
    await ctx.stores.labels.addLabels({ type: "Issue", id: full.id }, [zeta.id, alpha.id, beta.id]);
    await note(project.id, "Issue", full.id, false);
    await note(project.id, "Issue", full.id, false);
    await note(project.id, "Issue", full.id, true);
    await ctx.stores.subscriptions.set(bob.id, { type: "Issue", id: full.id, projectId: project.id }, false);
    await ctx.stores.subscriptions.set(alice.id, { type: "Issue", id: bare.id, projectId: project.id }, true);

    const parts = await ctx.stores.issuableParts.of("Issue", [full, bare], bob.id);
    expect(parts.get(full.id)).toEqual({
      author: {
        id: alice.id,
        username: "alice",
        name: alice.name,
        state: "active",
        created_at: alice.created_at,
      },
      assignee: { id: bob.id, username: "bob", name: bob.name, state: "active", created_at: bob.created_at },
      milestone,
      labels: [alpha, beta, zeta],
      subscription: false,
      userNotesCount: 2,
    });
    // Alice's choice is hers: Bob made none on the bare issue.
    expect(parts.get(bare.id)).toEqual({
      author: null,
      assignee: null,
      milestone: null,
      labels: [],
      subscription: null,
      userNotesCount: 0,
    });
    const anonymous = await ctx.stores.issuableParts.of("Issue", [bare], null);
    expect(anonymous.get(bare.id)?.subscription).toBeNull();
    expect((await ctx.stores.issuableParts.of("Issue", [bare], alice.id)).get(bare.id)?.subscription).toBe(
      true,
    );
    expect(await ctx.stores.issuableParts.of("Issue", [], alice.id)).toEqual(new Map());
  });

  it("reads a merge request's parts, not those of the issue with the same id", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "carol");
    const issue = await createIssue(ctx.stores, project.id, "issue");
    const mergeRequest = await createMergeRequest(ctx.stores, project.id, "feature", { author_id: user.id });
    const bug = await label(project.id, "bug");
    await ctx.stores.labels.addLabels({ type: "MergeRequest", id: mergeRequest.id }, [bug.id]);
    await note(project.id, "MergeRequest", mergeRequest.id, false);
    await ctx.stores.labels.addLabels({ type: "Issue", id: issue.id }, []);

    const parts = await ctx.stores.issuableParts.of("MergeRequest", [mergeRequest], user.id);
    expect(parts.get(mergeRequest.id)).toMatchObject({
      labels: [bug],
      userNotesCount: 1,
      subscription: null,
    });
    expect(parts.get(mergeRequest.id)?.author?.username).toBe("carol");
    // The issue (whose id may be the merge request's) has neither.
    expect((await ctx.stores.issuableParts.of("Issue", [issue], user.id)).get(issue.id)).toMatchObject({
      labels: [],
      userNotesCount: 0,
    });
  });

  it("takes the pointers it is given, so a row deleted meanwhile keeps its author", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "dave");
    const issue = await createIssue(ctx.stores, project.id, "gone", { author_id: user.id });
    await ctx.stores.issues.delete(issue.id);
    const parts = await ctx.stores.issuableParts.of("Issue", [issue], null);
    expect(parts.get(issue.id)?.author?.id).toBe(user.id);
  });

  it("gives pages of every size the same answer, from a reused statement or a fresh one", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "erin");
    const issues = [];
    for (let i = 0; i < 103; i++)
      issues.push(await createIssue(ctx.stores, project.id, `issue ${i}`, { author_id: user.id }));
    const big = await ctx.stores.issuableParts.of("Issue", issues, user.id);
    expect(big.size).toBe(103);
    // The second page of three runs the text the first compiled, with its own parameters.
    for (const start of [0, 3]) {
      const page = issues.slice(start, start + 3);
      const small = await ctx.stores.issuableParts.of("Issue", page, user.id);
      expect(small).toEqual(new Map(page.map((issue) => [issue.id, big.get(issue.id)])));
    }
  });
});
