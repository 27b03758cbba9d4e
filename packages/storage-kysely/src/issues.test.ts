import { COUNT_LIMIT, ISSUE_STATE_FILTERS, type IssueState, Visibility } from "@kiln/domain";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { bulkIssues } from "./__tests__/bulk.js";
import {
  createIssue,
  createWorkspace,
  iids,
  minute,
  NEWEST_FIRST,
  OLDEST_FIRST,
} from "./__tests__/collaboration.js";
import { ALL, createAccount, createProject } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const { opened: OPEN, closed: CLOSED, all: ANY_STATE } = ISSUE_STATE_FILTERS;

describeStores("issue store", (ctx) => {
  /** The counters of a project next to a real count of its issues by state. */
  async function countersAndTruth(projectId: number) {
    const rows = await ctx.opened.db
      .selectFrom("issues")
      .select(["state", "reopened"])
      .where("project_id", "=", projectId)
      .execute();
    const project = await ctx.stores.projects.findById(projectId);
    return {
      counters: await ctx.stores.issues.counts(projectId),
      truth: {
        opened: rows.filter((row) => row.state === "opened").length,
        closed: rows.filter((row) => row.state === "closed").length,
      },
      projectOpenIssues: project?.open_issues_count,
    };
  }

  it("creates issues numbered per project, with every field, and finds them by id and iid", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "alice");
    const other = await createProject(ctx.stores, project.namespace_id, "other");
    const first = await createIssue(ctx.stores, project.id, "First", {
      description: "the first",
      author_id: user.id,
      assignee_id: user.id,
      confidential: true,
      due_date: "2016-05-01",
    });
    expect(first).toEqual({
      id: first.id,
      project_id: project.id,
      iid: 1,
      title: "First",
      description: "the first",
      state: "opened",
      author_id: user.id,
      assignee_id: user.id,
      milestone_id: null,
      confidential: true,
      due_date: "2016-05-01",
      moved_to_id: null,
      created_at: first.created_at,
      updated_at: first.created_at,
    });
    expect(first.created_at).toMatch(ISO);
    // A creation time given is kept; the update time is still now unless given too.
    const second = await createIssue(ctx.stores, project.id, "Second", { created_at: minute(5) });
    const elsewhere = await createIssue(ctx.stores, other.id, "Elsewhere", {
      created_at: minute(6),
      updated_at: minute(7),
    });
    expect([second.iid, elsewhere.iid]).toEqual([2, 1]);
    expect(second.created_at).toBe(minute(5));
    expect(second.updated_at > minute(5)).toBe(true);
    expect([elsewhere.created_at, elsewhere.updated_at]).toEqual([minute(6), minute(7)]);
    expect(second.id).not.toBe(elsewhere.id);

    expect(await ctx.stores.issues.findById(first.id)).toEqual(first);
    expect(await ctx.stores.issues.findById(elsewhere.id + 100)).toBeUndefined();
    expect(await ctx.stores.issues.findByIid(project.id, 2)).toEqual(second);
    expect(await ctx.stores.issues.findByIid(other.id, 2)).toBeUndefined();
    expect(
      [...(await ctx.stores.issues.findByIds([second.id, first.id, second.id, 9999])).keys()].sort(),
    ).toEqual([first.id, second.id].sort());
    expect(iids(await ctx.stores.issues.findByIids(project.id, [2, 1, 7]))).toEqual([1, 2]);
    expect(await ctx.stores.issues.findByIids(project.id, [])).toEqual([]);
  });

  it("never gives out an iid twice, even after the newest issue is deleted", async () => {
    const { project } = await createWorkspace(ctx.stores, "bob");
    await createIssue(ctx.stores, project.id, "one");
    const two = await createIssue(ctx.stores, project.id, "two");
    expect(await ctx.stores.issues.delete(two.id)).toBe(true);
    expect(await ctx.stores.issues.delete(two.id)).toBe(false);
    const three = await createIssue(ctx.stores, project.id, "three");
    expect(three.iid).toBe(3);
    expect(await ctx.stores.internalIds.last(project.id, "issues")).toBe(3);
    expect(await ctx.stores.internalIds.last(project.id, "merge_requests")).toBe(0);
  });

  it("gives concurrent creations distinct iids with no gaps, and counts every one", async () => {
    const { project } = await createWorkspace(ctx.stores, "carol");
    const second = await createProject(ctx.stores, project.namespace_id, "second");
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        createIssue(ctx.stores, i % 2 === 0 ? project.id : second.id, `issue ${i}`),
      ),
    );
    for (const target of [project, second]) {
      const numbers = created
        .filter((issue) => issue.project_id === target.id)
        .map((issue) => issue.iid)
        .sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(await ctx.stores.issues.counts(target.id)).toEqual({ opened: 20, closed: 0 });
      expect(await ctx.stores.internalIds.last(target.id, "issues")).toBe(20);
    }
  });

  it("takes back the iid and the count of a creation whose transaction fails", async () => {
    const { project } = await createWorkspace(ctx.stores, "dave");
    await createIssue(ctx.stores, project.id, "kept");
    await expect(
      ctx.stores.transaction(async (tx) => {
        await createIssue(tx, project.id, "lost");
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect((await createIssue(ctx.stores, project.id, "next")).iid).toBe(2);
    expect(await ctx.stores.issues.counts(project.id)).toEqual({ opened: 2, closed: 0 });
  });

  it("edits fields and the update time, leaving the rest", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "erin");
    const milestone = await ctx.stores.milestones.create({
      project_id: project.id,
      title: "v1",
      description: null,
      due_date: null,
      start_date: null,
    });
    const issue = await createIssue(ctx.stores, project.id, "Title", {
      description: "text",
      created_at: minute(0),
    });
    const edited = await ctx.stores.issues.update(issue.id, {
      title: "New title",
      assignee_id: user.id,
      milestone_id: milestone.id,
      confidential: true,
      due_date: "2017-01-31",
      description: undefined,
    });
    expect(edited).toEqual({
      ...issue,
      title: "New title",
      assignee_id: user.id,
      milestone_id: milestone.id,
      confidential: true,
      due_date: "2017-01-31",
      updated_at: edited?.updated_at,
    });
    expect(edited?.updated_at).not.toBe(minute(0));
    const dated = await ctx.stores.issues.update(issue.id, { description: null, updated_at: minute(9) });
    expect(dated).toMatchObject({ description: null, updated_at: minute(9), created_at: minute(0) });
    expect(await ctx.stores.issues.update(issue.id + 100, { title: "x" })).toBeUndefined();
  });

  it("changes state only from the state it is in, keeping the counters exact", async () => {
    const { project } = await createWorkspace(ctx.stores, "frank");
    const a = await createIssue(ctx.stores, project.id, "a");
    const b = await createIssue(ctx.stores, project.id, "b");
    await createIssue(ctx.stores, project.id, "c");

    const closed = await ctx.stores.issues.setState(a.id, "opened", "closed", minute(30));
    expect(closed).toMatchObject({ state: "closed", updated_at: minute(30) });
    expect(await ctx.stores.issues.setState(a.id, "opened", "closed")).toBeUndefined();
    expect(await ctx.stores.issues.setState(a.id, "reopened", "closed")).toBeUndefined();
    expect((await countersAndTruth(project.id)).counters).toEqual({ opened: 2, closed: 1 });

    const reopened = await ctx.stores.issues.setState(a.id, "closed", "reopened");
    expect(reopened?.state).toBe("reopened");
    expect((await ctx.stores.issues.findById(a.id))?.state).toBe("reopened");
    expect(await ctx.stores.issues.setState(a.id, "opened", "closed")).toBeUndefined();
    expect((await ctx.stores.issues.setState(a.id, "reopened", "closed"))?.state).toBe("closed");
    await ctx.stores.issues.setState(b.id, "opened", "closed");
    await ctx.stores.issues.setState(b.id, "closed", "reopened");
    expect(await countersAndTruth(project.id)).toEqual({
      counters: { opened: 2, closed: 1 },
      truth: { opened: 2, closed: 1 },
      projectOpenIssues: 2,
    });

    // Deleting uncounts the issue from the state it is in, reopened counting as open.
    await ctx.stores.issues.delete(b.id);
    await ctx.stores.issues.delete(a.id);
    expect(await countersAndTruth(project.id)).toEqual({
      counters: { opened: 1, closed: 0 },
      truth: { opened: 1, closed: 0 },
      projectOpenIssues: 1,
    });
    expect(await ctx.stores.issues.setState(a.id, "closed", "reopened")).toBeUndefined();
  });

  it("lets one of two concurrent closes win, counting it once", async () => {
    const { project } = await createWorkspace(ctx.stores, "gina");
    const issue = await createIssue(ctx.stores, project.id, "contested");
    const results = await Promise.all([
      ctx.stores.issues.setState(issue.id, "opened", "closed"),
      ctx.stores.issues.setState(issue.id, "opened", "closed"),
    ]);
    expect(results.filter((result) => result !== undefined)).toHaveLength(1);
    expect(await ctx.stores.issues.counts(project.id)).toEqual({ opened: 0, closed: 1 });
  });

  it("deletes an issue with its notes, todos, label links and subscriptions, and nothing else", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "hank");
    const doomed = await createIssue(ctx.stores, project.id, "doomed");
    const kept = await createIssue(ctx.stores, project.id, "kept");
    const label = await ctx.stores.labels.create({
      project_id: project.id,
      title: "bug",
      color: "#FF0000",
      description: null,
      priority: null,
    });
    for (const issue of [doomed, kept]) {
      const target = { type: "Issue" as const, id: issue.id };
      const note = await ctx.stores.notes.create({
        project_id: project.id,
        noteable_type: "Issue",
        noteable_id: issue.id,
        author_id: user.id,
        body: "hi",
        attachment: null,
        system: false,
      });
      await ctx.stores.todos.createPending({
        user_id: user.id,
        project_id: project.id,
        target_type: "Issue",
        target_id: issue.id,
        action: 2,
        author_id: user.id,
        note_id: note.id,
      });
      await ctx.stores.labels.addLabels(target, [label.id]);
      await ctx.stores.subscriptions.set(user.id, { ...target, projectId: project.id }, true);
    }
    expect(await ctx.stores.issues.delete(doomed.id)).toBe(true);
    const left = async (table: "notes" | "todos" | "label_links" | "subscriptions", column: string) => {
      const rows = await sql<{
        id: number;
      }>`select ${sql.ref(column)} as id from ${sql.table(table)}`.execute(ctx.opened.db);
      return rows.rows.map((row) => Number(row.id));
    };
    expect(await left("notes", "noteable_id")).toEqual([kept.id]);
    expect(await left("todos", "target_id")).toEqual([kept.id]);
    expect(await left("label_links", "target_id")).toEqual([kept.id]);
    expect(await left("subscriptions", "subscribable_id")).toEqual([kept.id]);
    expect(await ctx.stores.labels.findById(label.id)).toBeDefined();
  });

  describe("lists", () => {
    it("filter by state: opened takes reopened ones too, and either alone is possible", async () => {
      const { project } = await createWorkspace(ctx.stores, "ivy");
      const [a, b, c] = [
        await createIssue(ctx.stores, project.id, "a", { created_at: minute(1) }),
        await createIssue(ctx.stores, project.id, "b", { created_at: minute(2) }),
        await createIssue(ctx.stores, project.id, "c", { created_at: minute(3) }),
      ];
      await ctx.stores.issues.setState(b!.id, "opened", "closed");
      await ctx.stores.issues.setState(c!.id, "opened", "closed");
      await ctx.stores.issues.setState(c!.id, "closed", "reopened");
      const list = async (states: readonly IssueState[] | undefined) =>
        iids(
          (
            await ctx.stores.issues.list(
              { kind: "project", projectId: project.id },
              { states },
              OLDEST_FIRST,
              ALL,
            )
          ).items,
        );
      expect(await list(OPEN)).toEqual([1, 3]);
      expect(await list(CLOSED)).toEqual([2]);
      expect(await list(ANY_STATE)).toEqual([1, 2, 3]);
      expect(await list(undefined)).toEqual([1, 2, 3]);
      expect(await list(["opened"])).toEqual([1]);
      expect(await list(["reopened"])).toEqual([3]);
      expect(await list(["reopened", "closed"])).toEqual([2, 3]);
      expect(await list([])).toEqual([]);
      expect(a?.iid).toBe(1);
    });

    it("filter by iid, author, assignee, milestone and text", async () => {
      const { user, project } = await createWorkspace(ctx.stores, "jack");
      const { user: other } = await createAccount(ctx.stores, "kate");
      const v1 = await ctx.stores.milestones.create({
        project_id: project.id,
        title: "v1",
        description: null,
        due_date: null,
        start_date: null,
      });
      const v2 = await ctx.stores.milestones.create({
        project_id: project.id,
        title: "v2",
        description: null,
        due_date: null,
        start_date: null,
      });
      await createIssue(ctx.stores, project.id, "Crash on start", {
        author_id: user.id,
        milestone_id: v1.id,
      });
      await createIssue(ctx.stores, project.id, "Typo", {
        author_id: other.id,
        assignee_id: user.id,
        description: "The README says CRASH",
        milestone_id: v2.id,
      });
      await createIssue(ctx.stores, project.id, "100% wrong_thing", {
        author_id: other.id,
        assignee_id: other.id,
      });
      const list = async (filter: Parameters<typeof ctx.stores.issues.list>[1]) =>
        iids(
          (
            await ctx.stores.issues.list(
              { kind: "project", projectId: project.id },
              filter,
              OLDEST_FIRST,
              ALL,
            )
          ).items,
        );
      expect(await list({ iids: [3, 1, 9] })).toEqual([1, 3]);
      expect(await list({ iids: [] })).toEqual([]);
      expect(await list({ authorId: other.id })).toEqual([2, 3]);
      expect(await list({ assigneeId: user.id })).toEqual([2]);
      expect(await list({ assigneeId: null })).toEqual([1]);
      expect(await list({ milestone: "v2" })).toEqual([2]);
      expect(await list({ milestone: "v3" })).toEqual([]);
      expect(await list({ milestone: null })).toEqual([3]);
      expect(await list({ milestoneId: v1.id })).toEqual([1]);
      expect(await list({ search: "crash" })).toEqual([1, 2]);
      expect(await list({ search: "100%" })).toEqual([3]);
      expect(await list({ search: "g_t" })).toEqual([3]);
      expect(await list({ search: "%" })).toEqual([3]);
      expect(await list({ search: "ng_th", authorId: user.id })).toEqual([]);
    });

    it("filter by labels, any or all of them, in one project and across projects", async () => {
      const { project } = await createWorkspace(ctx.stores, "liam");
      const other = await createProject(ctx.stores, project.namespace_id, "other");
      const label = async (projectId: number, title: string) =>
        ctx.stores.labels.create({
          project_id: projectId,
          title,
          color: "#FFFFFF",
          description: null,
          priority: null,
        });
      const [bug, ui, Bug] = [
        await label(project.id, "bug"),
        await label(project.id, "ui"),
        await label(project.id, "Bug"),
      ];
      const [otherBug, otherUi] = [await label(other.id, "bug"), await label(other.id, "ui")];
      const tag = async (projectId: number, title: string, labelIds: number[]) => {
        const issue = await createIssue(ctx.stores, projectId, title);
        await ctx.stores.labels.setLabels({ type: "Issue", id: issue.id }, labelIds);
        return issue;
      };
      await tag(project.id, "bug only", [bug.id]);
      await tag(project.id, "bug and ui", [bug.id, ui.id]);
      await tag(project.id, "ui only", [ui.id]);
      await tag(project.id, "Bug only", [Bug.id]);
      await tag(project.id, "none", []);
      await tag(other.id, "other bug and ui", [otherBug.id, otherUi.id]);
      await tag(other.id, "other ui", [otherUi.id]);

      const one = { kind: "project" as const, projectId: project.id };
      const both = { kind: "projects" as const, projectIds: [project.id, other.id] };
      const titles = async (scope: typeof one | typeof both, titles: string[], match: "any" | "all") =>
        (await ctx.stores.issues.list(scope, { labels: { titles, match } }, OLDEST_FIRST, ALL)).items
          .map((issue) => issue.title)
          .sort();
      expect(await titles(one, ["bug"], "any")).toEqual(["bug and ui", "bug only"]);
      expect(await titles(one, ["bug", "ui"], "any")).toEqual(["bug and ui", "bug only", "ui only"]);
      expect(await titles(one, ["bug", "ui"], "all")).toEqual(["bug and ui"]);
      expect(await titles(one, ["bug", "nope"], "any")).toEqual(["bug and ui", "bug only"]);
      expect(await titles(one, ["bug", "nope"], "all")).toEqual([]);
      expect(await titles(one, ["nope"], "any")).toEqual([]);
      expect(await titles(one, ["Bug"], "any")).toEqual(["Bug only"]);
      expect(await titles(both, ["bug", "ui"], "all")).toEqual(["bug and ui", "other bug and ui"]);
      expect(await titles(both, ["ui"], "any")).toEqual([
        "bug and ui",
        "other bug and ui",
        "other ui",
        "ui only",
      ]);
      expect(await titles(both, ["nope"], "any")).toEqual([]);
      const all = await ctx.stores.issues.list(
        one,
        { labels: { titles: ["ui"], match: "any" }, states: OPEN },
        OLDEST_FIRST,
        ALL,
      );
      expect(all.total).toBe(2);
    });

    it("match all of hundreds of titles across projects (one condition for them all, not one per title)", async () => {
      const { project } = await createWorkspace(ctx.stores, "lena");
      const other = await createProject(ctx.stores, project.namespace_id, "other");
      const titles = Array.from({ length: 300 }, (_, index) => `label ${index}`);
      const labelIds = [];
      for (const title of titles) {
        const label = await ctx.stores.labels.create({
          project_id: project.id,
          title,
          color: "#FFFFFF",
          description: null,
          priority: null,
        });
        labelIds.push(label.id);
      }
      const every = await createIssue(ctx.stores, project.id, "every label");
      await ctx.stores.labels.setLabels({ type: "Issue", id: every.id }, labelIds);
      const allButOne = await createIssue(ctx.stores, project.id, "all but one");
      await ctx.stores.labels.setLabels({ type: "Issue", id: allButOne.id }, labelIds.slice(1));
      const both = { kind: "projects" as const, projectIds: [project.id, other.id] };
      const list = await ctx.stores.issues.list(
        both,
        { labels: { titles, match: "all" } },
        OLDEST_FIRST,
        ALL,
      );
      expect(list.items.map((issue) => issue.title)).toEqual(["every label"]);
    });

    it("leave out confidential issues but the reader's own and those of the projects named", async () => {
      const { user: reader } = await createAccount(ctx.stores, "mia");
      const { project } = await createWorkspace(ctx.stores, "noah");
      const other = await createProject(ctx.stores, project.namespace_id, "other");
      await createIssue(ctx.stores, project.id, "public");
      await createIssue(ctx.stores, project.id, "secret");
      await ctx.stores.issues.update((await createIssue(ctx.stores, project.id, "mine")).id, {
        confidential: true,
      });
      await createIssue(ctx.stores, project.id, "secret", { confidential: true });
      await createIssue(ctx.stores, project.id, "written", { confidential: true, author_id: reader.id });
      await createIssue(ctx.stores, project.id, "assigned", { confidential: true, assignee_id: reader.id });
      await createIssue(ctx.stores, other.id, "other secret", { confidential: true });
      const scope = { kind: "projects" as const, projectIds: [project.id, other.id] };
      const titles = async (confidential: Parameters<typeof ctx.stores.issues.list>[1]["confidential"]) =>
        (await ctx.stores.issues.list(scope, { confidential }, OLDEST_FIRST, ALL)).items.map(
          (issue) => issue.title,
        );
      expect(await titles(undefined)).toHaveLength(7);
      expect(await titles({ userId: null })).toEqual(["public", "secret"]);
      expect(await titles({ userId: reader.id })).toEqual(["public", "secret", "written", "assigned"]);
      expect(await titles({ userId: reader.id, projectIds: [other.id] })).toEqual([
        "public",
        "secret",
        "written",
        "assigned",
        "other secret",
      ]);
    });

    it("order by creation, update or id, either way, ties broken by id", async () => {
      const { project } = await createWorkspace(ctx.stores, "olga");
      await createIssue(ctx.stores, project.id, "1", { created_at: minute(2), updated_at: minute(2) });
      await createIssue(ctx.stores, project.id, "2", { created_at: minute(1), updated_at: minute(1) });
      await createIssue(ctx.stores, project.id, "3", { created_at: minute(2), updated_at: minute(2) });
      await ctx.stores.issues.update((await ctx.stores.issues.findByIid(project.id, 2))!.id, {
        updated_at: minute(9),
      });
      const scope = { kind: "project" as const, projectId: project.id };
      const order = async (by: "created_at" | "updated_at" | "id", direction: "asc" | "desc") =>
        iids((await ctx.stores.issues.list(scope, {}, { by, direction }, ALL)).items);
      expect(await order("created_at", "asc")).toEqual([2, 1, 3]);
      expect(await order("created_at", "desc")).toEqual([3, 1, 2]);
      expect(await order("updated_at", "asc")).toEqual([1, 3, 2]);
      expect(await order("updated_at", "desc")).toEqual([2, 3, 1]);
      expect(await order("id", "desc")).toEqual([3, 2, 1]);
    });

    it("read the total of a project's list by state from its counters, and count any other list", async () => {
      const { project } = await createWorkspace(ctx.stores, "pete");
      for (let i = 0; i < 5; i++)
        await createIssue(ctx.stores, project.id, `issue ${i}`, { created_at: minute(i) });
      await ctx.stores.issues.setState(
        (await ctx.stores.issues.findByIid(project.id, 1))!.id,
        "opened",
        "closed",
      );
      // Skew the counters: a total that comes from them shows it, a counted one does not.
      await ctx.opened.db
        .updateTable("projects")
        .set({ open_issues_count: 40, closed_issues_count: 7 })
        .where("id", "=", project.id)
        .execute();
      const scope = { kind: "project" as const, projectId: project.id };
      const total = async (filter: Parameters<typeof ctx.stores.issues.list>[1], perPage = 2, page = 1) =>
        (await ctx.stores.issues.list(scope, filter, NEWEST_FIRST, { page, perPage })).total;
      expect(await total({})).toBe(47);
      expect(await total({ states: ANY_STATE })).toBe(47);
      expect(await total({ states: OPEN })).toBe(40);
      expect(await total({ states: CLOSED }, 1)).toBe(7);
      expect(await total({ states: ["opened"] })).toBe(4);
      expect(await total({ states: OPEN, search: "issue" })).toBe(4);
      expect(await total({ confidential: { userId: null } })).toBe(5);
      // A short first page is its own total.
      expect(await total({ states: CLOSED }, 20)).toBe(1);
      const page = await ctx.stores.issues.list(scope, { states: OPEN }, NEWEST_FIRST, {
        page: 2,
        perPage: 2,
      });
      expect(iids(page.items)).toEqual([3, 2]);
    });

    it("read deep pages by id first, in the same order, and stop counting past the limit", async () => {
      const { project } = await createWorkspace(ctx.stores, "quinn");
      await bulkIssues(ctx.opened.db, project.id, COUNT_LIMIT + 5, 3);
      const scope = { kind: "project" as const, projectId: project.id };
      const deep = await ctx.stores.issues.list(scope, {}, NEWEST_FIRST, { page: 60, perPage: 20 });
      // Newest first: bulk issue i has iid 1000 + i; page 60 starts after 1180 of them.
      const newest = COUNT_LIMIT + 5;
      expect(iids(deep.items)).toEqual(Array.from({ length: 20 }, (_, k) => 1000 + newest - 1180 - k));
      const closedDeep = await ctx.stores.issues.list(scope, { states: CLOSED }, OLDEST_FIRST, {
        page: 51,
        perPage: 20,
      });
      expect(iids(closedDeep.items)).toEqual(Array.from({ length: 20 }, (_, k) => 1000 + 3 * (1001 + k)));
      const filtered = await ctx.stores.issues.list(scope, { search: "bulk" }, OLDEST_FIRST, {
        page: 2,
        perPage: 20,
      });
      expect(filtered.total).toBeNull();
      const fewer = await ctx.stores.issues.list(scope, { states: CLOSED, search: "bulk" }, OLDEST_FIRST, {
        page: 2,
        perPage: 20,
      });
      expect(fewer.total).toBe(Math.floor(newest / 3));
    });

    it("draw from one project, some, the ones a reader may read, or all", async () => {
      const { user: reader } = await createAccount(ctx.stores, "rita");
      const { namespace } = await createAccount(ctx.stores, "sam");
      const open = await createProject(ctx.stores, namespace.id, "open", {
        visibility_level: Visibility.PUBLIC,
      });
      const inside = await createProject(ctx.stores, namespace.id, "inside", {
        visibility_level: Visibility.INTERNAL,
      });
      const closed = await createProject(ctx.stores, namespace.id, "closed");
      const shared = await createProject(ctx.stores, namespace.id, "shared");
      await ctx.stores.projectMembers.add(shared.id, reader.id, 30);
      for (const project of [open, inside, closed, shared])
        await createIssue(ctx.stores, project.id, project.path);
      const titles = async (scope: Parameters<typeof ctx.stores.issues.list>[0]) =>
        (await ctx.stores.issues.list(scope, {}, OLDEST_FIRST, ALL)).items.map((issue) => issue.title);
      expect(await titles({ kind: "project", projectId: closed.id })).toEqual(["closed"]);
      expect(await titles({ kind: "projects", projectIds: [open.id, shared.id] })).toEqual([
        "open",
        "shared",
      ]);
      expect(await titles({ kind: "projects", projectIds: [] })).toEqual([]);
      expect(await titles({ kind: "readable", reader: { userId: reader.id, external: false } })).toEqual([
        "open",
        "inside",
        "shared",
      ]);
      expect(await titles({ kind: "readable", reader: { userId: reader.id, external: true } })).toEqual([
        "open",
        "shared",
      ]);
      expect(await titles({ kind: "all" })).toEqual(["open", "inside", "closed", "shared"]);
    });
  });

  it("go with a deleted user's own projects, however many of their references point at them", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "vera");
    const { project: elsewhere } = await createWorkspace(ctx.stores, "walt");
    const milestone = await ctx.stores.milestones.create({
      project_id: project.id,
      title: "v1",
      description: null,
      due_date: null,
      start_date: null,
    });
    const target = await createIssue(ctx.stores, project.id, "moved here", { author_id: user.id });
    const own = await createIssue(ctx.stores, project.id, "own", {
      author_id: user.id,
      assignee_id: user.id,
      milestone_id: milestone.id,
    });
    await ctx.stores.issues.update(own.id, { moved_to_id: target.id });
    const moved = await createIssue(ctx.stores, elsewhere.id, "moved away", {
      author_id: user.id,
      assignee_id: user.id,
    });
    await ctx.stores.issues.update(moved.id, { moved_to_id: own.id });
    expect(await ctx.stores.users.delete(user.id)).toBe(true);
    expect(await ctx.stores.issues.findById(own.id)).toBeUndefined();
    expect(await ctx.stores.issues.findById(moved.id)).toMatchObject({
      author_id: null,
      assignee_id: null,
      moved_to_id: null,
    });
    expect(await ctx.stores.issues.counts(elsewhere.id)).toEqual({ opened: 1, closed: 0 });
  });

  it("refuse references to rows that do not exist, checked when the change commits", async () => {
    const { project } = await createWorkspace(ctx.stores, "xena");
    const issue = await createIssue(ctx.stores, project.id, "x");
    await expect(ctx.stores.issues.update(issue.id, { milestone_id: 999_999 })).rejects.toThrow();
    await expect(
      ctx.stores.transaction(async (tx) => {
        await tx.issues.update(issue.id, { assignee_id: 999_999 });
        await tx.issues.update(issue.id, { assignee_id: null });
      }),
    ).resolves.toBeUndefined();
    expect(await ctx.stores.issues.findById(issue.id)).toMatchObject({
      milestone_id: null,
      assignee_id: null,
    });
  });

  it("keep a deleted user's issues without an author or assignee, and drop their todos and subscriptions", async () => {
    const { project } = await createWorkspace(ctx.stores, "tom");
    const { user: leaving } = await createAccount(ctx.stores, "uma");
    const issue = await createIssue(ctx.stores, project.id, "theirs", {
      author_id: leaving.id,
      assignee_id: leaving.id,
    });
    await ctx.stores.todos.createPending({
      user_id: leaving.id,
      project_id: project.id,
      target_type: "Issue",
      target_id: issue.id,
      action: 1,
      author_id: leaving.id,
      note_id: null,
    });
    await ctx.stores.subscriptions.set(
      leaving.id,
      { type: "Issue", id: issue.id, projectId: project.id },
      true,
    );
    expect(await ctx.stores.users.delete(leaving.id)).toBe(true);
    expect(await ctx.stores.issues.findById(issue.id)).toMatchObject({ author_id: null, assignee_id: null });
    expect(await ctx.stores.issues.counts(project.id)).toEqual({ opened: 1, closed: 0 });
    expect(await ctx.stores.subscriptions.choices({ type: "Issue", id: issue.id })).toEqual(new Map());
    const todos = await ctx.opened.db.selectFrom("todos").select("id").execute();
    expect(todos).toEqual([]);
  });
});
