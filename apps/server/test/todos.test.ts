import { type IssueJson, type MergeRequestJson, type NoteJson, TodoJson } from "@kiln/schemas";
import { createUser, seedRepository, type TestUser } from "@kiln/testkit";
import { beforeAll, expect, it } from "vitest";
import { createRoleCast, type RoleCast } from "./project-roles.js";
import { onEachDatabase } from "./support.js";

/** GitLab 8.15's Todo keys, in its order. */
const TODO_KEYS = [
  "id",
  "project",
  "author",
  "action_name",
  "target_type",
  "target",
  "target_url",
  "body",
  "state",
  "created_at",
];

onEachDatabase("todos API", (ctx) => {
  let cast: RoleCast;
  beforeAll(async () => {
    cast = await createRoleCast(ctx(), "td");
  });
  const api = <T = unknown>(request: Parameters<ReturnType<typeof ctx>["api"]>[0]) => ctx().api<T>(request);
  const owner = () => cast.people.owner;
  let users = 0;
  /** A fresh user, member of the private project at `access_level` (none when null). */
  async function member(access_level: number | null = 30, projectId = cast.private.id): Promise<TestUser> {
    users += 1;
    const user = await createUser(ctx().server, ctx().root, `td-user${users}`);
    if (access_level !== null) await addMember(projectId, user, access_level);
    return user;
  }
  async function addMember(projectId: number, user: TestUser, access_level: number) {
    const res = await api({
      method: "POST",
      path: `/projects/${projectId}/members`,
      token: owner().token,
      json: { user_id: user.id, access_level },
    });
    expect(res.status).toBe(201);
  }
  async function createIssue(json: Record<string, unknown>, by = owner(), projectId = cast.private.id) {
    const res = await api<IssueJson>({
      method: "POST",
      path: `/projects/${projectId}/issues`,
      token: by.token,
      json,
    });
    expect(res.status).toBe(200);
    return res.body;
  }
  async function todosOf(user: TestUser, query: Record<string, string | number> = {}) {
    const res = await api<TodoJson[]>({ path: "/todos", token: user.token, query });
    expect(res.status).toBe(200);
    return res.body.map((todo) => TodoJson.parse(todo));
  }
  const ids = (todos: { id: number }[]) => todos.map((todo) => todo.id);
  async function markTodo(issue: IssueJson, user: TestUser) {
    return api<TodoJson>({
      method: "POST",
      path: `/projects/${issue.project_id}/issues/${issue.id}/todo`,
      token: user.token,
    });
  }

  it("gives the assignee an assigned todo, presented as GitLab 8.x does; none for self-assignment", async () => {
    const dev = await member();
    const issue = await createIssue({ title: "Fix the kiln", assignee_id: dev.id });
    const res = await api<TodoJson[]>({ path: "/todos", token: dev.token });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    const [todo] = res.body;
    expect(Object.keys(todo ?? {})).toEqual(TODO_KEYS);
    expect(TodoJson.parse(todo)).toMatchObject({
      project: {
        id: cast.private.id,
        name: cast.private.name,
        path_with_namespace: cast.private.path_with_namespace,
        web_url: cast.private.web_url,
      },
      author: { id: owner().id, username: owner().username },
      action_name: "assigned",
      target_type: "Issue",
      target: { id: issue.id, iid: issue.iid, title: "Fix the kiln", assignee: { id: dev.id } },
      target_url: `${cast.private.web_url}/issues/${issue.iid}`,
      body: "Fix the kiln",
      state: "pending",
    });
    expect(todo?.target_url).toBe(issue.web_url);

    await createIssue({ title: "Mine", assignee_id: dev.id }, dev);
    expect(ids(await todosOf(dev))).toEqual([todo?.id]);
  });

  it("gives users @mentioned in a description a mentioned todo", async () => {
    const dev = await member();
    const issue = await createIssue({ title: "Glaze", description: `@${dev.username} please look` });
    const [todo, ...rest] = await todosOf(dev);
    expect(rest).toEqual([]);
    expect(todo).toMatchObject({
      action_name: "mentioned",
      target: { id: issue.id },
      body: "Glaze",
      target_url: issue.web_url,
      author: { id: owner().id },
    });
  });

  it("marks an issue as a todo of the caller: 200 then 304 while it is pending", async () => {
    const dev = await member();
    const issue = await createIssue({ title: "To remember" });
    const marked = await markTodo(issue, dev);
    expect(marked.status).toBe(200);
    expect(TodoJson.parse(marked.body)).toMatchObject({
      action_name: "marked",
      author: { id: dev.id },
      target: { id: issue.id },
      state: "pending",
    });
    expect((await markTodo(issue, dev)).status).toBe(304);
    expect(ids(await todosOf(dev))).toEqual([marked.body.id]);
  });

  it("gives users @mentioned in a note a todo pointing at the note, with its text as body", async () => {
    const dev = await member();
    const issue = await createIssue({ title: "Kiln temperature" });
    const body = `What do you think, @${dev.username}?`;
    const note = await api<NoteJson>({
      method: "POST",
      path: `/projects/${issue.project_id}/issues/${issue.id}/notes`,
      token: owner().token,
      json: { body },
    });
    expect(note.status).toBe(201);
    const [todo, ...rest] = await todosOf(dev);
    expect(rest).toEqual([]);
    expect(todo).toMatchObject({
      action_name: "mentioned",
      target: { id: issue.id },
      target_url: `${issue.web_url}#note_${note.body.id}`,
      body,
    });
  });

  it("marks the todos on an issue done when it is closed", async () => {
    const dev = await member();
    const issue = await createIssue({ title: "Crack in the shelf", assignee_id: dev.id });
    const [todo] = await todosOf(dev);
    const closed = await api<IssueJson>({
      method: "PUT",
      path: `/projects/${issue.project_id}/issues/${issue.id}`,
      token: owner().token,
      json: { state_event: "close" },
    });
    expect(closed.status).toBe(200);
    expect(await todosOf(dev)).toEqual([]);
    const done = await todosOf(dev, { state: "done" });
    expect(done).toMatchObject([{ id: todo?.id, state: "done", target: { state: "closed" } }]);
  });

  it("gives todos on merge requests, with the merge request as target", async () => {
    const dev = await member();
    seedRepository(ctx().server, cast.public.id, [
      { message: "Initial", files: { "README.md": "kiln\n" } },
      { branch: "glaze", message: "Glaze", files: { "glaze.txt": "blue\n" } },
    ]);
    const created = await api<MergeRequestJson>({
      method: "POST",
      path: `/projects/${cast.public.id}/merge_requests`,
      token: owner().token,
      json: { source_branch: "glaze", target_branch: "master", title: "Add glaze", assignee_id: dev.id },
    });
    expect(created.status).toBe(200);
    const mr = created.body;
    const [todo, ...rest] = await todosOf(dev);
    expect(rest).toEqual([]);
    expect(todo).toMatchObject({
      project: { id: cast.public.id },
      action_name: "assigned",
      target_type: "MergeRequest",
      target: { id: mr.id, iid: mr.iid, source_branch: "glaze", target_branch: "master" },
      target_url: `${cast.public.web_url}/merge_requests/${mr.iid}`,
      body: "Add glaze",
    });
    expect(todo?.target_url).toBe(mr.web_url);

    const marked = await api<TodoJson>({
      method: "POST",
      path: `/projects/${cast.public.id}/merge_requests/${mr.id}/todo`,
      token: owner().token,
    });
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({ action_name: "marked", target_type: "MergeRequest" });
    expect(ids(await todosOf(owner(), { type: "MergeRequest" }))).toContain(marked.body.id);
  });

  it("filters by action, author, project, state and type; newest first, paginated", async () => {
    const dev = await member();
    await addMember(cast.public.id, dev, 30);
    const master = cast.people.master;
    const assigned = await createIssue({ title: "Assigned", assignee_id: dev.id });
    const mentioned = await createIssue(
      { title: "Mentioned", description: `cc @${dev.username}` },
      master,
      cast.public.id,
    );
    const marked = await markTodo(await createIssue({ title: "Marked" }), dev);
    const finished = await markTodo(await createIssue({ title: "Finished" }), dev);
    const done = await api({ method: "DELETE", path: `/todos/${finished.body.id}`, token: dev.token });
    expect(done.status).toBe(200);

    const all = await todosOf(dev);
    expect(all.map((todo) => todo.body)).toEqual(["Marked", "Mentioned", "Assigned"]);
    const [markedId, mentionedId, assignedId] = ids(all);
    expect(markedId).toBe(marked.body.id);
    expect(ids(await todosOf(dev, { action: "assigned" }))).toEqual([assignedId]);
    expect(ids(await todosOf(dev, { action: "mentioned" }))).toEqual([mentionedId]);
    expect(ids(await todosOf(dev, { action: "marked" }))).toEqual([markedId]);
    expect(await todosOf(dev, { action: "approval_required" })).toEqual([]);
    expect(ids(await todosOf(dev, { action_id: 1 }))).toEqual([assignedId]);
    expect(ids(await todosOf(dev, { action: "assigned", action_id: 1 }))).toEqual([assignedId]);
    expect(await todosOf(dev, { action: "marked", action_id: 1 })).toEqual([]);
    expect(ids(await todosOf(dev, { author_id: master.id }))).toEqual([mentionedId]);
    expect(ids(await todosOf(dev, { author_id: dev.id }))).toEqual([markedId]);
    expect(ids(await todosOf(dev, { project_id: cast.public.id }))).toEqual([mentionedId]);
    expect(ids(await todosOf(dev, { project_id: cast.private.id }))).toEqual([markedId, assignedId]);
    expect(ids(await todosOf(dev, { state: "done" }))).toEqual([finished.body.id]);
    expect(ids(await todosOf(dev, { state: "pending" }))).toEqual([markedId, mentionedId, assignedId]);
    expect(ids(await todosOf(dev, { type: "Issue" }))).toEqual([markedId, mentionedId, assignedId]);
    expect(await todosOf(dev, { type: "MergeRequest" })).toEqual([]);
    expect(ids(await todosOf(dev, { action: "assigned", project_id: cast.public.id }))).toEqual([]);
    expect(mentioned.id).not.toBe(assigned.id);

    const page = await api<TodoJson[]>({ path: "/todos", token: dev.token, query: { per_page: 2, page: 2 } });
    expect(page.status).toBe(200);
    expect(ids(page.body)).toEqual([assignedId]);
    expect(page.headers.get("x-total")).toBe("3");
    expect(page.headers.get("x-total-pages")).toBe("2");

    for (const query of [{ state: "open" }, { action: "noticed" }, { type: "Commit" }, { author_id: "me" }]) {
      const bad = await api({ path: "/todos", token: dev.token, query });
      expect(bad.status).toBe(400);
    }
  });

  it("marks one todo done (200, the todo); another user's or a missing one is 404", async () => {
    const dev = await member();
    const other = await member();
    const issue = await createIssue({ title: "One to finish", assignee_id: dev.id });
    const [todo] = await todosOf(dev);
    const notFound = { status: 404, body: { message: "404 Todo Not Found" } };
    expect(await api({ method: "DELETE", path: `/todos/${todo?.id}`, token: other.token })).toMatchObject(
      notFound,
    );
    expect(await api({ method: "DELETE", path: "/todos/999999", token: dev.token })).toMatchObject(notFound);
    expect(await todosOf(dev)).toHaveLength(1);

    const done = await api<TodoJson>({ method: "DELETE", path: `/todos/${todo?.id}`, token: dev.token });
    expect(done.status).toBe(200);
    expect(TodoJson.parse(done.body)).toMatchObject({
      id: todo?.id,
      state: "done",
      target: { id: issue.id },
    });
    expect(await todosOf(dev)).toEqual([]);
    const again = await api<TodoJson>({ method: "DELETE", path: `/todos/${todo?.id}`, token: dev.token });
    expect(again).toMatchObject({ status: 200, body: { id: todo?.id, state: "done" } });
    expect(await api({ method: "DELETE", path: `/todos/${todo?.id}` })).toMatchObject({ status: 401 });
  });

  it("marks all pending todos done and answers how many as a bare number", async () => {
    const dev = await member();
    const other = await member();
    await createIssue({ title: "First", assignee_id: dev.id });
    await createIssue({ title: "Second", description: `@${dev.username}` });
    await createIssue({ title: "Theirs", assignee_id: other.id });
    const res = await api({ method: "DELETE", path: "/todos", token: dev.token });
    expect(res.status).toBe(200);
    expect(res.text).toBe("2");
    expect(await todosOf(dev)).toEqual([]);
    expect(await todosOf(dev, { state: "done" })).toHaveLength(2);
    expect(await todosOf(other)).toHaveLength(1);
    const again = await api({ method: "DELETE", path: "/todos", token: dev.token });
    expect(again).toMatchObject({ status: 200, text: "0" });
  });

  it("hides todos on projects the user lost access to", async () => {
    const dev = await member();
    const issue = await createIssue({ title: "Private matter", assignee_id: dev.id });
    const [todo] = await todosOf(dev);
    expect(todo?.target.id).toBe(issue.id);
    const removed = await api({
      method: "DELETE",
      path: `/projects/${cast.private.id}/members/${dev.id}`,
      token: owner().token,
    });
    expect(removed.status).toBe(200);
    expect(await todosOf(dev)).toEqual([]);
    expect(await todosOf(dev, { project_id: cast.private.id })).toEqual([]);
    const hidden = await api({ method: "DELETE", path: `/todos/${todo?.id}`, token: dev.token });
    expect(hidden).toMatchObject({ status: 404, body: { message: "404 Todo Not Found" } });
    expect((await api({ method: "DELETE", path: "/todos", token: dev.token })).text).toBe("0");

    await addMember(cast.private.id, dev, 10);
    expect(ids(await todosOf(dev))).toEqual([todo?.id]);
  });

  it("hides todos on confidential issues the user may not read, and counts honestly", async () => {
    const guest = await member(10);
    const reporter = await member(20);
    const secret = await createIssue({
      title: "Soon secret",
      description: `@${guest.username} @${reporter.username}`,
    });
    const open = await createIssue({ title: "Open", description: `@${guest.username}` });
    const assigned = await createIssue({
      title: "Assigned secret",
      assignee_id: guest.id,
      confidential: true,
    });
    const before = await todosOf(guest);
    expect(before.map((todo) => todo.target.id)).toEqual([assigned.id, open.id, secret.id]);

    const edited = await api<IssueJson>({
      method: "PUT",
      path: `/projects/${secret.project_id}/issues/${secret.id}`,
      token: owner().token,
      json: { confidential: true },
    });
    expect(edited).toMatchObject({ status: 200, body: { confidential: true } });
    const visible = await todosOf(guest);
    expect(visible.map((todo) => todo.target.id)).toEqual([assigned.id, open.id]);
    const page = await api<TodoJson[]>({
      path: "/todos",
      token: guest.token,
      query: { per_page: 1, page: 2 },
    });
    expect(page.body.map((todo) => todo.target.id)).toEqual([open.id]);
    expect(page.headers.get("x-total")).toBe("2");
    expect((await todosOf(reporter)).map((todo) => todo.target.id)).toEqual([secret.id]);

    const hidden = await api({ method: "DELETE", path: `/todos/${before[2]?.id}`, token: guest.token });
    expect(hidden).toMatchObject({ status: 404, body: { message: "404 Todo Not Found" } });
    expect((await api({ method: "DELETE", path: "/todos", token: guest.token })).text).toBe("2");
  });

  it("hides todos on merge requests of a private project from its guests, but theirs, and gives them no new ones", async () => {
    const demoted = await member(20);
    const guest = await member(10);
    seedRepository(ctx().server, cast.private.id, [
      { message: "Initial", files: { "README.md": "kiln\n" } },
      { branch: "mentioned", message: "Mentioned", files: { "m.txt": "m\n" } },
      { branch: "assigned", message: "Assigned", files: { "a.txt": "a\n" } },
    ]);
    const open = async (source_branch: string, json: Record<string, unknown>) => {
      const res = await api<MergeRequestJson>({
        method: "POST",
        path: `/projects/${cast.private.id}/merge_requests`,
        token: owner().token,
        json: { source_branch, target_branch: "master", title: source_branch, ...json },
      });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    const mentioned = await open("mentioned", { description: `@${demoted.username} @${guest.username}` });
    const assigned = await open("assigned", { assignee_id: demoted.id });
    const before = await todosOf(demoted);
    expect(before.map((todo) => todo.target.id)).toEqual([assigned.id, mentioned.id]);
    // A guest may not read them: no todo for the mention.
    expect(await todosOf(guest)).toEqual([]);

    const demotion = await api({
      method: "PUT",
      path: `/projects/${cast.private.id}/members/${demoted.id}`,
      token: owner().token,
      json: { access_level: 10 },
    });
    expect(demotion.status).toBe(200);
    const res = await api<TodoJson[]>({ path: "/todos", token: demoted.token, query: { per_page: 1 } });
    expect(res.body.map((todo) => todo.target.id)).toEqual([assigned.id]);
    expect(res.headers.get("x-total")).toBe("1");
    const hidden = await api({ method: "DELETE", path: `/todos/${before[1]?.id}`, token: demoted.token });
    expect(hidden).toMatchObject({ status: 404, body: { message: "404 Todo Not Found" } });
    expect((await api({ method: "DELETE", path: "/todos", token: demoted.token })).text).toBe("1");
  });
});
