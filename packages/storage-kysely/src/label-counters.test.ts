import { Migrator } from "kysely";
import { expect, it } from "vitest";
import { createIssue, createMergeRequest, createWorkspace, OLDEST_FIRST } from "./__tests__/collaboration.js";
import { describeStores } from "./__tests__/store-suite.js";
import { migrateToLatest } from "./migrate.js";
import { migrationProvider } from "./migrations/index.js";

// The label counters (migration 0007) must equal a count of the links through every change that
// moves one: links added, replaced and removed, state changes, deletions, and the backfill.

describeStores("label counters", (ctx) => {
  /** A project with three labels, and a check that their counters equal a count of their links. */
  async function labelledProject() {
    const { project } = await createWorkspace(ctx.stores, "carol");
    const label = (title: string) =>
      ctx.stores.labels.create({
        project_id: project.id,
        title,
        color: "#428BCA",
        description: null,
        priority: null,
      });
    const labels = [await label("bug"), await label("ui"), await label("docs")];
    const ids = labels.map((l) => l.id);
    // Counting through the issues, keeping every confidential issue of the project: the slow path.
    const everything = { userId: null, projectIds: [project.id] };
    const expectExact = async () => {
      const kept = await ctx.stores.labels.counts(ids);
      expect(kept).toEqual(await ctx.stores.labels.counts(ids, everything));
      return kept;
    };
    const expectCounts = async (expected: Record<string, [number, number, number]>) => {
      const kept = await expectExact();
      const byTitle = Object.fromEntries(
        labels.map((l) => {
          const c = kept.get(l.id)!;
          return [l.title, [c.open_issues_count, c.closed_issues_count, c.open_merge_requests_count]];
        }),
      );
      expect(byTitle).toEqual(expected);
    };
    return { project, ids, expectCounts, expectExact };
  }

  it("follows label links and issue states: add, set, remove, close, reopen, delete", async () => {
    const { project, ids, expectCounts } = await labelledProject();
    const [bug, ui, docs] = ids as [number, number, number];
    const one = await createIssue(ctx.stores, project.id, "one");
    const two = await createIssue(ctx.stores, project.id, "two", { confidential: true });
    const issue = (id: number) => ({ type: "Issue" as const, id });

    await ctx.stores.labels.addLabels(issue(one.id), [bug, ui]);
    await ctx.stores.labels.addLabels(issue(one.id), [bug]); // already there: not counted twice
    await ctx.stores.labels.addLabels(issue(two.id), [bug]);
    await expectCounts({ bug: [2, 0, 0], ui: [1, 0, 0], docs: [0, 0, 0] });

    await ctx.stores.issues.setState(one.id, "opened", "closed");
    await expectCounts({ bug: [1, 1, 0], ui: [0, 1, 0], docs: [0, 0, 0] });
    // A state change that did not happen (the issue is no longer opened) moves nothing.
    expect(await ctx.stores.issues.setState(one.id, "opened", "closed")).toBeUndefined();
    await expectCounts({ bug: [1, 1, 0], ui: [0, 1, 0], docs: [0, 0, 0] });

    await ctx.stores.labels.setLabels(issue(one.id), [ui, docs]);
    await expectCounts({ bug: [1, 0, 0], ui: [0, 1, 0], docs: [0, 1, 0] });
    await ctx.stores.issues.setState(one.id, "closed", "reopened");
    await expectCounts({ bug: [1, 0, 0], ui: [1, 0, 0], docs: [1, 0, 0] });

    await ctx.stores.labels.removeLabels(issue(one.id), [docs, bug]); // bug was not on it
    await expectCounts({ bug: [1, 0, 0], ui: [1, 0, 0], docs: [0, 0, 0] });
    await ctx.stores.labels.setLabels(issue(one.id), []);
    await expectCounts({ bug: [1, 0, 0], ui: [0, 0, 0], docs: [0, 0, 0] });

    await ctx.stores.issues.setState(two.id, "opened", "closed");
    await expectCounts({ bug: [0, 1, 0], ui: [0, 0, 0], docs: [0, 0, 0] });
    expect(await ctx.stores.issues.delete(two.id)).toBe(true);
    await expectCounts({ bug: [0, 0, 0], ui: [0, 0, 0], docs: [0, 0, 0] });
  });

  it("counts open merge requests only: merged and closed ones leave the count, reopened ones return", async () => {
    const { project, ids, expectCounts } = await labelledProject();
    const [bug, ui] = ids as [number, number, number];
    const first = await createMergeRequest(ctx.stores, project.id, "first");
    const second = await createMergeRequest(ctx.stores, project.id, "second");
    const mr = (id: number) => ({ type: "MergeRequest" as const, id });
    await ctx.stores.labels.setLabels(mr(first.id), [bug, ui]);
    await ctx.stores.labels.setLabels(mr(second.id), [bug]);
    await expectCounts({ bug: [0, 0, 2], ui: [0, 0, 1], docs: [0, 0, 0] });

    await ctx.stores.mergeRequests.setState(first.id, "opened", "closed");
    await expectCounts({ bug: [0, 0, 1], ui: [0, 0, 0], docs: [0, 0, 0] });
    // Labels put on a closed merge request are not counted, and count once it reopens.
    await ctx.stores.labels.addLabels(mr(first.id), [ids[2]!]);
    await expectCounts({ bug: [0, 0, 1], ui: [0, 0, 0], docs: [0, 0, 0] });
    await ctx.stores.mergeRequests.setState(first.id, "closed", "reopened");
    await expectCounts({ bug: [0, 0, 2], ui: [0, 0, 1], docs: [0, 0, 1] });

    await ctx.stores.mergeRequests.setState(second.id, "opened", "merged");
    await ctx.stores.labels.removeLabels(mr(second.id), [bug]);
    await expectCounts({ bug: [0, 0, 1], ui: [0, 0, 1], docs: [0, 0, 1] });
    expect(await ctx.stores.mergeRequests.delete(first.id)).toBe(true);
    await expectCounts({ bug: [0, 0, 0], ui: [0, 0, 0], docs: [0, 0, 0] });
  });

  it("stay exact when links and states of the same issues change at once", async () => {
    const { project, ids, expectExact } = await labelledProject();
    const [bug, ui, docs] = ids as [number, number, number];
    const issues = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createIssue(ctx.stores, project.id, `busy ${i}`)),
    );
    const issue = (id: number) => ({ type: "Issue" as const, id });
    await Promise.all(
      issues.flatMap((one, i) => [
        ctx.stores.labels.addLabels(issue(one.id), [bug]),
        ctx.stores.issues.setState(one.id, "opened", "closed"),
        ctx.stores.labels.setLabels(issue(one.id), i % 2 === 0 ? [ui, docs] : [docs, ui, bug]),
        ctx.stores.labels.removeLabels(issue(one.id), [docs]),
      ]),
    );
    const kept = await expectExact();
    // Every issue ended closed; whatever order the edits took, no label counts one as open.
    expect([...kept.values()].every((counts) => counts.open_issues_count === 0)).toBe(true);
    expect(kept.get(ui)?.closed_issues_count).toBe(8);
  });

  it("gives a list filtered by one label its total from the counters, and none above 10,000", async () => {
    const { project, ids, expectCounts } = await labelledProject();
    const [bug] = ids as [number, number, number];
    const issues = [];
    for (let i = 0; i < 5; i++) issues.push(await createIssue(ctx.stores, project.id, `issue ${i}`));
    for (const issue of issues) await ctx.stores.labels.addLabels({ type: "Issue", id: issue.id }, [bug]);
    await ctx.stores.issues.setState(issues[0]!.id, "opened", "closed");
    await expectCounts({ bug: [4, 1, 0], ui: [0, 0, 0], docs: [0, 0, 0] });
    const list = (states: ("opened" | "reopened" | "closed")[]) =>
      ctx.stores.issues.list(
        { kind: "project", projectId: project.id },
        { states, labels: { titles: ["bug"], match: "any" } },
        OLDEST_FIRST,
        { page: 2, perPage: 2 },
      );
    expect((await list(["opened", "reopened"])).total).toBe(4);
    expect((await list(["opened", "reopened", "closed"])).total).toBe(5);
    expect((await list(["closed"])).total).toBe(1);

    // A counter above the cap: the list says it does not know, without counting.
    await ctx.opened.db
      .updateTable("labels")
      .set({ open_issues_count: 10_001 })
      .where("id", "=", bug)
      .execute();
    const capped = await list(["opened", "reopened"]);
    expect(capped.total).toBeNull();
    expect(capped.items.map((issue) => issue.title)).toEqual(["issue 3", "issue 4"]);
  });

  it("are filled from the links by the migration that adds them", async () => {
    const { project, ids, expectCounts } = await labelledProject();
    const [bug, ui] = ids as [number, number, number];
    const open = await createIssue(ctx.stores, project.id, "open");
    const closed = await createIssue(ctx.stores, project.id, "closed");
    const merging = await createMergeRequest(ctx.stores, project.id, "merging");
    await ctx.stores.labels.setLabels({ type: "Issue", id: open.id }, [bug, ui]);
    await ctx.stores.labels.setLabels({ type: "Issue", id: closed.id }, [bug]);
    await ctx.stores.labels.setLabels({ type: "MergeRequest", id: merging.id }, [ui]);
    await ctx.stores.issues.setState(closed.id, "opened", "closed");

    const migrator = new Migrator({ db: ctx.opened.db, provider: migrationProvider });
    const { error, results } = await migrator.migrateTo("0006_collaboration");
    if (error) throw error;
    expect(results?.map((r) => r.migrationName)).toContain("0007_label_counters");
    expect((await migrateToLatest(ctx.opened.db)).applied).toContain("0007_label_counters");
    await expectCounts({ bug: [1, 1, 0], ui: [1, 0, 1], docs: [0, 0, 0] });
  });
});
