import { expect, it } from "vitest";
import { createIssue, createWorkspace } from "./__tests__/collaboration.js";
import { createAccount } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";

describeStores("subscription store", (ctx) => {
  it("records one choice per user and subject, replacing the earlier one", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "alice");
    const { user: other } = await createAccount(ctx.stores, "bob");
    const issue = await createIssue(ctx.stores, project.id, "issue");
    const subject = { type: "Issue" as const, id: issue.id, projectId: project.id };
    expect(await ctx.stores.subscriptions.get(user.id, subject)).toBeUndefined();
    const made = await ctx.stores.subscriptions.set(user.id, subject, true);
    expect(made).toEqual({
      user_id: user.id,
      project_id: project.id,
      subscribable_type: "Issue",
      subscribable_id: issue.id,
      subscribed: true,
      created_at: made.created_at,
      updated_at: made.created_at,
    });
    expect(await ctx.stores.subscriptions.get(user.id, subject)).toBe(true);
    const changed = await ctx.stores.subscriptions.set(user.id, subject, false);
    expect(changed).toMatchObject({ subscribed: false, created_at: made.created_at });
    expect(await ctx.stores.subscriptions.get(user.id, subject)).toBe(false);
    await ctx.stores.subscriptions.set(other.id, subject, true);
    // The merge request and the label with the same id are other subjects.
    await ctx.stores.subscriptions.set(user.id, { ...subject, type: "MergeRequest" }, true);
    await ctx.stores.subscriptions.set(user.id, { ...subject, type: "Label" }, true);

    expect(await ctx.stores.subscriptions.choices(subject)).toEqual(
      new Map([
        [user.id, false],
        [other.id, true],
      ]),
    );
    expect(await ctx.stores.subscriptions.getMany(user.id, "Issue", [issue.id, 999])).toEqual(
      new Map([[issue.id, false]]),
    );
    expect(await ctx.stores.subscriptions.getMany(user.id, "MergeRequest", [issue.id])).toEqual(
      new Map([[issue.id, true]]),
    );
    expect(await ctx.stores.subscriptions.getMany(user.id, "Issue", [])).toEqual(new Map());
  });

  it("go with their user and with their project", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "carol");
    const { user: other } = await createAccount(ctx.stores, "dave");
    const issue = await createIssue(ctx.stores, project.id, "issue");
    const subject = { type: "Issue" as const, id: issue.id, projectId: project.id };
    await ctx.stores.subscriptions.set(user.id, subject, true);
    await ctx.stores.subscriptions.set(other.id, subject, true);
    await ctx.stores.users.delete(other.id);
    expect(await ctx.stores.subscriptions.choices(subject)).toEqual(new Map([[user.id, true]]));
    await ctx.stores.projects.delete(project.id);
    expect(await ctx.stores.subscriptions.choices(subject)).toEqual(new Map());
  });
});
