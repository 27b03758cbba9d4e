import { IssueJson, MovedIssueJson, TodoJson } from "@kiln/schemas";
import { beforeAll, describe, expect, it } from "vitest";
import { issueClient } from "./issues-support.js";
import { createRoleCast, type Role, type RoleCast } from "./project-roles.js";
import { onEachDatabase } from "./support.js";

type Note = { id: number; body: string; system: boolean; author: { id: number }; created_at: string };
type Todo = TodoJson & { message?: unknown };

onEachDatabase("issues API: move, subscriptions, todos", (ctx) => {
  let cast: RoleCast;
  const client = issueClient(ctx);
  const { api, create, edit, get } = client;
  const token = (role: Role) => cast.people[role].token;
  beforeAll(async () => {
    cast = await createRoleCast(ctx(), "ia");
  });
  const notesOf = (issue: Pick<IssueJson, "id" | "project_id">, role: Role = "owner") =>
    api<Note[]>({ path: `/projects/${issue.project_id}/issues/${issue.id}/notes`, token: token(role) });
  const todosOf = (role: Role, query: Record<string, string> = {}) =>
    api<Todo[]>({ path: "/todos", token: token(role), query });

  describe("POST /projects/:id/issues/:issue_id/move", () => {
    const move = (issue: Pick<IssueJson, "id" | "project_id">, to: number, role: Role = "owner") =>
      api<MovedIssueJson & { message?: unknown }>({
        method: "POST",
        path: `/projects/${issue.project_id}/issues/${issue.id}/move`,
        token: token(role),
        json: { to_project_id: to },
      });

    it("moves an issue: a new issue in the target, labels and milestone by title, notes copied, the old one closed", async () => {
      const from = cast.private.id;
      const to = cast.public.id;
      const milestone = await client.milestone(from, token("owner"), "move-m");
      await client.milestone(to, token("owner"), "move-m");
      await create(to, token("owner"), { title: "Seeds the target's label", labels: "shared" });
      const issue = await create(from, token("reporter"), {
        title: "Travelling",
        description: "Goes places, see #1",
        labels: "shared,only-here",
        milestone_id: milestone.id,
        assignee_id: cast.people.developer.id,
      });
      const note = await api<Note>({
        method: "POST",
        path: `/projects/${from}/issues/${issue.id}/notes`,
        token: token("developer"),
        json: { body: "A comment that travels" },
      });
      expect(note.status).toBe(201);

      const res = await move(issue, to, "master");
      expect(res.status).toBe(201);
      const moved = MovedIssueJson.strict().parse(res.body);
      expect(moved).toMatchObject({
        project_id: to,
        title: "Travelling",
        description: `Goes places, see ${cast.private.path_with_namespace}#1`,
        state: "opened",
        labels: ["shared"],
        milestone: { title: "move-m", project_id: to },
        assignee: { id: cast.people.developer.id },
        author: { id: cast.people.reporter.id },
      });
      expect(moved.id).not.toBe(issue.id);
      expect(moved.iid).toBe(2);

      const old = await get(issue, token("owner"));
      expect(old.body).toMatchObject({ state: "closed", title: "Travelling" });
      const oldNotes = await notesOf(issue);
      expect(oldNotes.body.at(-1)).toMatchObject({
        system: true,
        body: `moved to ${cast.public.path_with_namespace}#${moved.iid}`,
      });
      const newNotes = await notesOf(moved);
      expect(newNotes.body.map((n) => [n.body, n.system])).toEqual([
        ["A comment that travels", false],
        [`moved from ${cast.private.path_with_namespace}#${issue.iid}`, true],
      ]);
      expect(newNotes.body[0]).toMatchObject({
        author: { id: cast.people.developer.id },
        created_at: note.body.created_at,
      });
      const copy = await get(moved, token("owner"));
      expect(copy.body).toMatchObject({ user_notes_count: 1 });

      const sourceEvents = await api<{ action_name: string; target_id: number }[]>({
        path: `/projects/${from}/events`,
        token: token("owner"),
      });
      expect(sourceEvents.body[0]).toMatchObject({ action_name: "closed", target_id: issue.id });
      const targetEvents = await api<{ action_name: string; target_id: number }[]>({
        path: `/projects/${to}/events`,
        token: token("owner"),
      });
      expect(targetEvents.body[0]).toMatchObject({ action_name: "opened", target_id: moved.id });

      // Moved once: it may not move again.
      expect(await move(issue, cast.private.id)).toMatchObject({
        status: 400,
        body: { message: "Cannot move issue due to insufficient permissions!" },
      });
    });

    it("refuses a move to the same project (400) and to a missing or hidden project (404)", async () => {
      const issue = await create(cast.private.id, token("owner"), { title: "Stays" });
      expect(await move(issue, cast.private.id)).toMatchObject({
        status: 400,
        body: { message: "Cannot move issue to project it originates from!" },
      });
      expect(await move(issue, 99_999_999)).toMatchObject({
        status: 404,
        body: { message: "404 Project Not Found" },
      });
      const hidden = await client.project(token("outsider"), "ia-hidden");
      expect(await move(issue, hidden.id)).toMatchObject({
        status: 404,
        body: { message: "404 Project Not Found" },
      });
      expect((await get(issue, token("owner"))).body).toMatchObject({ state: "opened" });
    });

    it("needs reporter access on both projects (400 with GitLab's message otherwise)", async () => {
      const issue = await create(cast.public.id, token("owner"), { title: "Guarded" });
      expect(await move(issue, cast.private.id, "guest")).toMatchObject({
        status: 400,
        body: { message: "Cannot move issue due to insufficient permissions!" },
      });
      const outsidersOwn = await client.project(token("outsider"), "ia-outsider-own");
      expect(await move(issue, outsidersOwn.id, "outsider")).toMatchObject({
        status: 400,
        body: { message: "Cannot move issue due to insufficient permissions!" },
      });
      const hidden = await create(cast.private.id, token("owner"), { title: "Hidden" });
      expect(await move(hidden, cast.public.id, "outsider")).toMatchObject({
        status: 404,
        body: { message: "404 Project Not Found" },
      });
    });
  });

  describe("subscriptions", () => {
    const subscription = (issue: IssueJson, method: "POST" | "DELETE", role: Role) =>
      api({
        method,
        path: `/projects/${issue.project_id}/issues/${issue.id}/subscription`,
        token: token(role),
      });

    it("counts the author as subscribed until they unsubscribe", async () => {
      const issue = await create(cast.private.id, token("developer"), { title: "Followed" });
      expect((await subscription(issue, "POST", "developer")).status).toBe(304);
      const off = await subscription(issue, "DELETE", "developer");
      expect(off.status).toBe(200);
      expect(IssueJson.strict().parse(off.body).subscribed).toBe(false);
      expect((await subscription(issue, "DELETE", "developer")).status).toBe(304);
      const on = await subscription(issue, "POST", "developer");
      expect(on.status).toBe(201);
      expect(IssueJson.strict().parse(on.body).subscribed).toBe(true);
    });

    it("subscribes and unsubscribes other readers; 404 for those who may not read it", async () => {
      const issue = await create(cast.private.id, token("owner"), { title: "Watched" });
      expect((await subscription(issue, "DELETE", "guest")).status).toBe(304);
      expect(await subscription(issue, "POST", "guest")).toMatchObject({
        status: 201,
        body: { subscribed: true },
      });
      expect((await get(issue, token("guest"))).body).toMatchObject({ subscribed: true });
      expect((await get(issue, token("reporter"))).body).toMatchObject({ subscribed: false });
      expect(await subscription(issue, "DELETE", "guest")).toMatchObject({
        status: 200,
        body: { subscribed: false },
      });
      expect((await subscription(issue, "POST", "outsider")).status).toBe(404);
    });
  });

  describe("todos", () => {
    const markTodo = (issue: IssueJson, role: Role) =>
      api<Todo>({
        method: "POST",
        path: `/projects/${issue.project_id}/issues/${issue.id}/todo`,
        token: token(role),
      });

    it("marks an issue as a todo (200 with the Todo), 304 when one is pending", async () => {
      const issue = await create(cast.private.id, token("owner"), { title: "Remember me" });
      const res = await markTodo(issue, "master");
      expect(res.status).toBe(200);
      const todo = TodoJson.parse(res.body);
      expect(todo).toMatchObject({
        action_name: "marked",
        target_type: "Issue",
        target: { id: issue.id, title: "Remember me" },
        author: { id: cast.people.master.id },
        project: { id: cast.private.id },
        state: "pending",
        body: "Remember me",
      });
      expect((await markTodo(issue, "master")).status).toBe(304);
      const listed = await todosOf("master");
      expect(listed.body.map((t) => t.id)).toContain(todo.id);
      expect((await markTodo(issue, "outsider")).status).toBe(404);
    });

    it("gives the assignee an assigned todo and mentioned readers a mentioned one; closing finishes them", async () => {
      const issue = await create(cast.private.id, token("owner"), {
        title: "Needs eyes",
        description: "@ia-reporter and @ia-outsider, look",
        assignee_id: cast.people.developer.id,
      });
      const pendingOn = async (role: Role) =>
        (await todosOf(role)).body.filter((t) => t.target.id === issue.id).map((t) => t.action_name);
      expect(await pendingOn("developer")).toEqual(["assigned"]);
      expect(await pendingOn("reporter")).toEqual(["mentioned"]);
      expect(await pendingOn("outsider")).toEqual([]);

      // A new mention in an edit reaches only the newly mentioned; a new assignee is told.
      await edit(issue, token("owner"), {
        description: "@ia-reporter and @ia-guest, look",
        assignee_id: cast.people.master.id,
      });
      expect(await pendingOn("guest")).toEqual(["mentioned"]);
      expect(await pendingOn("master")).toEqual(["assigned"]);
      expect(await pendingOn("reporter")).toEqual(["mentioned"]);

      await edit(issue, token("owner"), { state_event: "close" });
      for (const role of ["developer", "reporter", "guest", "master"] as const) {
        expect(await pendingOn(role), role).toEqual([]);
      }
    });

    it("finishes the editor's own pending todos when they change the issue", async () => {
      const issue = await create(cast.private.id, token("owner"), { title: "Edit me" });
      expect((await markTodo(issue, "reporter")).status).toBe(200);
      await edit(issue, token("reporter"), { title: "Edited" });
      const pending = (await todosOf("reporter")).body.filter((t) => t.target.id === issue.id);
      expect(pending).toEqual([]);
    });
  });
});
