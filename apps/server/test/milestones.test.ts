import { IssueJson, MilestoneJson } from "@kiln/schemas";
import type { ApiRequest } from "@kiln/testkit";
import { beforeAll, expect, it } from "vitest";
import { createRoleCast, ROLES, type Role, type RoleCast } from "./project-roles.js";
import { onEachDatabase } from "./support.js";

type MilestoneBody = MilestoneJson & { message?: unknown };

interface EventBody {
  action_name: string;
  target_type: string | null;
  target_id: number | null;
  target_title: string | null;
}

onEachDatabase("milestones API", (ctx) => {
  let cast: RoleCast;
  beforeAll(async () => {
    cast = await createRoleCast(ctx(), "ms");
  });
  const api = <T = unknown>(request: ApiRequest) => ctx().api<T>(request);
  const token = (role: Role) => cast.people[role].token;
  const createMilestone = (projectId: number, json: Record<string, unknown>, role: Role = "master") =>
    api<MilestoneBody>({
      method: "POST",
      path: `/projects/${projectId}/milestones`,
      token: token(role),
      json,
    });
  const editMilestone = (
    projectId: number,
    milestoneId: number,
    json: Record<string, unknown>,
    role: Role = "master",
  ) =>
    api<MilestoneBody>({
      method: "PUT",
      path: `/projects/${projectId}/milestones/${milestoneId}`,
      token: token(role),
      json,
    });
  const listTitles = async (projectId: number, query: ApiRequest["query"] = {}) => {
    const res = await api<MilestoneBody[]>({
      path: `/projects/${projectId}/milestones`,
      token: token("guest"),
      query,
    });
    expect(res.status).toBe(200);
    return res.body.map((milestone) => MilestoneJson.strict().parse(milestone).title);
  };

  it("creates a milestone (201) with the next iid, gets, lists and edits it", async () => {
    const id = cast.private.id;
    const created = await createMilestone(id, {
      title: "v1.0",
      description: "First release",
      due_date: "2026-12-31",
      start_date: "2026-12-01",
    });
    expect(created.status).toBe(201);
    const v1 = MilestoneJson.strict().parse(created.body);
    expect(v1).toMatchObject({
      iid: 1,
      project_id: id,
      title: "v1.0",
      description: "First release",
      state: "active",
      due_date: "2026-12-31",
      start_date: "2026-12-01",
    });
    const second = await createMilestone(id, { title: "v2.0" });
    expect(second).toMatchObject({
      status: 201,
      body: { iid: 2, description: null, due_date: null, start_date: null, state: "active" },
    });

    expect(await api({ path: `/projects/${id}/milestones/${v1.id}`, token: token("guest") })).toMatchObject({
      status: 200,
      body: v1,
    });
    const listed = await api<MilestoneBody[]>({ path: `/projects/${id}/milestones`, token: token("guest") });
    expect(listed.status).toBe(200);
    expect(listed.body.map((m) => m.title)).toEqual(["v1.0", "v2.0"]);
    expect(listed.headers.get("x-total")).toBe("2");
    expect(listed.headers.get("x-page")).toBe("1");
    const firstPage = await api<MilestoneBody[]>({
      path: `/projects/${id}/milestones`,
      token: token("guest"),
      query: { per_page: 1 },
    });
    expect(firstPage.body.map((m) => m.title)).toEqual(["v1.0"]);
    expect(firstPage.headers.get("x-total-pages")).toBe("2");
    expect(await listTitles(id, { iid: [2] })).toEqual(["v2.0"]);
    expect(await listTitles(id, { iid: [1, 2] })).toEqual(["v1.0", "v2.0"]);

    const edited = await editMilestone(id, v1.id, {
      title: "v1.0 final",
      description: "",
      due_date: "2027-01-15",
      start_date: "",
    });
    expect(edited.status).toBe(200);
    expect(MilestoneJson.strict().parse(edited.body)).toMatchObject({
      id: v1.id,
      iid: 1,
      title: "v1.0 final",
      description: "",
      state: "active",
      due_date: "2027-01-15",
      start_date: null,
    });
  });

  it("closes and activates a milestone (state filter follows), recording both in the project's events", async () => {
    const id = cast.public.id;
    const milestone = MilestoneJson.parse((await createMilestone(id, { title: "Sprint 1" })).body);
    expect((await createMilestone(id, { title: "Sprint 2" })).status).toBe(201);

    const closed = await editMilestone(id, milestone.id, { state_event: "close" });
    expect(closed).toMatchObject({
      status: 200,
      body: { id: milestone.id, state: "closed", title: "Sprint 1" },
    });
    expect(await listTitles(id, { state: "closed" })).toEqual(["Sprint 1"]);
    expect(await listTitles(id, { state: "active" })).toEqual(["Sprint 2"]);
    expect(await listTitles(id, { state: "all" })).toEqual(["Sprint 1", "Sprint 2"]);
    expect(await listTitles(id)).toEqual(["Sprint 1", "Sprint 2"]);

    // Closing a closed milestone changes nothing, as GitLab's close service does.
    expect(await editMilestone(id, milestone.id, { state_event: "close" })).toMatchObject({
      status: 200,
      body: { state: "closed" },
    });
    const activated = await editMilestone(id, milestone.id, {
      state_event: "activate",
      description: "Again",
    });
    expect(activated).toMatchObject({ status: 200, body: { state: "active", description: "Again" } });
    expect(await listTitles(id, { state: "closed" })).toEqual([]);

    const events = await api<EventBody[]>({ path: `/projects/${id}/events`, token: token("owner") });
    expect(events.status).toBe(200);
    const ofMilestone = events.body
      .filter((event) => event.target_type === "Milestone" && event.target_id === milestone.id)
      .map((event) => event.action_name)
      .reverse();
    expect(ofMilestone).toEqual(["opened", "closed", "opened"]);
  });

  it("refuses duplicate titles, missing titles, bad dates and states (400) and unknown milestones (404)", async () => {
    const id = cast.private.id;
    const taken = MilestoneJson.parse((await createMilestone(id, { title: "Taken" })).body);
    expect(await createMilestone(id, { title: "Taken" })).toMatchObject({
      status: 400,
      body: { message: 'Failed to create milestone {:title=>["has already been taken"]}' },
    });
    expect((await createMilestone(id, { description: "untitled" })).status).toBe(400);
    expect((await createMilestone(id, { title: "Bad date", due_date: "31/12/2026" })).status).toBe(400);
    const backwards = await createMilestone(id, {
      title: "Backwards",
      start_date: "2026-12-31",
      due_date: "2026-12-01",
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toMatch(/^Failed to create milestone \{:start_date=>/);

    const other = MilestoneJson.parse((await createMilestone(id, { title: "Other" })).body);
    expect(await editMilestone(id, other.id, { title: "Taken" })).toMatchObject({
      status: 400,
      body: { message: 'Failed to update milestone {:title=>["has already been taken"]}' },
    });
    expect((await editMilestone(id, other.id, {})).status).toBe(400);
    expect((await editMilestone(id, other.id, { state_event: "reopen" })).status).toBe(400);
    expect(
      (await editMilestone(id, taken.id, { start_date: "2030-01-01", due_date: "2029-01-01" })).status,
    ).toBe(400);

    const missing = await api({ path: `/projects/${id}/milestones/999999`, token: token("master") });
    expect(missing).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect((await editMilestone(id, 999999, { title: "x" })).status).toBe(404);
    // A milestone of another project is not found through this one.
    const elsewhere = await api({
      path: `/projects/${cast.public.id}/milestones/${taken.id}`,
      token: token("master"),
    });
    expect(elsewhere.status).toBe(404);
    expect(
      (await api({ path: `/projects/${id}/milestones/${taken.id}/issues`, token: token("outsider") })).status,
    ).toBe(404);
  });

  it("lets masters and above manage milestones; everyone who reads the project reads them", async () => {
    const id = cast.private.id;
    const target = MilestoneJson.parse((await createMilestone(id, { title: "Shared" })).body);
    const writes: Record<Role, number> = {
      owner: 201,
      master: 201,
      developer: 403,
      reporter: 403,
      guest: 403,
      outsider: 404,
      admin: 201,
    };
    for (const role of ROLES) {
      const created = await createMilestone(id, { title: `by ${role}` }, role);
      expect({ role, status: created.status }).toEqual({ role, status: writes[role] });
      const edited = await editMilestone(id, target.id, { description: `edited by ${role}` }, role);
      expect({ role, status: edited.status }).toEqual({
        role,
        status: writes[role] === 201 ? 200 : writes[role],
      });
      const read = await api({ path: `/projects/${id}/milestones/${target.id}`, token: token(role) });
      expect({ role, status: read.status }).toEqual({ role, status: role === "outsider" ? 404 : 200 });
      const list = await api({ path: `/projects/${id}/milestones`, token: token(role) });
      expect({ role, status: list.status }).toEqual({ role, status: role === "outsider" ? 404 : 200 });
    }
    const publicOne = MilestoneJson.parse((await createMilestone(cast.public.id, { title: "Public" })).body);
    const outsiderReads = await api({
      path: `/projects/${cast.public.id}/milestones/${publicOne.id}`,
      token: token("outsider"),
    });
    expect(outsiderReads.status).toBe(200);
    expect((await editMilestone(cast.public.id, publicOne.id, { title: "Mine" }, "outsider")).status).toBe(
      403,
    );
    expect((await api({ path: `/projects/${cast.public.id}/milestones` })).status).toBe(401);
  });

  it("lists the milestone's issues the caller may read, newest first, in every state", async () => {
    const id = cast.private.id;
    const milestone = MilestoneJson.parse((await createMilestone(id, { title: "With issues" })).body);
    const openIssue = async (json: Record<string, unknown>) => {
      const res = await api<IssueJson>({
        method: "POST",
        path: `/projects/${id}/issues`,
        token: token("reporter"),
        json: { milestone_id: milestone.id, ...json },
      });
      // The interface's table answers a new issue with 200.
      expect(res.status).toBe(200);
      return res.body;
    };
    const first = await openIssue({ title: "First" });
    const secret = await openIssue({ title: "Secret", confidential: true });
    const last = await openIssue({ title: "Last" });
    await openIssue({ title: "Elsewhere", milestone_id: undefined });
    const closed = await api({
      method: "PUT",
      path: `/projects/${id}/issues/${first.id}`,
      token: token("reporter"),
      json: { state_event: "close" },
    });
    expect(closed.status).toBe(200);

    const issuesAs = async (role: Role, query: ApiRequest["query"] = {}) => {
      const res = await api<IssueJson[]>({
        path: `/projects/${id}/milestones/${milestone.id}/issues`,
        token: token(role),
        query,
      });
      expect(res.status).toBe(200);
      return { res, issues: res.body.map((issue) => IssueJson.strict().parse(issue)) };
    };
    const asReporter = await issuesAs("reporter");
    expect(asReporter.issues.map((issue) => issue.id)).toEqual([last.id, secret.id, first.id]);
    expect(asReporter.issues.map((issue) => issue.state)).toEqual(["opened", "opened", "closed"]);
    expect(asReporter.issues[0]?.milestone).toMatchObject({ id: milestone.id, title: "With issues" });
    expect(asReporter.res.headers.get("x-total")).toBe("3");
    const asGuest = await issuesAs("guest");
    expect(asGuest.issues.map((issue) => issue.id)).toEqual([last.id, first.id]);
    const paged = await issuesAs("admin", { per_page: 2, page: 2 });
    expect(paged.issues.map((issue) => issue.id)).toEqual([first.id]);
    expect(paged.res.headers.get("x-total-pages")).toBe("2");
  });
});
