import { IssueJson } from "@kiln/schemas";
import { beforeAll, expect, it } from "vitest";
import { issueClient } from "./issues-support.js";
import { createRoleCast, type Role, type RoleCast } from "./project-roles.js";
import { onEachDatabase } from "./support.js";

onEachDatabase("issues API: create, read, edit, delete", (ctx) => {
  let cast: RoleCast;
  const client = issueClient(ctx);
  const { api, create, edit, get } = client;
  const token = (role: Role) => cast.people[role].token;
  beforeAll(async () => {
    cast = await createRoleCast(ctx(), "is");
  });

  it("opens an issue with 200 and the v3 Issue, creating missing labels in the default colour", async () => {
    const id = cast.private.id;
    const milestone = await client.milestone(id, token("master"), "v1");
    const issue = await create(id, token("reporter"), {
      title: "Broken build",
      description: "It fails",
      labels: "bug, feature,bug",
      assignee_id: cast.people.developer.id,
      milestone_id: milestone.id,
      due_date: "2030-01-31",
      confidential: true,
    });
    expect(issue).toMatchObject({
      project_id: id,
      title: "Broken build",
      description: "It fails",
      state: "opened",
      labels: ["bug", "feature"],
      milestone: { id: milestone.id, title: "v1" },
      assignee: { id: cast.people.developer.id, username: "is-developer" },
      author: { id: cast.people.reporter.id, username: "is-reporter" },
      subscribed: true,
      user_notes_count: 0,
      due_date: "2030-01-31",
      confidential: true,
    });
    expect(issue.web_url).toMatch(new RegExp(`/${cast.private.path_with_namespace}/issues/${issue.iid}$`));
    const labels = await api<{ name: string; color: string }[]>({
      path: `/projects/${id}/labels`,
      token: token("reporter"),
    });
    expect(labels.body.filter((l) => ["bug", "feature"].includes(l.name))).toEqual([
      expect.objectContaining({ name: "bug", color: "#428BCA" }),
      expect.objectContaining({ name: "feature", color: "#428BCA" }),
    ]);
    expect(await get(issue, token("guest"))).toMatchObject({
      status: 404,
      body: { message: "404 Issue Not Found" },
    });
    expect(await get(issue, token("developer"))).toMatchObject({
      status: 200,
      body: { ...issue, subscribed: true },
    });
  });

  it("refuses an issue without a title", async () => {
    const res = await client.open(cast.private.id, token("owner"), { description: "x" });
    expect(res).toMatchObject({ status: 400, body: { message: '400 (Bad request) "title" not given' } });
  });

  it("drops assignee, milestone, labels and due date sent by a guest", async () => {
    const id = cast.public.id;
    const milestone = await client.milestone(id, token("master"), "m-guest");
    const issue = await create(id, token("guest"), {
      title: "From a guest",
      labels: "guest-label",
      assignee_id: cast.people.master.id,
      milestone_id: milestone.id,
      due_date: "2031-02-03",
    });
    expect(issue).toMatchObject({ labels: [], assignee: null, milestone: null, due_date: null });
    const labels = await api<{ name: string }[]>({ path: `/projects/${id}/labels`, token: token("owner") });
    expect(labels.body.map((l) => l.name)).not.toContain("guest-label");
    // Any signed-in user may open issues in a public project, as a guest would.
    const outsider = await create(id, token("outsider"), {
      title: "From outside",
      assignee_id: cast.people.owner.id,
    });
    expect(outsider.assignee).toBeNull();
  });

  it("ignores an assignee or milestone that does not exist or belongs elsewhere", async () => {
    const other = await client.milestone(cast.public.id, token("owner"), "elsewhere");
    const issue = await create(cast.private.id, token("owner"), {
      title: "Dangling",
      assignee_id: 999_999,
      milestone_id: other.id,
    });
    expect(issue).toMatchObject({ assignee: null, milestone: null });
  });

  it("hides a private project's issues from outsiders (404) and refuses their writes the same way", async () => {
    const issue = await create(cast.private.id, token("owner"), { title: "Secret" });
    expect(await get(issue, token("outsider"))).toMatchObject({
      status: 404,
      body: { message: "404 Project Not Found" },
    });
    expect((await client.open(cast.private.id, token("outsider"), { title: "x" })).status).toBe(404);
    expect((await edit(issue, token("outsider"), { title: "x" })).status).toBe(404);
    expect((await get(issue, token("admin"))).status).toBe(200);
  });

  it("answers 404 for an issue of another project and for an unknown id", async () => {
    const issue = await create(cast.public.id, token("owner"), { title: "Elsewhere" });
    const wrong = await api({
      path: `/projects/${cast.private.id}/issues/${issue.id}`,
      token: token("owner"),
    });
    expect(wrong).toMatchObject({ status: 404, body: { message: "404 Issue Not Found" } });
    const unknown = await api({
      path: `/projects/${cast.private.id}/issues/99999999`,
      token: token("owner"),
    });
    expect(unknown).toMatchObject({ status: 404, body: { message: "404 Issue Not Found" } });
  });

  it("shows a confidential issue to members from reporter up, its author and its assignee only", async () => {
    const issue = await create(cast.public.id, token("guest"), {
      title: "Confidential",
      confidential: true,
    });
    const assigned = await create(cast.public.id, token("owner"), {
      title: "Confidential, assigned to the outsider",
      confidential: true,
      assignee_id: cast.people.outsider.id,
    });
    const expected: Record<Role, number> = {
      owner: 200,
      master: 200,
      developer: 200,
      reporter: 200,
      guest: 200, // the author
      outsider: 404,
      admin: 200,
    };
    for (const [role, status] of Object.entries(expected)) {
      expect((await get(issue, token(role as Role))).status, role).toBe(status);
    }
    expect((await get(assigned, token("outsider"))).status).toBe(200);
    expect((await get(assigned, token("guest"))).status).toBe(404);
  });

  it("honours created_at for administrators and owners only", async () => {
    const at = "2012-03-04T05:06:07.000Z";
    for (const role of ["owner", "admin"] as const) {
      const issue = await create(cast.private.id, token(role), {
        title: `Back-dated by ${role}`,
        created_at: at,
      });
      expect(issue.created_at, role).toBe(at);
    }
    const byMaster = await create(cast.private.id, token("master"), {
      title: "Not back-dated",
      created_at: at,
    });
    expect(byMaster.created_at).not.toBe(at);
    const local = await create(cast.private.id, token("owner"), {
      title: "Local time",
      created_at: "2013-01-02T03:04:05",
    });
    expect(local.created_at).toBe("2013-01-02T03:04:05.000Z");
  });

  it("edits fields: labels replace the set, an empty string clears it, 0 clears assignee and milestone", async () => {
    const id = cast.private.id;
    const milestone = await client.milestone(id, token("owner"), "edit-m");
    const issue = await create(id, token("owner"), {
      title: "Before",
      labels: "a,b",
      assignee_id: cast.people.guest.id,
      milestone_id: milestone.id,
    });
    const changed = await edit(issue, token("reporter"), {
      title: "After",
      description: "New text",
      labels: "b,c",
      due_date: "2032-05-06",
    });
    expect(changed.status).toBe(200);
    expect(IssueJson.strict().parse(changed.body)).toMatchObject({
      id: issue.id,
      iid: issue.iid,
      title: "After",
      description: "New text",
      labels: ["b", "c"],
      assignee: { id: cast.people.guest.id },
      milestone: { id: milestone.id },
      due_date: "2032-05-06",
      subscribed: false,
    });
    const cleared = await edit(issue, token("reporter"), {
      labels: "",
      assignee_id: 0,
      milestone_id: 0,
      due_date: "",
    });
    expect(cleared.body).toMatchObject({
      labels: [],
      assignee: null,
      milestone: null,
      due_date: null,
      title: "After",
    });
  });

  it("lets the author edit their own issue as a guest, dropping what guests may not set", async () => {
    const issue = await create(cast.private.id, token("guest"), { title: "Mine" });
    const res = await edit(issue, token("guest"), {
      title: "Still mine",
      labels: "nope",
      assignee_id: cast.people.guest.id,
    });
    expect(res).toMatchObject({ status: 200, body: { title: "Still mine", labels: [], assignee: null } });
    const other = await create(cast.private.id, token("owner"), { title: "Not the guest's" });
    expect(await edit(other, token("guest"), { title: "x" })).toMatchObject({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    const onPublic = await create(cast.public.id, token("owner"), { title: "Public" });
    expect((await edit(onPublic, token("outsider"), { title: "x" })).status).toBe(403);
    const byOutsider = await create(cast.public.id, token("outsider"), { title: "Outsider's" });
    expect((await edit(byOutsider, token("outsider"), { title: "Outsider's, edited" })).status).toBe(200);
  });

  it("closes and reopens through state_event; a transition that does not apply is a no-op", async () => {
    const issue = await create(cast.private.id, token("owner"), { title: "States" });
    const steps: [string, string][] = [
      ["close", "closed"],
      ["close", "closed"],
      ["reopen", "reopened"],
      ["reopen", "reopened"],
      ["close", "closed"],
      ["reopen", "reopened"],
    ];
    for (const [event, state] of steps) {
      const res = await edit(issue, token("developer"), { state_event: event });
      expect(res.status, event).toBe(200);
      expect(res.body.state, event).toBe(state);
    }
    const bad = await edit(issue, token("developer"), { state_event: "merge" });
    expect(bad.status).toBe(400);
    expect((await get(issue, token("owner"))).body.state).toBe("reopened");
  });

  it("honours updated_at for administrators and owners only", async () => {
    const issue = await create(cast.private.id, token("owner"), { title: "Times" });
    const at = "2015-06-07T08:09:10.000Z";
    expect((await edit(issue, token("owner"), { title: "t2", updated_at: at })).body.updated_at).toBe(at);
    expect((await edit(issue, token("master"), { title: "t3", updated_at: at })).body.updated_at).not.toBe(
      at,
    );
  });

  it("deletes for administrators and owners only (200 with the issue), 403 for other readers", async () => {
    const issue = await create(cast.private.id, token("owner"), { title: "To delete", labels: "gone" });
    const path = `/projects/${cast.private.id}/issues/${issue.id}`;
    for (const role of ["master", "developer", "reporter", "guest"] as const) {
      expect((await api({ method: "DELETE", path, token: token(role) })).status, role).toBe(403);
    }
    expect((await api({ method: "DELETE", path, token: token("outsider") })).status).toBe(404);
    const deleted = await api({ method: "DELETE", path, token: token("owner") });
    expect(deleted.status).toBe(200);
    expect(IssueJson.parse(deleted.body)).toMatchObject({
      id: issue.id,
      title: "To delete",
      labels: ["gone"],
    });
    expect(await get(issue, token("owner"))).toMatchObject({
      status: 404,
      body: { message: "404 Issue Not Found" },
    });
    expect((await api({ method: "DELETE", path, token: token("owner") })).status).toBe(404);
    const byAdmin = await create(cast.private.id, token("owner"), { title: "Admin deletes" });
    const path2 = `/projects/${cast.private.id}/issues/${byAdmin.id}`;
    expect((await api({ method: "DELETE", path: path2, token: token("admin") })).status).toBe(200);
  });

  it("never gives a deleted issue's iid out again", async () => {
    const project = await client.project(token("owner"), "is-iids");
    const first = await create(project.id, token("owner"), { title: "1" });
    const second = await create(project.id, token("owner"), { title: "2" });
    expect([first.iid, second.iid]).toEqual([1, 2]);
    await api({
      method: "DELETE",
      path: `/projects/${project.id}/issues/${second.id}`,
      token: token("owner"),
    });
    expect((await create(project.id, token("owner"), { title: "3" })).iid).toBe(3);
  });

  it("numbers 20 concurrent creations 1 to 20, each once", async () => {
    const project = await client.project(token("owner"), "is-concurrent");
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        client.open(project.id, token("owner"), { title: `Parallel ${n}` }),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
    const iids = answers.map((res) => res.body.iid).sort((a, b) => a - b);
    expect(iids).toEqual(Array.from({ length: 20 }, (_, n) => n + 1));
  });

  it("records opened, closed and reopened issues in the project's feed", async () => {
    const project = await client.project(token("owner"), "is-events");
    const issue = await create(project.id, token("owner"), { title: "Eventful" });
    await edit(issue, token("owner"), { state_event: "close" });
    await edit(issue, token("owner"), { title: "Edits leave no entry" });
    await edit(issue, token("owner"), { state_event: "reopen" });
    const events = await api<{ action_name: string; target_type: string | null; target_id: number | null }[]>(
      {
        path: `/projects/${project.id}/events`,
        token: token("owner"),
      },
    );
    expect(events.status).toBe(200);
    const issueEvents = events.body.filter((e) => e.target_type === "Issue");
    expect(issueEvents.map((e) => [e.action_name, e.target_id])).toEqual([
      ["opened", issue.id],
      ["closed", issue.id],
      ["opened", issue.id],
    ]);
  });
});
