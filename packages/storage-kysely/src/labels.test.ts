import type { Label } from "@kiln/domain";
import { expect, it } from "vitest";
import { createIssue, createMergeRequest, createWorkspace } from "./__tests__/collaboration.js";
import { createAccount, createProject } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";
import { UniqueViolation } from "./errors.js";
import type { NewLabel } from "./stores/labels.js";

const titles = (labels: readonly Label[]): string[] => labels.map((label) => label.title);

describeStores("label store", (ctx) => {
  const newLabel = (projectId: number, title: string, overrides: Partial<NewLabel> = {}): NewLabel => ({
    project_id: projectId,
    title,
    color: "#428BCA",
    description: null,
    priority: null,
    ...overrides,
  });

  it("creates labels with titles unique in a project, comparing case, and lists them by title", async () => {
    const { project } = await createWorkspace(ctx.stores, "alice");
    const other = await createProject(ctx.stores, project.namespace_id, "other");
    const bug = await ctx.stores.labels.create(
      newLabel(project.id, "bug", { description: "broken", priority: 2 }),
    );
    expect(bug).toEqual({
      id: bug.id,
      project_id: project.id,
      title: "bug",
      color: "#428BCA",
      description: "broken",
      priority: 2,
      created_at: bug.created_at,
      updated_at: bug.created_at,
    });
    await expect(ctx.stores.labels.create(newLabel(project.id, "bug"))).rejects.toBeInstanceOf(
      UniqueViolation,
    );
    await ctx.stores.labels.create(newLabel(project.id, "Bug"));
    await ctx.stores.labels.create(newLabel(project.id, "api"));
    await ctx.stores.labels.create(newLabel(project.id, "Zebra"));
    await ctx.stores.labels.create(newLabel(project.id, "needs review?"));
    await ctx.stores.labels.create(newLabel(other.id, "bug"));

    expect(titles(await ctx.stores.labels.listForProject(project.id))).toEqual([
      "api",
      "Bug",
      "bug",
      "needs review?",
      "Zebra",
    ]);
    expect(await ctx.stores.labels.findById(bug.id)).toEqual(bug);
    expect(await ctx.stores.labels.findByTitle(project.id, "bug")).toEqual(bug);
    expect((await ctx.stores.labels.findByTitle(project.id, "BUG"))?.id).toBeUndefined();
    expect(titles(await ctx.stores.labels.findByTitles(project.id, ["bug", "Zebra", "nope", "bug"]))).toEqual(
      ["bug", "Zebra"],
    );
    expect(await ctx.stores.labels.findByTitles(project.id, [])).toEqual([]);
  });

  it("edits a label, refusing a taken title, and deletes it with its links and subscriptions", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "bob");
    const bug = await ctx.stores.labels.create(newLabel(project.id, "bug"));
    await ctx.stores.labels.create(newLabel(project.id, "ui"));
    const edited = await ctx.stores.labels.update(bug.id, { title: "defect", color: "#FFF", priority: null });
    expect(edited).toMatchObject({ title: "defect", color: "#FFF", priority: null, description: null });
    await expect(ctx.stores.labels.update(bug.id, { title: "ui" })).rejects.toBeInstanceOf(UniqueViolation);
    expect(await ctx.stores.labels.update(bug.id + 100, { color: "#000" })).toBeUndefined();

    const issue = await createIssue(ctx.stores, project.id, "tagged");
    await ctx.stores.labels.addLabels({ type: "Issue", id: issue.id }, [bug.id]);
    await ctx.stores.subscriptions.set(user.id, { type: "Label", id: bug.id, projectId: project.id }, true);
    await ctx.stores.subscriptions.set(user.id, { type: "Issue", id: bug.id, projectId: project.id }, true);
    expect(await ctx.stores.labels.delete(bug.id)).toBe(true);
    expect(await ctx.stores.labels.delete(bug.id)).toBe(false);
    expect(await ctx.stores.labels.labelsOf("Issue", [issue.id])).toEqual(new Map([[issue.id, []]]));
    expect(await ctx.stores.subscriptions.get(user.id, { type: "Label", id: bug.id })).toBeUndefined();
    expect(await ctx.stores.subscriptions.get(user.id, { type: "Issue", id: bug.id })).toBe(true);
  });

  it("puts labels on issues and merge requests: set, add, remove, and read them for many at once", async () => {
    const { project } = await createWorkspace(ctx.stores, "carol");
    const [a, b, c] = [
      await ctx.stores.labels.create(newLabel(project.id, "a")),
      await ctx.stores.labels.create(newLabel(project.id, "b")),
      await ctx.stores.labels.create(newLabel(project.id, "c")),
    ];
    const one = await createIssue(ctx.stores, project.id, "one");
    const two = await createIssue(ctx.stores, project.id, "two");
    const mr = await createMergeRequest(ctx.stores, project.id, "topic");
    await ctx.stores.labels.setLabels({ type: "Issue", id: one.id }, [c.id, a.id, a.id]);
    await ctx.stores.labels.addLabels({ type: "Issue", id: one.id }, [b.id, a.id]);
    await ctx.stores.labels.setLabels({ type: "Issue", id: two.id }, [b.id]);
    await ctx.stores.labels.setLabels({ type: "MergeRequest", id: mr.id }, [a.id]);
    const read = async (type: "Issue" | "MergeRequest", ids: number[]) =>
      new Map([...(await ctx.stores.labels.labelsOf(type, ids))].map(([id, labels]) => [id, titles(labels)]));
    expect(await read("Issue", [one.id, two.id, 9999])).toEqual(
      new Map([
        [one.id, ["a", "b", "c"]],
        [two.id, ["b"]],
        [9999, []],
      ]),
    );
    // An issue and a merge request with the same id are different targets.
    expect(await read("MergeRequest", [mr.id])).toEqual(new Map([[mr.id, ["a"]]]));

    await ctx.stores.labels.setLabels({ type: "Issue", id: one.id }, [b.id]);
    await ctx.stores.labels.removeLabels({ type: "Issue", id: two.id }, [b.id, c.id]);
    expect(await read("Issue", [one.id, two.id])).toEqual(
      new Map([
        [one.id, ["b"]],
        [two.id, []],
      ]),
    );
    await ctx.stores.labels.setLabels({ type: "Issue", id: one.id }, []);
    expect(await read("Issue", [one.id])).toEqual(new Map([[one.id, []]]));
    expect(await ctx.stores.labels.labelsOf("Issue", [])).toEqual(new Map());
  });

  it("counts open and closed issues and open merge requests per label, hiding confidential ones when asked", async () => {
    const { user: reader } = await createAccount(ctx.stores, "dave");
    const { project } = await createWorkspace(ctx.stores, "erin");
    const [bug, ui, idle] = [
      await ctx.stores.labels.create(newLabel(project.id, "bug")),
      await ctx.stores.labels.create(newLabel(project.id, "ui")),
      await ctx.stores.labels.create(newLabel(project.id, "idle")),
    ];
    const tag = async (id: number, type: "Issue" | "MergeRequest", labelIds: number[]) =>
      ctx.stores.labels.addLabels({ type, id }, labelIds);
    const open = await createIssue(ctx.stores, project.id, "open");
    const reopened = await createIssue(ctx.stores, project.id, "reopened");
    const closed = await createIssue(ctx.stores, project.id, "closed");
    const secret = await createIssue(ctx.stores, project.id, "secret", { confidential: true });
    const mine = await createIssue(ctx.stores, project.id, "mine", {
      confidential: true,
      author_id: reader.id,
    });
    await ctx.stores.issues.setState(reopened.id, "opened", "closed");
    await ctx.stores.issues.setState(reopened.id, "closed", "reopened");
    await ctx.stores.issues.setState(closed.id, "opened", "closed");
    for (const issue of [open, reopened, closed, secret, mine]) await tag(issue.id, "Issue", [bug.id]);
    await tag(open.id, "Issue", [ui.id]);
    const mrOpen = await createMergeRequest(ctx.stores, project.id, "a");
    const mrMerged = await createMergeRequest(ctx.stores, project.id, "b");
    await ctx.stores.mergeRequests.setState(mrMerged.id, "opened", "merged");
    await tag(mrOpen.id, "MergeRequest", [bug.id, ui.id]);
    await tag(mrMerged.id, "MergeRequest", [bug.id]);

    const counts = (open: number, closed: number, mrs: number) => ({
      open_issues_count: open,
      closed_issues_count: closed,
      open_merge_requests_count: mrs,
    });
    expect(await ctx.stores.labels.counts([bug.id, ui.id, idle.id])).toEqual(
      new Map([
        [bug.id, counts(4, 1, 1)],
        [ui.id, counts(1, 0, 1)],
        [idle.id, counts(0, 0, 0)],
      ]),
    );
    expect(await ctx.stores.labels.counts([bug.id], { userId: null })).toEqual(
      new Map([[bug.id, counts(2, 1, 1)]]),
    );
    expect(await ctx.stores.labels.counts([bug.id], { userId: reader.id })).toEqual(
      new Map([[bug.id, counts(3, 1, 1)]]),
    );
    expect(await ctx.stores.labels.counts([])).toEqual(new Map());
  });
});
