import { TodoAction, Visibility } from "@kiln/domain";
import { expect, it } from "vitest";
import { createIssue, createMergeRequest, createWorkspace } from "./__tests__/collaboration.js";
import { ALL, createAccount, createGroup, createProject, ids } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";
import type { NewTodo } from "./stores/todos.js";

describeStores("todo store", (ctx) => {
  const todo = (
    userId: number,
    projectId: number,
    target: { type: "Issue" | "MergeRequest"; id: number },
    overrides: Partial<NewTodo> = {},
  ): NewTodo => ({
    user_id: userId,
    project_id: projectId,
    target_type: target.type,
    target_id: target.id,
    action: TodoAction.MARKED,
    author_id: null,
    note_id: null,
    ...overrides,
  });

  it("creates a pending todo, and no second pending one on the same target whatever the action", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "alice");
    const { user: other } = await createAccount(ctx.stores, "bob");
    const issue = await createIssue(ctx.stores, project.id, "issue");
    const mr = await createMergeRequest(ctx.stores, project.id, "topic");
    const target = { type: "Issue" as const, id: issue.id };
    const first = await ctx.stores.todos.createPending(
      todo(user.id, project.id, target, { action: TodoAction.ASSIGNED, author_id: other.id }),
    );
    expect(first).toEqual({
      id: first?.id,
      user_id: user.id,
      project_id: project.id,
      target_type: "Issue",
      target_id: issue.id,
      action: TodoAction.ASSIGNED,
      author_id: other.id,
      note_id: null,
      state: "pending",
      created_at: first?.created_at,
      updated_at: first?.created_at,
    });
    expect(await ctx.stores.todos.createPending(todo(user.id, project.id, target))).toBeNull();
    expect(
      await ctx.stores.todos.createPending(
        todo(user.id, project.id, target, { action: TodoAction.MENTIONED }),
      ),
    ).toBeNull();
    // Another user, or the merge request with the same id, is another todo.
    expect(await ctx.stores.todos.createPending(todo(other.id, project.id, target))).not.toBeNull();
    expect(
      await ctx.stores.todos.createPending(todo(user.id, project.id, { type: "MergeRequest", id: mr.id })),
    ).not.toBeNull();
    expect(await ctx.stores.todos.findPending(user.id, target)).toEqual(first);
    expect(await ctx.stores.todos.findById(first!.id)).toEqual(first);

    // Once done, a new one may be created.
    await ctx.stores.todos.markDone(user.id, first!.id);
    expect(await ctx.stores.todos.findPending(user.id, target)).toBeUndefined();
    const again = await ctx.stores.todos.createPending(todo(user.id, project.id, target));
    expect(again?.id).not.toBe(first?.id);
  });

  it("makes one todo of concurrent creations", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "carol");
    const issue = await createIssue(ctx.stores, project.id, "issue");
    const results = await Promise.all(
      [
        TodoAction.ASSIGNED,
        TodoAction.MENTIONED,
        TodoAction.MARKED,
        TodoAction.MARKED,
        TodoAction.MENTIONED,
      ].map((action) =>
        ctx.stores.todos.createPending(
          todo(user.id, project.id, { type: "Issue", id: issue.id }, { action }),
        ),
      ),
    );
    expect(results.filter((result) => result !== null)).toHaveLength(1);
    expect((await ctx.stores.todos.list(user.id, {}, ALL)).total).toBe(1);
  });

  it("lists a user's todos newest first, by state, action, author, project, type and readability", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "dave");
    const { user: author, namespace } = await createAccount(ctx.stores, "erin");
    const hidden = await createProject(ctx.stores, namespace.id, "hidden");
    const visible = await createProject(ctx.stores, namespace.id, "visible", {
      visibility_level: Visibility.PUBLIC,
    });
    const [i1, i2] = [
      await createIssue(ctx.stores, project.id, "1"),
      await createIssue(ctx.stores, project.id, "2"),
    ];
    const mr = await createMergeRequest(ctx.stores, project.id, "topic");
    const [h, v] = [
      await createIssue(ctx.stores, hidden.id, "h"),
      await createIssue(ctx.stores, visible.id, "v"),
    ];
    const create = async (
      projectId: number,
      target: { type: "Issue" | "MergeRequest"; id: number },
      overrides: Partial<NewTodo> = {},
    ) => (await ctx.stores.todos.createPending(todo(user.id, projectId, target, overrides)))!;
    const a = await create(
      project.id,
      { type: "Issue", id: i1.id },
      { action: TodoAction.ASSIGNED, author_id: author.id },
    );
    const b = await create(project.id, { type: "Issue", id: i2.id }, { action: TodoAction.MENTIONED });
    const c = await create(
      project.id,
      { type: "MergeRequest", id: mr.id },
      { action: TodoAction.BUILD_FAILED },
    );
    const d = await create(hidden.id, { type: "Issue", id: h.id });
    const e = await create(visible.id, { type: "Issue", id: v.id }, { author_id: author.id });
    await ctx.stores.todos.createPending(todo(author.id, project.id, { type: "Issue", id: i1.id }));
    await ctx.stores.todos.markDone(user.id, b.id);

    const list = async (filter: Parameters<typeof ctx.stores.todos.list>[1]) =>
      ids((await ctx.stores.todos.list(user.id, filter, ALL)).items);
    expect(await list({})).toEqual([e.id, d.id, c.id, b.id, a.id]);
    expect(await list({ states: ["pending"] })).toEqual([e.id, d.id, c.id, a.id]);
    expect(await list({ states: ["done"] })).toEqual([b.id]);
    expect(await list({ states: [] })).toEqual([]);
    expect(await list({ actions: [TodoAction.ASSIGNED, TodoAction.BUILD_FAILED] })).toEqual([c.id, a.id]);
    expect(await list({ actions: [TodoAction.APPROVAL_REQUIRED] })).toEqual([]);
    expect(await list({ actions: [] })).toEqual([]);
    expect(await list({ authorId: author.id })).toEqual([e.id, a.id]);
    expect(await list({ projectId: project.id })).toEqual([c.id, b.id, a.id]);
    expect(await list({ targetType: "MergeRequest" })).toEqual([c.id]);
    expect(await list({ readableBy: { userId: user.id, external: false } })).toEqual([
      e.id,
      c.id,
      b.id,
      a.id,
    ]);
    const page = await ctx.stores.todos.list(user.id, { states: ["pending"] }, { page: 2, perPage: 3 });
    expect({ ids: ids(page.items), total: page.total }).toEqual({ ids: [a.id], total: 4 });
  });

  it("marks todos done: one of the user's, all of them, or those on a target", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "frank");
    const { user: other } = await createAccount(ctx.stores, "gina");
    const issues = [
      await createIssue(ctx.stores, project.id, "1"),
      await createIssue(ctx.stores, project.id, "2"),
      await createIssue(ctx.stores, project.id, "3"),
    ];
    const mine = [];
    for (const issue of issues)
      mine.push(
        (await ctx.stores.todos.createPending(todo(user.id, project.id, { type: "Issue", id: issue.id })))!,
      );
    const theirs = (await ctx.stores.todos.createPending(
      todo(other.id, project.id, { type: "Issue", id: issues[0]!.id }),
    ))!;

    const done = await ctx.stores.todos.markDone(user.id, mine[0]!.id);
    expect(done).toMatchObject({ id: mine[0]!.id, state: "done" });
    expect(await ctx.stores.todos.markDone(user.id, mine[0]!.id)).toEqual(done);
    expect(await ctx.stores.todos.markDone(user.id, theirs.id)).toBeUndefined();
    expect((await ctx.stores.todos.findById(theirs.id))?.state).toBe("pending");

    // Everyone's pending todos on a target, for their owners to be told when it is deleted.
    const pendingOn = async (index: number) =>
      ids(await ctx.stores.todos.pendingOnTarget({ type: "Issue", id: issues[index]!.id }));
    expect(await pendingOn(0)).toEqual([theirs.id]);
    expect(await pendingOn(1)).toEqual([mine[1]!.id]);
    expect(await ctx.stores.todos.pendingOnTarget({ type: "MergeRequest", id: issues[0]!.id })).toEqual([]);
    // Each answers the todos it marked, so their owners can be told.
    const forTarget = (index: number, userIds?: number[]) =>
      ctx.stores.todos.markDoneForTarget({ type: "Issue", id: issues[index]!.id }, userIds);
    expect(await forTarget(0, [user.id])).toEqual([]);
    expect(await forTarget(0, [])).toEqual([]);
    expect(await forTarget(1, [other.id])).toEqual([]);
    expect(await forTarget(1, [user.id])).toMatchObject([{ id: mine[1]!.id, state: "done" }]);
    expect(ids(await ctx.stores.todos.markAllDone(user.id))).toEqual([mine[2]!.id]);
    expect(await ctx.stores.todos.markAllDone(user.id)).toEqual([]);
    expect((await ctx.stores.todos.findById(theirs.id))?.state).toBe("pending");
    expect(await forTarget(0)).toMatchObject([{ id: theirs.id, user_id: other.id, state: "done" }]);
    expect(await pendingOn(0)).toEqual([]);
    expect((await ctx.stores.todos.list(other.id, { states: ["pending"] }, ALL)).total).toBe(0);
  });

  it("marks all done only in projects the user may still read, when asked", async () => {
    const { user } = await createWorkspace(ctx.stores, "hank");
    const { namespace } = await createAccount(ctx.stores, "ivy");
    const hidden = await createProject(ctx.stores, namespace.id, "hidden");
    const mine = await createProject(ctx.stores, namespace.id, "mine");
    await ctx.stores.projectMembers.add(mine.id, user.id, 30);
    const h = await createIssue(ctx.stores, hidden.id, "h");
    const m = await createIssue(ctx.stores, mine.id, "m");
    await ctx.stores.todos.createPending(todo(user.id, hidden.id, { type: "Issue", id: h.id }));
    await ctx.stores.todos.createPending(todo(user.id, mine.id, { type: "Issue", id: m.id }));
    expect(
      await ctx.stores.todos.markAllDone(user.id, { readableBy: { userId: user.id, external: false } }),
    ).toHaveLength(1);
    expect((await ctx.stores.todos.findPending(user.id, { type: "Issue", id: h.id }))?.project_id).toBe(
      hidden.id,
    );
  });

  it("leaves out todos on merge requests the user may not read: level below the one given, closed project, not theirs", async () => {
    const { user } = await createWorkspace(ctx.stores, "jack");
    const { user: owner, namespace } = await createAccount(ctx.stores, "kate");
    const group = await createGroup(ctx.stores, "team");
    const asGuest = await createProject(ctx.stores, namespace.id, "as-guest");
    const asReporter = await createProject(ctx.stores, namespace.id, "as-reporter");
    const publicOne = await createProject(ctx.stores, namespace.id, "public", {
      visibility_level: Visibility.PUBLIC,
    });
    const inGroup = await createProject(ctx.stores, group.id, "in-group");
    const shared = await createProject(ctx.stores, namespace.id, "shared");
    await ctx.stores.projectMembers.add(asGuest.id, user.id, 10);
    await ctx.stores.projectMembers.add(asReporter.id, user.id, 20);
    await ctx.stores.groupMembers.add(group.id, user.id, 20);
    // Reporter in a group the project is shared with as guests: a guest there.
    const sharing = await createGroup(ctx.stores, "sharing");
    await ctx.stores.groupMembers.add(sharing.id, user.id, 30);
    await ctx.stores.shares.add(shared.id, sharing.id, 10);
    const todoOn = async (
      projectId: number,
      overrides: { author_id?: number; assignee_id?: number } = {},
    ) => {
      const mr = await createMergeRequest(
        ctx.stores,
        projectId,
        `topic-${projectId}-${Object.keys(overrides)}`,
        {
          author_id: owner.id,
          ...overrides,
        },
      );
      return (await ctx.stores.todos.createPending(
        todo(user.id, projectId, { type: "MergeRequest", id: mr.id }),
      ))!;
    };
    const guestOnly = await todoOn(asGuest.id);
    const authored = await todoOn(asGuest.id, { author_id: user.id });
    const assigned = await todoOn(asGuest.id, { assignee_id: user.id });
    const reporter = await todoOn(asReporter.id);
    const open = await todoOn(publicOne.id);
    const group20 = await todoOn(inGroup.id);
    const sharedGuest = await todoOn(shared.id);
    const issue = await createIssue(ctx.stores, asGuest.id, "an issue");
    const onIssue = (await ctx.stores.todos.createPending(
      todo(user.id, asGuest.id, { type: "Issue", id: issue.id }),
    ))!;

    const reader = { userId: user.id, external: false, minLevel: 20 };
    const listed = ids(
      (await ctx.stores.todos.list(user.id, { mergeRequestsReadableBy: reader }, ALL)).items,
    );
    expect(listed).toEqual([onIssue.id, group20.id, open.id, reporter.id, assigned.id, authored.id]);
    expect(listed).not.toContain(guestOnly.id);
    expect(listed).not.toContain(sharedGuest.id);
    // The level given decides: at guest level they all show.
    const asGuests = { mergeRequestsReadableBy: { ...reader, minLevel: 10 } };
    expect((await ctx.stores.todos.list(user.id, asGuests, ALL)).total).toBe(8);
    expect(await ctx.stores.todos.markAllDone(user.id, { mergeRequestsReadableBy: reader })).toHaveLength(6);
    expect((await ctx.stores.todos.findById(guestOnly.id))?.state).toBe("pending");
  });
});
