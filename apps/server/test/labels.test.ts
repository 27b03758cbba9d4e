import { type IssueJson, LabelJson } from "@kiln/schemas";
import type { ApiRequest } from "@kiln/testkit";
import { beforeAll, expect, it } from "vitest";
import { commitTo, mergeFixture, openMergeRequest } from "./merge-requests-support.js";
import { createRoleCast, ROLES, type Role, type RoleCast } from "./project-roles.js";
import { onEachDatabase } from "./support.js";

type LabelBody = LabelJson & { message?: unknown };

/** `POST /projects/:id/issues` and `…/merge_requests` answer 200 with the new issuable (the interface's table says so). */
const CREATED_ISSUE = 200;

onEachDatabase("labels API", (ctx) => {
  let cast: RoleCast;
  beforeAll(async () => {
    cast = await createRoleCast(ctx(), "lb");
  });
  const api = <T = unknown>(request: ApiRequest) => ctx().api<T>(request);
  const token = (role: Role) => cast.people[role].token;
  const createLabel = (projectId: number, json: Record<string, unknown>, role: Role = "reporter") =>
    api<LabelBody>({ method: "POST", path: `/projects/${projectId}/labels`, token: token(role), json });
  const listLabels = async (projectId: number, role: Role) => {
    const res = await api<LabelBody[]>({ path: `/projects/${projectId}/labels`, token: token(role) });
    expect(res.status).toBe(200);
    return res.body.map((label) => LabelJson.strict().parse(label));
  };
  const labelNamed = async (projectId: number, name: string, role: Role) => {
    const found = (await listLabels(projectId, role)).find((label) => label.name === name);
    if (!found) throw new Error(`no label ${name}`);
    return found;
  };

  it("creates a label (201), lists labels by title unpaginated, edits it by name and deletes it", async () => {
    const id = cast.private.id;
    const created = await createLabel(id, {
      name: "bug",
      color: "#d9534f",
      description: "Broken things",
      priority: 1,
    });
    expect(created.status).toBe(201);
    const bug = LabelJson.strict().parse(created.body);
    expect(bug).toEqual({
      id: bug.id,
      name: "bug",
      color: "#d9534f",
      description: "Broken things",
      open_issues_count: 0,
      closed_issues_count: 0,
      open_merge_requests_count: 0,
      priority: 1,
      subscribed: false,
    });
    expect((await createLabel(id, { name: "feature", color: "#5CB85C" })).status).toBe(201);
    const accepted = await createLabel(id, { name: "Accepted", color: "#fff" });
    expect(accepted).toMatchObject({ status: 201, body: { description: null, priority: null } });

    const listed = await api<LabelBody[]>({ path: `/projects/${id}/labels`, token: token("guest") });
    expect(listed.status).toBe(200);
    expect(listed.body.map((label) => label.name)).toEqual(["Accepted", "bug", "feature"]);
    expect(listed.headers.get("x-total")).toBeNull();
    expect(listed.headers.get("link")).toBeNull();

    const edited = await api<LabelBody>({
      method: "PUT",
      path: `/projects/${id}/labels`,
      token: token("reporter"),
      form: { name: "bug", new_name: "defect", color: "#FF0000", priority: "" },
    });
    expect(edited.status).toBe(200);
    expect(LabelJson.strict().parse(edited.body)).toEqual({
      ...bug,
      name: "defect",
      color: "#FF0000",
      priority: null,
    });
    const byPath = encodeURIComponent(cast.private.path_with_namespace);
    const described = await api<LabelBody>({
      method: "PUT",
      path: `/projects/${byPath}/labels`,
      token: token("reporter"),
      json: { name: "defect", description: "Still broken", priority: 3 },
    });
    expect(described).toMatchObject({
      status: 200,
      body: { name: "defect", description: "Still broken", priority: 3 },
    });

    const deleted = await api<LabelBody>({
      method: "DELETE",
      path: `/projects/${id}/labels`,
      token: token("reporter"),
      query: { name: "defect" },
    });
    expect(deleted).toMatchObject({ status: 200, body: described.body });
    expect((await listLabels(id, "reporter")).map((label) => label.name)).toEqual(["Accepted", "feature"]);
    const again = await api({
      method: "DELETE",
      path: `/projects/${id}/labels`,
      token: token("reporter"),
      query: { name: "defect" },
    });
    expect(again).toMatchObject({ status: 404, body: { message: "404 Label Not Found" } });
  });

  it("refuses a taken name (409), a bad colour or title (400) and edits of missing labels (404)", async () => {
    const id = cast.public.id;
    expect((await createLabel(id, { name: "dup", color: "#000000" })).status).toBe(201);
    expect(await createLabel(id, { name: "dup", color: "#111111" })).toMatchObject({
      status: 409,
      body: { message: "Label already exists" },
    });
    expect(await createLabel(id, { name: "red", color: "red" })).toMatchObject({
      status: 400,
      body: { message: { color: ["must be a valid color code"] } },
    });
    expect(await createLabel(id, { name: "a,b", color: "#123" })).toMatchObject({
      status: 400,
      body: { message: { title: ["is invalid"] } },
    });
    const noColor = await createLabel(id, { name: "colourless" });
    expect(noColor.status).toBe(400);
    expect(JSON.stringify(noColor.body)).toContain("color");
    expect((await listLabels(id, "reporter")).map((label) => label.name)).toEqual(["dup"]);

    const put = (json: Record<string, unknown>) =>
      api<LabelBody>({ method: "PUT", path: `/projects/${id}/labels`, token: token("reporter"), json });
    expect(await put({ name: "missing", color: "#000" })).toMatchObject({
      status: 404,
      body: { message: "404 Label not found Not Found" },
    });
    const nothing = await put({ name: "dup" });
    expect(nothing.status).toBe(400);
    expect(JSON.stringify(nothing.body)).toContain("at least one parameter must be provided");
    expect((await createLabel(id, { name: "other", color: "#222" })).status).toBe(201);
    expect(await put({ name: "other", new_name: "dup" })).toMatchObject({
      status: 400,
      body: { message: { title: ["has already been taken"] } },
    });
    expect(await put({ name: "other", color: "blue" })).toMatchObject({
      status: 400,
      body: { message: { color: ["must be a valid color code"] } },
    });
    expect(await put({ name: "other", new_name: "x,y" })).toMatchObject({
      status: 400,
      body: { message: { title: ["is invalid"] } },
    });
  });

  it("lets reporters and above manage labels: guests 403, outsiders of a private project 404", async () => {
    const expected: Record<Role, number> = {
      owner: 201,
      master: 201,
      developer: 201,
      reporter: 201,
      guest: 403,
      outsider: 404,
      admin: 201,
    };
    const id = cast.private.id;
    expect((await createLabel(id, { name: "shared", color: "#333" })).status).toBe(201);
    for (const role of ROLES) {
      const res = await createLabel(id, { name: `by-${role}`, color: "#333" }, role);
      expect({ role, status: res.status }).toEqual({ role, status: expected[role] });
      const edit = await api({
        method: "PUT",
        path: `/projects/${id}/labels`,
        token: token(role),
        json: { name: "shared", description: role },
      });
      expect({ role, status: edit.status }).toEqual({
        role,
        status: expected[role] === 201 ? 200 : expected[role],
      });
      const read = await api({ path: `/projects/${id}/labels`, token: token(role) });
      expect({ role, status: read.status }).toEqual({ role, status: role === "outsider" ? 404 : 200 });
    }
    for (const role of ["guest", "outsider"] as const) {
      const res = await api({
        method: "DELETE",
        path: `/projects/${id}/labels`,
        token: token(role),
        query: { name: "shared" },
      });
      expect({ role, status: res.status }).toEqual({ role, status: expected[role] });
    }
    const outsiderOfPublic = await createLabel(cast.public.id, { name: "nope", color: "#333" }, "outsider");
    expect(outsiderOfPublic.status).toBe(403);
    expect((await api({ path: `/projects/${cast.public.id}/labels`, token: token("outsider") })).status).toBe(
      200,
    );
    expect((await api({ path: `/projects/${cast.public.id}/labels` })).status).toBe(401);
  });

  it("subscribes the caller to a label by id or name (201, then 304) and unsubscribes (200, then 304)", async () => {
    const id = cast.private.id;
    const created = await createLabel(id, { name: "watched", color: "#444" });
    const label = LabelJson.parse(created.body);
    const subscription = (labelRef: string | number, method: "POST" | "DELETE", role: Role = "guest") =>
      api<LabelBody>({ method, path: `/projects/${id}/labels/${labelRef}/subscription`, token: token(role) });

    const subscribed = await subscription(label.id, "POST");
    expect(subscribed.body).toMatchObject({ id: label.id });
    expect(subscribed.status).toBe(201);
    expect(LabelJson.strict().parse(subscribed.body)).toMatchObject({ id: label.id, subscribed: true });
    const twice = await subscription("watched", "POST");
    expect(twice.status).toBe(304);
    expect(twice.text).toBe("");
    expect((await labelNamed(id, "watched", "guest")).subscribed).toBe(true);
    expect((await labelNamed(id, "watched", "reporter")).subscribed).toBe(false);

    expect(await subscription("watched", "DELETE")).toMatchObject({
      status: 200,
      body: { id: label.id, name: "watched", subscribed: false },
    });
    expect((await subscription(label.id, "DELETE")).status).toBe(304);
    expect((await labelNamed(id, "watched", "guest")).subscribed).toBe(false);

    expect(await subscription("no-such-label", "POST")).toMatchObject({
      status: 404,
      body: { message: "404 Label Not Found" },
    });
    expect((await subscription("99999999999999999999", "POST")).status).toBe(404);
    expect((await subscription(label.id, "POST", "outsider")).status).toBe(404);
    const elsewhere = await api({
      method: "POST",
      path: `/projects/${cast.public.id}/labels/${label.id}/subscription`,
      token: token("guest"),
    });
    expect(elsewhere.status).toBe(404);
  });

  it("counts open and closed issues with the label, leaving out confidential ones the caller may not read", async () => {
    const id = cast.private.id;
    expect((await createLabel(id, { name: "counted", color: "#555" })).status).toBe(201);
    const openIssue = (json: Record<string, unknown>, role: Role = "reporter") =>
      api<IssueJson>({
        method: "POST",
        path: `/projects/${id}/issues`,
        token: token(role),
        json: { labels: "counted", ...json },
      });
    const counts = async (role: Role) => {
      const { open_issues_count, closed_issues_count } = await labelNamed(id, "counted", role);
      return { open: open_issues_count, closed: closed_issues_count };
    };

    const first = await openIssue({ title: "First" });
    expect(first.status).toBe(CREATED_ISSUE);
    expect(first.body.labels).toEqual(["counted"]);
    expect(await counts("guest")).toEqual({ open: 1, closed: 0 });
    expect((await openIssue({ title: "Second" })).status).toBe(CREATED_ISSUE);
    expect((await openIssue({ title: "Secret", confidential: true })).status).toBe(CREATED_ISSUE);
    expect((await openIssue({ title: "Unlabelled", labels: "" })).status).toBe(CREATED_ISSUE);
    expect(await counts("reporter")).toEqual({ open: 3, closed: 0 });
    expect(await counts("guest")).toEqual({ open: 2, closed: 0 });
    expect(await counts("admin")).toEqual({ open: 3, closed: 0 });

    const closed = await api({
      method: "PUT",
      path: `/projects/${id}/issues/${first.body.id}`,
      token: token("reporter"),
      json: { state_event: "close" },
    });
    expect(closed.status).toBe(200);
    expect(await counts("reporter")).toEqual({ open: 2, closed: 1 });
    expect(await counts("guest")).toEqual({ open: 1, closed: 1 });

    // A confidential issue assigned to the guest counts for them.
    const assigned = await openIssue({
      title: "Guest's secret",
      confidential: true,
      assignee_id: cast.people.guest.id,
    });
    expect(assigned.status).toBe(CREATED_ISSUE);
    expect(await counts("guest")).toEqual({ open: 2, closed: 1 });
    expect(await counts("reporter")).toEqual({ open: 3, closed: 1 });

    // Reopening, taking the label off and deleting an issue move the counts too.
    const issuePath = (issue: { body: IssueJson }) => `/projects/${id}/issues/${issue.body.id}`;
    const edit = (issue: { body: IssueJson }, json: Record<string, unknown>) =>
      api({ method: "PUT", path: issuePath(issue), token: token("reporter"), json });
    expect((await edit(first, { state_event: "reopen" })).status).toBe(200);
    expect(await counts("reporter")).toEqual({ open: 4, closed: 0 });
    expect((await edit(first, { labels: "" })).status).toBe(200);
    expect(await counts("reporter")).toEqual({ open: 3, closed: 0 });
    expect((await edit(first, { labels: "counted", state_event: "close" })).status).toBe(200);
    expect(await counts("reporter")).toEqual({ open: 3, closed: 1 });
    const removed = await api({ method: "DELETE", path: issuePath(assigned), token: token("owner") });
    expect(removed.status).toBe(200);
    expect(await counts("reporter")).toEqual({ open: 2, closed: 1 });
    expect(await counts("guest")).toEqual({ open: 1, closed: 1 });

    // Deleting the label takes it off its issues.
    const deleted = await api<LabelBody>({
      method: "DELETE",
      path: `/projects/${id}/labels`,
      token: token("reporter"),
      query: { name: "counted" },
    });
    expect(deleted).toMatchObject({ status: 200, body: { name: "counted", open_issues_count: 2 } });
    const issue = await api<IssueJson>({
      path: `/projects/${id}/issues/${first.body.id}`,
      token: token("reporter"),
    });
    expect(issue).toMatchObject({ status: 200, body: { labels: [] } });
  });

  it("counts open merge requests with the label until they close", async () => {
    const { cast: mrCast, project, repo } = await mergeFixture(ctx(), "lbmr");
    commitTo(repo, "feature", { "app.txt": "changed\n" }, { from: "master" });
    const created = await api({
      method: "POST",
      path: `/projects/${project.id}/labels`,
      token: mrCast.people.reporter.token,
      json: { name: "review", color: "#666" },
    });
    expect(created.status).toBe(201);
    const opened = await openMergeRequest(ctx(), project.id, mrCast.people.developer, {
      source_branch: "feature",
      target_branch: "master",
      title: "Feature",
      labels: "review",
    });
    expect(opened.status).toBe(CREATED_ISSUE);
    const mergeRequestCount = async (user: "reporter" | "guest") => {
      const res = await api<LabelBody[]>({
        path: `/projects/${project.id}/labels`,
        token: mrCast.people[user].token,
      });
      expect(res.status).toBe(200);
      return res.body.find((label) => label.name === "review")?.open_merge_requests_count;
    };
    expect(await mergeRequestCount("reporter")).toBe(1);
    // A guest of this private project may not read its merge requests (GitLab 8.13+): none counted.
    expect(await mergeRequestCount("guest")).toBe(0);

    const closed = await api({
      method: "PUT",
      path: `/projects/${project.id}/merge_requests/${opened.body.id}`,
      token: mrCast.people.developer.token,
      json: { state_event: "close" },
    });
    expect(closed.status).toBe(200);
    expect(await mergeRequestCount("reporter")).toBe(0);
  });
});
