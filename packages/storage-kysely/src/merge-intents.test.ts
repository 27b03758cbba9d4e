import { sql } from "kysely";
import { expect, it } from "vitest";
import { createIssue, createMergeRequest, createWorkspace } from "./__tests__/collaboration.js";
import { createAccount } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";
import { onSqlite } from "./queries.js";
import type { NewMergeIntent } from "./stores/merge-intents.js";

describeStores("merge intent store", (ctx) => {
  async function intentFixture(): Promise<NewMergeIntent> {
    const { project } = await createWorkspace(ctx.stores, "alice");
    const { user } = await createAccount(ctx.stores, "bob");
    const mr = await createMergeRequest(ctx.stores, project.id, "feature");
    const issue = await createIssue(ctx.stores, project.id, "A bug");
    return {
      merge_request_id: mr.id,
      target_branch: "main",
      previous_sha: "a".repeat(40),
      commit_sha: "b".repeat(40),
      source_sha: "c".repeat(40),
      user_id: user.id,
      remove_source_branch: true,
      closing_issue_ids: [issue.id],
    };
  }

  it("records intents with every field, finds them by merge request, and removes them once", async () => {
    const fields = await intentFixture();
    const first = await ctx.stores.mergeIntents.record(fields);
    const second = await ctx.stores.mergeIntents.record({ ...fields, commit_sha: "d".repeat(40) });
    expect(first).toEqual({ ...fields, id: first.id, created_at: expect.any(String) });
    expect(await ctx.stores.mergeIntents.forMergeRequest(fields.merge_request_id)).toEqual([first, second]);
    expect(await ctx.stores.mergeIntents.all()).toEqual([first, second]);
    expect(await ctx.stores.mergeIntents.remove(first.id)).toBe(true);
    expect(await ctx.stores.mergeIntents.remove(first.id)).toBe(false);
    expect(await ctx.stores.mergeIntents.all()).toEqual([second]);
  });

  it("goes with its merge request, and outlives its merger's account", async () => {
    const fields = await intentFixture();
    const intent = await ctx.stores.mergeIntents.record(fields);
    await ctx.stores.users.delete(fields.user_id as number);
    expect(await ctx.stores.mergeIntents.all()).toEqual([{ ...intent, user_id: null }]);
    await ctx.stores.mergeRequests.delete(fields.merge_request_id);
    expect(await ctx.stores.mergeIntents.all()).toEqual([]);
  });

  it("lets one transaction claim an intent: another claim waits, then finds it gone", async () => {
    const intent = await ctx.stores.mergeIntents.record(await intentFixture());
    let second: Promise<unknown> | undefined;
    await ctx.stores.transaction(async (tx) => {
      expect(await tx.mergeIntents.claim(intent.id)).toEqual(intent);
      second = ctx.stores.transaction((other) => other.mergeIntents.claim(intent.id));
      // On PostgreSQL, wait until the second claim is blocked on the row (SQLite's transactions
      // queue for its one connection instead).
      if (!onSqlite(ctx.opened.db)) await untilWaitingOnLock();
      await tx.mergeIntents.remove(intent.id);
    });
    expect(await second).toBeUndefined();
  });

  async function untilWaitingOnLock(): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const { rows } = await sql<{ waiting: string }>`
        select count(*) as waiting from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock'`.execute(ctx.opened.db);
      if (Number(rows[0]?.waiting) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect.fail("the second claim never waited for the first");
  }
});
