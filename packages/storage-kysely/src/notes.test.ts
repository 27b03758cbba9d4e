import { expect, it } from "vitest";
import { createIssue, createMergeRequest, createWorkspace, minute } from "./__tests__/collaboration.js";
import { ALL, createAccount, ids } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";
import type { NewNote } from "./stores/notes.js";

describeStores("note store", (ctx) => {
  const note = (
    projectId: number,
    noteable: { type: "Issue" | "MergeRequest"; id: number },
    body: string,
    overrides: Partial<NewNote> = {},
  ): NewNote => ({
    project_id: projectId,
    noteable_type: noteable.type,
    noteable_id: noteable.id,
    author_id: null,
    body,
    attachment: null,
    system: false,
    ...overrides,
  });

  it("adds, finds, edits and deletes notes", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "alice");
    const issue = await createIssue(ctx.stores, project.id, "talk");
    const created = await ctx.stores.notes.create(
      note(project.id, { type: "Issue", id: issue.id }, "hello", {
        author_id: user.id,
        attachment: "a.png",
      }),
    );
    expect(created).toEqual({
      id: created.id,
      project_id: project.id,
      noteable_type: "Issue",
      noteable_id: issue.id,
      author_id: user.id,
      body: "hello",
      attachment: "a.png",
      system: false,
      created_at: created.created_at,
      updated_at: created.created_at,
    });
    const dated = await ctx.stores.notes.create(
      note(project.id, { type: "Issue", id: issue.id }, "closed", {
        system: true,
        created_at: minute(1),
      }),
    );
    expect(dated).toMatchObject({ system: true, created_at: minute(1) });
    expect(dated.updated_at > minute(1)).toBe(true);
    const copied = await ctx.stores.notes.create(
      note(project.id, { type: "Issue", id: issue.id }, "copied", {
        created_at: minute(2),
        updated_at: minute(3),
      }),
    );
    expect([copied.created_at, copied.updated_at]).toEqual([minute(2), minute(3)]);
    expect(await ctx.stores.notes.findById(created.id)).toEqual(created);
    expect([...(await ctx.stores.notes.findByIds([created.id, dated.id, 999])).keys()].sort()).toEqual(
      [created.id, dated.id].sort(),
    );
    const edited = await ctx.stores.notes.update(dated.id, { body: "edited" });
    expect(edited).toMatchObject({ body: "edited", created_at: minute(1), system: true });
    expect(edited?.updated_at).not.toBe(minute(1));
    expect(await ctx.stores.notes.update(dated.id, { attachment: null })).toMatchObject({ body: "edited" });
    expect(await ctx.stores.notes.update(999_999, { body: "x" })).toBeUndefined();
    expect(await ctx.stores.notes.delete(created.id)).toBe(true);
    expect(await ctx.stores.notes.delete(created.id)).toBe(false);
    expect(await ctx.stores.notes.findById(created.id)).toBeUndefined();
  });

  it("lists an issue's or merge request's notes oldest first, system notes included, and counts users' notes", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "bob");
    const { user: other } = await createAccount(ctx.stores, "carol");
    const issue = await createIssue(ctx.stores, project.id, "issue");
    const mr = await createMergeRequest(ctx.stores, project.id, "topic");
    const onIssue = { type: "Issue" as const, id: issue.id };
    const onMr = { type: "MergeRequest" as const, id: mr.id };
    const a = await ctx.stores.notes.create(note(project.id, onIssue, "a", { author_id: other.id }));
    const b = await ctx.stores.notes.create(
      note(project.id, onIssue, "b", { system: true, author_id: user.id }),
    );
    const c = await ctx.stores.notes.create(note(project.id, onIssue, "c", { author_id: user.id }));
    const d = await ctx.stores.notes.create(note(project.id, onIssue, "d", { author_id: other.id }));
    const m = await ctx.stores.notes.create(note(project.id, onMr, "m", { author_id: user.id }));
    expect(ids((await ctx.stores.notes.list(onIssue, ALL)).items)).toEqual([a.id, b.id, c.id, d.id]);
    expect(ids((await ctx.stores.notes.list(onMr, ALL)).items)).toEqual([m.id]);
    expect(ids((await ctx.stores.notes.list({ type: "MergeRequest", id: issue.id }, ALL)).items)).toEqual(
      issue.id === mr.id ? [m.id] : [],
    );
    const second = await ctx.stores.notes.list(onIssue, { page: 2, perPage: 3 });
    expect({ ids: ids(second.items), total: second.total }).toEqual({ ids: [d.id], total: 4 });
    expect(await ctx.stores.notes.authors(onIssue)).toEqual([other.id, user.id]);
  });

  it("keeps a deleted user's notes without an author, and drops the todos of a deleted note", async () => {
    const { user, project } = await createWorkspace(ctx.stores, "dave");
    const { user: leaving } = await createAccount(ctx.stores, "erin");
    const issue = await createIssue(ctx.stores, project.id, "issue");
    const kept = await ctx.stores.notes.create(
      note(project.id, { type: "Issue", id: issue.id }, "@dave look", { author_id: leaving.id }),
    );
    const todo = await ctx.stores.todos.createPending({
      user_id: user.id,
      project_id: project.id,
      target_type: "Issue",
      target_id: issue.id,
      action: 2,
      author_id: leaving.id,
      note_id: kept.id,
    });
    await ctx.stores.users.delete(leaving.id);
    expect((await ctx.stores.notes.findById(kept.id))?.author_id).toBeNull();
    expect(await ctx.stores.todos.findById(todo!.id)).toMatchObject({ author_id: null, note_id: kept.id });
    await ctx.stores.notes.delete(kept.id);
    expect(await ctx.stores.todos.findById(todo!.id)).toBeUndefined();
  });
});
