import { EventJson, IssueJson, MergeRequestCommentJson, MergeRequestJson, NoteJson } from "@kiln/schemas";
import { type ApiRequest, seedRepository } from "@kiln/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import { createRoleCast, type Role, type RoleCast } from "./project-roles.js";
import { onEachDatabase } from "./support.js";

type Body = { message?: unknown; error?: unknown };

onEachDatabase("notes API", (ctx) => {
  let cast: RoleCast;
  let mergeRequest: MergeRequestJson;
  beforeAll(async () => {
    cast = await createRoleCast(ctx(), "nt");
    mergeRequest = await openMergeRequest(cast.private.id);
  });
  const api = <T = Body>(request: ApiRequest) => ctx().api<T>(request);
  const token = (role: Role) => cast.people[role].token;

  /** Opens an issue as the owner (POST /issues answers 201 in GitLab 8.x; accept 200 too). */
  async function openIssue(projectId: number, json: Record<string, unknown> = {}): Promise<IssueJson> {
    const res = await api<IssueJson>({
      method: "POST",
      path: `/projects/${projectId}/issues`,
      token: token("owner"),
      json: { title: "Notes here", ...json },
    });
    expect([200, 201], res.text).toContain(res.status);
    return IssueJson.parse(res.body);
  }

  /** Seeds a master and a feature branch, then opens a merge request between them as the owner. */
  async function openMergeRequest(projectId: number): Promise<MergeRequestJson> {
    seedRepository(ctx().server, projectId, [
      { message: "Initial\n", files: { "README.md": "# Notes\n" } },
      { message: "Feature\n", branch: "feature", files: { "feature.txt": "new\n" } },
    ]);
    const res = await api<MergeRequestJson>({
      method: "POST",
      path: `/projects/${projectId}/merge_requests`,
      token: token("owner"),
      json: { source_branch: "feature", target_branch: "master", title: "Discuss me" },
    });
    expect([200, 201], res.text).toContain(res.status);
    return MergeRequestJson.parse(res.body);
  }

  const issueNotes = (issue: Pick<IssueJson, "id" | "project_id">) =>
    `/projects/${issue.project_id}/issues/${issue.id}/notes`;

  /** Writes a note as `role` and checks the answer is a valid v3 Note (201). */
  async function addNote(path: string, role: Role, body: string): Promise<NoteJson> {
    const res = await api<NoteJson>({ method: "POST", path, token: token(role), json: { body } });
    expect(res.status, res.text).toBe(201);
    return NoteJson.strict().parse(res.body);
  }

  it("creates, lists, reads, edits and deletes notes on an issue", async () => {
    const issue = await openIssue(cast.private.id);
    const path = issueNotes(issue);
    const first = await addNote(path, "reporter", "First!");
    expect(first).toMatchObject({
      body: "First!",
      attachment: null,
      author: { username: "nt-reporter", id: cast.people.reporter.id },
      system: false,
      noteable_id: issue.id,
      noteable_type: "Issue",
      upvote: false,
      downvote: false,
    });
    const second = await addNote(path, "guest", "Second");

    const listed = await api<NoteJson[]>({ path, token: token("guest") });
    expect(listed.status).toBe(200);
    expect(listed.body.map((note) => NoteJson.strict().parse(note).id)).toEqual([first.id, second.id]);
    expect(listed.headers.get("x-total")).toBe("2");
    const paged = await api<NoteJson[]>({ path: `${path}?per_page=1&page=2`, token: token("guest") });
    expect(paged.body.map((note) => note.id)).toEqual([second.id]);

    expect(await api({ path: `${path}/${first.id}`, token: token("developer") })).toMatchObject({
      status: 200,
      body: first,
    });

    const edited = await api<NoteJson>({
      method: "PUT",
      path: `${path}/${first.id}`,
      token: token("reporter"),
      json: { body: "First, edited" },
    });
    expect(edited.status, edited.text).toBe(200);
    expect(NoteJson.strict().parse(edited.body)).toMatchObject({ id: first.id, body: "First, edited" });

    const deleted = await api<NoteJson>({
      method: "DELETE",
      path: `${path}/${first.id}`,
      token: token("reporter"),
    });
    expect(deleted).toMatchObject({ status: 200, body: edited.body });
    expect(await api({ path: `${path}/${first.id}`, token: token("reporter") })).toMatchObject({
      status: 404,
      body: { message: "404 Note Not Found" },
    });
    const after = await api<NoteJson[]>({ path, token: token("reporter") });
    expect(after.body.map((note) => note.id)).toEqual([second.id]);
  });

  it("keeps notes under the merge request paths, plural and deprecated singular", async () => {
    const plural = `/projects/${cast.private.id}/merge_requests/${mergeRequest.id}/notes`;
    const singular = `/projects/${cast.private.id}/merge_request/${mergeRequest.id}/notes`;
    const note = await addNote(plural, "developer", "Looks good");
    expect(note).toMatchObject({ noteable_type: "MergeRequest", noteable_id: mergeRequest.id });
    const other = await addNote(singular, "reporter", "Agreed");

    for (const path of [plural, singular]) {
      const listed = await api<NoteJson[]>({ path, token: token("reporter") });
      expect(listed.status).toBe(200);
      expect(listed.body.map((n) => n.id)).toEqual(expect.arrayContaining([note.id, other.id]));
      expect(await api({ path: `${path}/${note.id}`, token: token("reporter") })).toMatchObject({
        status: 200,
        body: note,
      });
    }
    const edited = await api<NoteJson>({
      method: "PUT",
      path: `${singular}/${note.id}`,
      token: token("developer"),
      json: { body: "Looks great" },
    });
    expect(edited).toMatchObject({ status: 200, body: { id: note.id, body: "Looks great" } });
    expect(
      await api({ method: "DELETE", path: `${plural}/${other.id}`, token: token("reporter") }),
    ).toMatchObject({ status: 200, body: { id: other.id } });

    const view = await api<MergeRequestJson>({
      path: `/projects/${cast.private.id}/merge_requests/${mergeRequest.id}`,
      token: token("reporter"),
    });
    expect(view.status).toBe(200);
    expect(view.body.user_notes_count).toBe(
      (await api<NoteJson[]>({ path: plural, token: token("reporter") })).body.filter((n) => !n.system)
        .length,
    );
  });

  it("answers the deprecated merge request comments as {note, author}", async () => {
    for (const kind of ["merge_requests", "merge_request"]) {
      const base = `/projects/${cast.private.id}/${kind}/${mergeRequest.id}`;
      const created = await api<MergeRequestCommentJson>({
        method: "POST",
        path: `${base}/comments`,
        token: token("reporter"),
        json: { note: `Via ${kind}` },
      });
      expect(created.status, created.text).toBe(201);
      expect(MergeRequestCommentJson.strict().parse(created.body)).toEqual({
        note: `Via ${kind}`,
        author: expect.objectContaining({ username: "nt-reporter" }),
      });
      const listed = await api<MergeRequestCommentJson[]>({
        path: `${base}/comments`,
        token: token("reporter"),
      });
      expect(listed.status).toBe(200);
      for (const comment of listed.body) MergeRequestCommentJson.strict().parse(comment);
      expect(listed.body.at(-1)?.note).toBe(`Via ${kind}`);
      expect(listed.headers.get("x-total")).toBe(String(listed.body.length));
      // The comment is a note like any other.
      const notes = await api<NoteJson[]>({ path: `${base}/notes`, token: token("reporter") });
      expect(notes.body.map((note) => note.body)).toContain(`Via ${kind}`);
    }
    const blank = await api({
      method: "POST",
      path: `/projects/${cast.private.id}/merge_requests/${mergeRequest.id}/comments`,
      token: token("reporter"),
      json: { note: "  " },
    });
    expect(blank.status).toBe(400);
  });

  describe("permissions", () => {
    let issue: IssueJson;
    let byReporter: NoteJson;
    beforeAll(async () => {
      issue = await openIssue(cast.private.id);
      byReporter = await addNote(issueNotes(issue), "reporter", "Mine");
    });
    const edit = (noteId: number, role: Role) =>
      api({
        method: "PUT",
        path: `${issueNotes(issue)}/${noteId}`,
        token: token(role),
        json: { body: `By ${role}` },
      });

    it("lets the author and masters and up edit a note, others get 403", async () => {
      for (const role of ["developer", "guest"] as const) {
        expect((await edit(byReporter.id, role)).status).toBe(403);
        const deleted = await api({
          method: "DELETE",
          path: `${issueNotes(issue)}/${byReporter.id}`,
          token: token(role),
        });
        expect(deleted.status).toBe(403);
      }
      for (const role of ["reporter", "master", "owner", "admin"] as const) {
        expect(await edit(byReporter.id, role)).toMatchObject({ status: 200, body: { body: `By ${role}` } });
      }
      const byGuest = await addNote(issueNotes(issue), "guest", "Guest note");
      expect((await edit(byGuest.id, "reporter")).status).toBe(403);
      expect(
        await api({ method: "DELETE", path: `${issueNotes(issue)}/${byGuest.id}`, token: token("master") }),
      ).toMatchObject({ status: 200, body: { id: byGuest.id } });
    });

    it("hides notes of a private project from outsiders (404) but lets anyone comment on a public one", async () => {
      const path = issueNotes(issue);
      for (const request of [
        { path },
        { path: `${path}/${byReporter.id}` },
        { method: "POST" as const, path, json: { body: "Hi" } },
        { method: "PUT" as const, path: `${path}/${byReporter.id}`, json: { body: "Hi" } },
      ]) {
        const res = await api({ ...request, token: token("outsider") });
        expect(res).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
      }
      const open = await openIssue(cast.public.id);
      const note = await addNote(issueNotes(open), "outsider", "Drive-by comment");
      expect(note.author.username).toBe("nt-outsider");
      const byOwner = await addNote(issueNotes(open), "owner", "Owner's");
      const foreign = await api({
        method: "PUT",
        path: `${issueNotes(open)}/${byOwner.id}`,
        token: token("outsider"),
        json: { body: "Hijack" },
      });
      expect(foreign.status).toBe(403);
    });

    it("answers 404 Note Not Found for a note of another noteable, and 404 for unknown issues", async () => {
      const other = await openIssue(cast.private.id);
      const path = `${issueNotes(other)}/${byReporter.id}`;
      for (const method of ["GET", "PUT", "DELETE"] as const) {
        const res = await api({ method, path, token: token("master"), json: { body: "x" } });
        expect(res).toMatchObject({ status: 404, body: { message: "404 Note Not Found" } });
      }
      const mrPath = `/projects/${cast.private.id}/merge_requests/${mergeRequest.id}/notes/${byReporter.id}`;
      expect((await api({ path: mrPath, token: token("master") })).status).toBe(404);
      const missing = await api({ path: issueNotes({ ...issue, id: 999999 }), token: token("master") });
      expect(missing.status).toBe(404);
    });

    it("keeps notes of a confidential issue from those who may not read it", async () => {
      const secret = await openIssue(cast.private.id, { confidential: true });
      const path = issueNotes(secret);
      const note = await addNote(path, "reporter", "Between us");
      for (const request of [
        { path },
        { path: `${path}/${note.id}` },
        { method: "POST" as const, path, json: { body: "Me too" } },
      ]) {
        expect((await api({ ...request, token: token("guest") })).status).toBe(404);
      }
      expect((await api({ path, token: token("reporter") })).status).toBe(200);
    });
  });

  it("rejects a missing or blank body with 400", async () => {
    const issue = await openIssue(cast.private.id);
    const missing = await api({
      method: "POST",
      path: issueNotes(issue),
      token: token("reporter"),
      json: {},
    });
    expect(missing).toMatchObject({ status: 400, body: { message: '400 (Bad request) "body" not given' } });
    for (const body of ["", "   "]) {
      const res = await api({
        method: "POST",
        path: issueNotes(issue),
        token: token("reporter"),
        json: { body },
      });
      expect(res).toMatchObject({ status: 400, body: { message: { body: ["can't be blank"] } } });
    }
    const note = await addNote(issueNotes(issue), "reporter", "Fine");
    const res = await api({
      method: "PUT",
      path: `${issueNotes(issue)}/${note.id}`,
      token: token("reporter"),
      json: { body: "" },
    });
    expect(res.status).toBe(400);
  });

  it("honours created_at for the project's owner and administrators only", async () => {
    const issue = await openIssue(cast.private.id);
    const when = "2016-03-04T05:06:07.000Z";
    for (const [role, honoured] of [
      ["owner", true],
      ["admin", true],
      ["master", false],
    ] as const) {
      const res = await api<NoteJson>({
        method: "POST",
        path: issueNotes(issue),
        token: token(role),
        json: { body: `Dated by ${role}`, created_at: when },
      });
      expect(res.status).toBe(201);
      expect(res.body.created_at === when).toBe(honoured);
    }
  });

  it("counts user notes in user_notes_count and touches the issue's updated_at", async () => {
    const issue = await openIssue(cast.private.id);
    const read = async () => {
      const res = await api<IssueJson>({
        path: `/projects/${issue.project_id}/issues/${issue.id}`,
        token: token("reporter"),
      });
      expect(res.status).toBe(200);
      return res.body;
    };
    expect((await read()).user_notes_count).toBe(0);
    const first = await addNote(issueNotes(issue), "reporter", "One");
    await addNote(issueNotes(issue), "guest", "Two");
    const counted = await read();
    expect(counted.user_notes_count).toBe(2);
    expect(Date.parse(counted.updated_at)).toBeGreaterThanOrEqual(Date.parse(first.created_at));
    expect(Date.parse(counted.updated_at)).toBeGreaterThan(Date.parse(issue.updated_at));
    await api({ method: "DELETE", path: `${issueNotes(issue)}/${first.id}`, token: token("reporter") });
    expect((await read()).user_notes_count).toBe(1);
  });

  it("records a 'commented on' event with the note in the project's feed", async () => {
    const issue = await openIssue(cast.private.id);
    const note = await addNote(issueNotes(issue), "developer", "For the feed");
    const feed = await api<EventJson[]>({
      path: `/projects/${cast.private.id}/events`,
      token: token("guest"),
    });
    expect(feed.status).toBe(200);
    const event = EventJson.strict().parse(feed.body[0]);
    expect(event).toMatchObject({
      action_name: "commented on",
      target_type: "Note",
      target_id: note.id,
      target_title: null,
      author_id: cast.people.developer.id,
      author_username: "nt-developer",
      note: {
        id: note.id,
        body: "For the feed",
        noteable_id: issue.id,
        noteable_type: "Issue",
        system: false,
      },
    });
  });

  it("gives people mentioned in a note a todo that names the note, once", async () => {
    const issue = await openIssue(cast.private.id);
    const pending = async (role: Role) => {
      const res = await api<
        { target: { id: number }; action_name: string; body: string; target_url: string }[]
      >({
        path: "/todos",
        token: token(role),
      });
      expect(res.status, res.text).toBe(200);
      return res.body.filter((todo) => todo.target.id === issue.id);
    };
    const note = await addNote(issueNotes(issue), "reporter", "@nt-master and @nt-outsider, look");
    const todos = await pending("master");
    expect(todos).toHaveLength(1);
    expect(todos[0]).toMatchObject({ action_name: "mentioned", body: "@nt-master and @nt-outsider, look" });
    expect(todos[0]?.target_url).toContain(`#note_${note.id}`);
    // The outsider may not read the private project: no todo.
    expect(await pending("outsider")).toHaveLength(0);
    // Editing gives todos only to people newly mentioned.
    await api({
      method: "PUT",
      path: `${issueNotes(issue)}/${note.id}`,
      token: token("reporter"),
      json: { body: "@nt-master and @nt-developer, look" },
    });
    expect(await pending("master")).toHaveLength(1);
    expect(await pending("developer")).toHaveLength(1);
    // Deleting the note takes its todos with it, as GitLab 8.x does.
    await api({ method: "DELETE", path: `${issueNotes(issue)}/${note.id}`, token: token("reporter") });
    expect(await pending("master")).toHaveLength(0);
  });

  it("marks the writer's own pending todos on the noteable done when they comment", async () => {
    const issue = await openIssue(cast.private.id);
    const pendingOnIssue = async () => {
      const res = await api<{ target: { id: number } }[]>({ path: "/todos", token: token("master") });
      expect(res.status).toBe(200);
      return res.body.filter((todo) => todo.target.id === issue.id);
    };
    await addNote(issueNotes(issue), "reporter", "@nt-master what do you think?");
    expect(await pendingOnIssue()).toHaveLength(1);
    await addNote(issueNotes(issue), "master", "Fine by me");
    expect(await pendingOnIssue()).toHaveLength(0);
  });

  it("lists system notes but leaves them unedited and out of user_notes_count", async () => {
    const issue = await openIssue(cast.private.id);
    const moved = await api({
      method: "POST",
      path: `/projects/${issue.project_id}/issues/${issue.id}/move`,
      token: token("owner"),
      json: { to_project_id: cast.public.id },
    });
    expect([200, 201], moved.text).toContain(moved.status);
    const listed = await api<NoteJson[]>({ path: issueNotes(issue), token: token("owner") });
    const system = listed.body.find((note) => note.system);
    expect(system?.body).toMatch(/^moved to /);
    const edited = await api<NoteJson>({
      method: "PUT",
      path: `${issueNotes(issue)}/${system?.id}`,
      token: token("owner"),
      json: { body: "rewritten" },
    });
    expect(edited).toMatchObject({ status: 200, body: { id: system?.id, body: system?.body } });
    const read = await api<IssueJson>({
      path: `/projects/${issue.project_id}/issues/${issue.id}`,
      token: token("owner"),
    });
    expect(read.body.user_notes_count).toBe(0);
  });
});
