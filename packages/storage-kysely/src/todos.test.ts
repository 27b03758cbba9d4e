import { TodoAction, Visibility } from "@kiln/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createIssue, createMergeRequest, createWorkspace } from "./__tests__/collaboration.js";
import { ALL, createAccount, createProject, ids } from "./__tests__/fixtures.js";
import type { OpenDatabase } from "./connect.js";
import type { NewTodo } from "./stores/todos.js";
import { Stores } from "./stores.js";
import { testDialects } from "./testing.js";

for (const dialect of testDialects()) {
  describe.skipIf(dialect.unavailable !== null)(
    `todo store on ${dialect.name} ${dialect.unavailable ?? ""}`,
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
        const { user, project } = await createWorkspace(stores, "alice");
        const { user: other } = await createAccount(stores, "bob");
        const issue = await createIssue(stores, project.id, "issue");
        const mr = await createMergeRequest(stores, project.id, "topic");
        const target = { type: "Issue" as const, id: issue.id };
        const first = await stores.todos.createPending(
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
        expect(await stores.todos.createPending(todo(user.id, project.id, target))).toBeNull();
        expect(
          await stores.todos.createPending(
            todo(user.id, project.id, target, { action: TodoAction.MENTIONED }),
          ),
        ).toBeNull();
        // Another user, or the merge request with the same id, is another todo.
        expect(await stores.todos.createPending(todo(other.id, project.id, target))).not.toBeNull();
        expect(
          await stores.todos.createPending(todo(user.id, project.id, { type: "MergeRequest", id: mr.id })),
        ).not.toBeNull();
        expect(await stores.todos.findPending(user.id, target)).toEqual(first);
        expect(await stores.todos.findById(first!.id)).toEqual(first);

        // Once done, a new one may be created.
        await stores.todos.markDone(user.id, first!.id);
        expect(await stores.todos.findPending(user.id, target)).toBeUndefined();
        const again = await stores.todos.createPending(todo(user.id, project.id, target));
        expect(again?.id).not.toBe(first?.id);
      });

      it("makes one todo of concurrent creations", async () => {
        const { user, project } = await createWorkspace(stores, "carol");
        const issue = await createIssue(stores, project.id, "issue");
        const results = await Promise.all(
          [
            TodoAction.ASSIGNED,
            TodoAction.MENTIONED,
            TodoAction.MARKED,
            TodoAction.MARKED,
            TodoAction.MENTIONED,
          ].map((action) =>
            stores.todos.createPending(
              todo(user.id, project.id, { type: "Issue", id: issue.id }, { action }),
            ),
          ),
        );
        expect(results.filter((result) => result !== null)).toHaveLength(1);
        expect((await stores.todos.list(user.id, {}, ALL)).total).toBe(1);
      });

      it("lists a user's todos newest first, by state, action, author, project, type and readability", async () => {
        const { user, project } = await createWorkspace(stores, "dave");
        const { user: author, namespace } = await createAccount(stores, "erin");
        const hidden = await createProject(stores, namespace.id, "hidden");
        const visible = await createProject(stores, namespace.id, "visible", {
          visibility_level: Visibility.PUBLIC,
        });
        const [i1, i2] = [
          await createIssue(stores, project.id, "1"),
          await createIssue(stores, project.id, "2"),
        ];
        const mr = await createMergeRequest(stores, project.id, "topic");
        const [h, v] = [
          await createIssue(stores, hidden.id, "h"),
          await createIssue(stores, visible.id, "v"),
        ];
        const create = async (
          projectId: number,
          target: { type: "Issue" | "MergeRequest"; id: number },
          overrides: Partial<NewTodo> = {},
        ) => (await stores.todos.createPending(todo(user.id, projectId, target, overrides)))!;
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
        await stores.todos.createPending(todo(author.id, project.id, { type: "Issue", id: i1.id }));
        await stores.todos.markDone(user.id, b.id);

        const list = async (filter: Parameters<typeof stores.todos.list>[1]) =>
          ids((await stores.todos.list(user.id, filter, ALL)).items);
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
        const page = await stores.todos.list(user.id, { states: ["pending"] }, { page: 2, perPage: 3 });
        expect({ ids: ids(page.items), total: page.total }).toEqual({ ids: [a.id], total: 4 });
      });

      it("marks todos done: one of the user's, all of them, or those on a target", async () => {
        const { user, project } = await createWorkspace(stores, "frank");
        const { user: other } = await createAccount(stores, "gina");
        const issues = [
          await createIssue(stores, project.id, "1"),
          await createIssue(stores, project.id, "2"),
          await createIssue(stores, project.id, "3"),
        ];
        const mine = [];
        for (const issue of issues)
          mine.push(
            (await stores.todos.createPending(todo(user.id, project.id, { type: "Issue", id: issue.id })))!,
          );
        const theirs = (await stores.todos.createPending(
          todo(other.id, project.id, { type: "Issue", id: issues[0]!.id }),
        ))!;

        const done = await stores.todos.markDone(user.id, mine[0]!.id);
        expect(done).toMatchObject({ id: mine[0]!.id, state: "done" });
        expect(await stores.todos.markDone(user.id, mine[0]!.id)).toEqual(done);
        expect(await stores.todos.markDone(user.id, theirs.id)).toBeUndefined();
        expect((await stores.todos.findById(theirs.id))?.state).toBe("pending");

        expect(await stores.todos.markDoneForTarget({ type: "Issue", id: issues[0]!.id }, [user.id])).toBe(0);
        expect(await stores.todos.markDoneForTarget({ type: "Issue", id: issues[0]!.id }, [])).toBe(0);
        expect(await stores.todos.markDoneForTarget({ type: "Issue", id: issues[1]!.id }, [other.id])).toBe(
          0,
        );
        expect(await stores.todos.markDoneForTarget({ type: "Issue", id: issues[1]!.id }, [user.id])).toBe(1);
        expect(await stores.todos.markAllDone(user.id)).toBe(1);
        expect(await stores.todos.markAllDone(user.id)).toBe(0);
        expect((await stores.todos.findById(theirs.id))?.state).toBe("pending");
        expect(await stores.todos.markDoneForTarget({ type: "Issue", id: issues[0]!.id })).toBe(1);
        expect((await stores.todos.list(other.id, { states: ["pending"] }, ALL)).total).toBe(0);
      });

      it("marks all done only in projects the user may still read, when asked", async () => {
        const { user } = await createWorkspace(stores, "hank");
        const { namespace } = await createAccount(stores, "ivy");
        const hidden = await createProject(stores, namespace.id, "hidden");
        const mine = await createProject(stores, namespace.id, "mine");
        await stores.projectMembers.add(mine.id, user.id, 30);
        const h = await createIssue(stores, hidden.id, "h");
        const m = await createIssue(stores, mine.id, "m");
        await stores.todos.createPending(todo(user.id, hidden.id, { type: "Issue", id: h.id }));
        await stores.todos.createPending(todo(user.id, mine.id, { type: "Issue", id: m.id }));
        expect(
          await stores.todos.markAllDone(user.id, { readableBy: { userId: user.id, external: false } }),
        ).toBe(1);
        expect((await stores.todos.findPending(user.id, { type: "Issue", id: h.id }))?.project_id).toBe(
          hidden.id,
        );
      });
    },
  );
}
