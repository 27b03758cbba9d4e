import {
  type CommitJson,
  type IssueJson,
  MergeRequestChangesJson,
  MergeRequestJson,
  type TodoJson,
} from "@kiln/schemas";
import { git } from "@kiln/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import {
  commitTo,
  eventually,
  headOf,
  type MergeFixture,
  mergeFixture,
  openMergeRequest,
} from "./merge-requests-support.js";
import { onEachDatabase } from "./support.js";

type Reply = MergeRequestJson & { message?: unknown };

onEachDatabase("merge requests", (ctx) => {
  let fx: MergeFixture;
  beforeAll(async () => {
    fx = await mergeFixture(ctx(), "mr");
  });
  const people = () => fx.cast.people;
  const id = () => fx.project.id;
  const MRS = () => `/projects/${id()}/merge_requests`;
  let branches = 0;
  /** A new branch off master with one commit changing `file`; answers its name and head. */
  function topic(file = `topic-${branches + 1}.txt`, content = "topic\n") {
    branches += 1;
    const name = `topic-${branches}`;
    const head = commitTo(
      fx.repo,
      name,
      { [file]: content },
      { from: "master", message: `Add ${file}\n\nBody` },
    );
    return { name, head };
  }
  const open = (params: Record<string, unknown>, user = people().developer) =>
    openMergeRequest(ctx(), id(), user, params);
  const get = (mrId: number, user = people().developer) =>
    ctx().api<Reply>({ path: `${MRS()}/${mrId}`, token: user.token });

  describe("create", () => {
    it("answers 200 with the new merge request, checked against git", async () => {
      const { name, head } = topic();
      const res = await open({
        source_branch: name,
        target_branch: "master",
        title: "Add a topic",
        description: "Mentions @mr-reporter",
        labels: "feature,backend",
        assignee_id: people().master.id,
      });
      expect(res.status).toBe(200);
      const mr = MergeRequestJson.strict().parse(res.body);
      expect(mr).toMatchObject({
        iid: expect.any(Number),
        project_id: id(),
        source_project_id: id(),
        target_project_id: id(),
        source_branch: name,
        target_branch: "master",
        state: "opened",
        merge_status: "can_be_merged",
        sha: head,
        merge_commit_sha: null,
        labels: ["backend", "feature"],
        work_in_progress: false,
        merge_when_build_succeeds: false,
        subscribed: true,
        author: { username: people().developer.username },
        assignee: { username: people().master.username },
      });
      // The assignee and the mentioned reporter have a todo.
      for (const [user, action] of [
        [people().master, "assigned"],
        [people().reporter, "mentioned"],
      ] as const) {
        const todos = await ctx().api<TodoJson[]>({ path: "/todos", token: user.token });
        expect(todos.body.find((todo) => todo.target.id === mr.id)).toMatchObject({
          action_name: action,
          target_type: "MergeRequest",
        });
      }
    });

    it("requires the branches and the title, and refuses a missing branch with a message", async () => {
      const { name } = topic();
      const missing = await open({ target_branch: "master", title: "x" });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toBe('400 (Bad request) "source_branch" not given');
      const noTitle = await open({ source_branch: name, target_branch: "master" });
      expect(noTitle.status).toBe(400);
      const noSource = await open({ source_branch: "nope", target_branch: "master", title: "x" });
      expect(noSource).toMatchObject({
        status: 400,
        body: { message: 'Source branch "nope" does not exist' },
      });
      const badName = await open({ source_branch: "a..b", target_branch: "master", title: "x" });
      expect(badName).toMatchObject({
        status: 400,
        body: { message: 'Source branch "a..b" does not exist' },
      });
      const noTarget = await open({ source_branch: name, target_branch: "nope", title: "x" });
      expect(noTarget).toMatchObject({
        status: 400,
        body: { message: 'Target branch "nope" does not exist' },
      });
      const same = await open({ source_branch: name, target_branch: name, title: "x" });
      expect(same).toMatchObject({
        status: 422,
        body: { message: "You can not use same project/branch for source and target" },
      });
    });

    it("answers 409 for a second open merge request of the same branches, and 403 below developer", async () => {
      const { name } = topic();
      expect((await open({ source_branch: name, target_branch: "master", title: "First" })).status).toBe(200);
      const again = await open({ source_branch: name, target_branch: "master", title: "Second" });
      expect(again).toMatchObject({
        status: 409,
        body: { message: 'Cannot Create: This merge request already exists: ["First"]' },
      });
      const reporter = await open(
        { source_branch: name, target_branch: "master", title: "x" },
        people().reporter,
      );
      expect(reporter.status).toBe(403);
      const outsider = await open(
        { source_branch: name, target_branch: "master", title: "x" },
        people().outsider,
      );
      expect(outsider.status).toBe(404);
    });

    it("takes target_project_id only for the project itself or the project it was forked from", async () => {
      const { name } = topic();
      const other = fx.cast.public;
      const res = await open({
        source_branch: name,
        target_branch: "master",
        title: "x",
        target_project_id: other.id,
      });
      expect(res).toMatchObject({
        status: 400,
        body: {
          message:
            "(Bad Request) Specified target project that is not the source project, or the source fork of the project.",
        },
      });
      const self = await open({
        source_branch: name,
        target_branch: "master",
        title: "Self",
        target_project_id: id(),
      });
      expect(self.status).toBe(200);
    });
  });

  describe("reads", () => {
    it("lists by state and iid, newest first, with X-Total", async () => {
      const a = await open({ source_branch: topic().name, target_branch: "master", title: "List A" });
      const b = await open({ source_branch: topic().name, target_branch: "master", title: "List B" });
      const closed = await ctx().api<Reply>({
        method: "PUT",
        path: `${MRS()}/${a.body.id}`,
        token: people().developer.token,
        json: { state_event: "close" },
      });
      expect(closed.body.state).toBe("closed");

      const all = await ctx().api<Reply[]>({
        path: MRS(),
        token: people().reporter.token,
        query: { per_page: 100 },
      });
      expect(all.status).toBe(200);
      const ids = all.body.map((mr) => mr.id);
      expect(ids.indexOf(b.body.id)).toBeLessThan(ids.indexOf(a.body.id));
      expect(all.headers.get("x-total")).toBe(String(all.body.length));

      const opened = await ctx().api<Reply[]>({
        path: MRS(),
        token: people().developer.token,
        query: { state: "opened", per_page: 100 },
      });
      expect(opened.body.every((mr) => mr.state === "opened" || mr.state === "reopened")).toBe(true);
      expect(opened.body.map((mr) => mr.id)).toContain(b.body.id);
      expect(opened.body.map((mr) => mr.id)).not.toContain(a.body.id);
      const closedList = await ctx().api<Reply[]>({
        path: MRS(),
        token: people().developer.token,
        query: { state: "closed" },
      });
      expect(closedList.body.map((mr) => mr.id)).toEqual([a.body.id]);

      const byIid = await ctx().api<Reply[]>({
        path: MRS(),
        token: people().developer.token,
        query: { iid: [a.body.iid, b.body.iid], sort: "asc" },
      });
      expect(byIid.body.map((mr) => mr.id)).toEqual([a.body.id, b.body.id]);
      const oneIid = await ctx().api<Reply[]>({
        path: MRS(),
        token: people().developer.token,
        query: { iid: b.body.iid },
      });
      expect(oneIid.body.map((mr) => mr.id)).toEqual([b.body.id]);
      const outsider = await ctx().api({ path: MRS(), token: people().outsider.token });
      expect(outsider.status).toBe(404);
    });

    it("reads commits (newest first) and changes from git", async () => {
      const { name, head: first } = topic("notes.txt", "first\n");
      const second = commitTo(
        fx.repo,
        name,
        { "app.txt": "one\n2\nthree\n", "README.md": null },
        { message: "Second\n" },
      );
      const mr = (await open({ source_branch: name, target_branch: "master", title: "Reads" })).body;

      const commits = await ctx().api<CommitJson[]>({
        path: `${MRS()}/${mr.id}/commits`,
        token: people().reporter.token,
      });
      expect(commits.status).toBe(200);
      expect(commits.body.map((commit) => commit.id)).toEqual([second, first]);
      expect(commits.body[1]).toMatchObject({
        short_id: first.slice(0, 11),
        title: "Add notes.txt",
        message: "Add notes.txt\n\nBody\n",
        author_name: "Branch Author",
        author_email: "branch@example.com",
      });

      const changes = await ctx().api<MergeRequestChangesJson>({
        path: `${MRS()}/${mr.id}/changes`,
        token: people().reporter.token,
      });
      expect(changes.status).toBe(200);
      const parsed = MergeRequestChangesJson.strict().parse(changes.body);
      expect(parsed.id).toBe(mr.id);
      const byPath = new Map(parsed.changes.map((change) => [change.new_path, change]));
      expect(byPath.get("notes.txt")).toMatchObject({
        new_file: true,
        a_mode: "0",
        b_mode: "100644",
        diff: expect.stringContaining("+first"),
      });
      expect(byPath.get("README.md")).toMatchObject({ deleted_file: true, b_mode: "0" });
      expect(byPath.get("app.txt")).toMatchObject({
        new_file: false,
        diff: expect.stringContaining("-two\n+2"),
      });
      expect(parsed.changes).toHaveLength(3);
    });

    it("computes cannot_be_merged for a real conflict", async () => {
      const base = `base-${branches}`;
      commitTo(fx.repo, base, { "app.txt": "one\nTWO on base\nthree\n" }, { from: "master" });
      const { name } = topic("app.txt", "one\nTWO on topic\nthree\n");
      const res = await open({ source_branch: name, target_branch: base, title: "Conflicting" });
      expect(res.status).toBe(200);
      expect(res.body.merge_status).toBe("cannot_be_merged");
    });

    it("checks again when either branch moves", async () => {
      const base = `moving-${branches}`;
      commitTo(fx.repo, base, {}, { from: "master", message: "Base\n" });
      const { name } = topic("app.txt", "one\nfrom topic\nthree\n");
      const mr = (await open({ source_branch: name, target_branch: base, title: "Moving" })).body;
      expect(mr.merge_status).toBe("can_be_merged");

      // A commit to the source branch through the files API (a push): new sha, checked again.
      const pushed = await ctx().api({
        method: "POST",
        path: `/projects/${id()}/repository/files`,
        token: people().developer.token,
        json: { branch_name: name, file_path: "more.txt", content: "more\n", commit_message: "More" },
      });
      expect(pushed.status).toBe(201);
      const head = headOf(fx.repo, name);
      await eventually(async () => (await get(mr.id)).body.sha === head);
      expect((await get(mr.id)).body.merge_status).toBe("can_be_merged");

      // A conflicting commit to the target branch: cannot be merged any more.
      const conflicting = await ctx().api({
        method: "PUT",
        path: `/projects/${id()}/repository/files`,
        token: people().developer.token,
        json: {
          branch_name: base,
          file_path: "app.txt",
          content: "one\nfrom base\nthree\n",
          commit_message: "Clash",
        },
      });
      expect(conflicting.status).toBe(200);
      await eventually(async () => (await get(mr.id)).body.merge_status === "cannot_be_merged");
    });
  });

  describe("update and delete", () => {
    it("edits, closes and reopens, with events in the feed", async () => {
      const mr = (await open({ source_branch: topic().name, target_branch: "master", title: "Editable" }))
        .body;
      const put = (json: Record<string, unknown>, user = people().developer) =>
        ctx().api<Reply>({ method: "PUT", path: `${MRS()}/${mr.id}`, token: user.token, json });

      const edited = await put({ title: "WIP: Edited", description: "New", labels: "bug", milestone_id: 0 });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({
        title: "WIP: Edited",
        description: "New",
        labels: ["bug"],
        work_in_progress: true,
      });
      expect((await put({ title: "x" }, people().reporter)).status).toBe(403);

      const marked = await ctx().api({
        method: "POST",
        path: `${MRS()}/${mr.id}/todo`,
        token: people().reporter.token,
      });
      expect(marked.status).toBe(200);
      const closed = await put({ state_event: "close" });
      expect(closed.body.state).toBe("closed");
      // Closed: the todos on it are done.
      const pending = await ctx().api<TodoJson[]>({ path: "/todos", token: people().reporter.token });
      expect(pending.body.map((todo) => todo.target.id)).not.toContain(mr.id);
      // Closing again, or "merge" on edit, changes nothing.
      expect((await put({ state_event: "close" })).body.state).toBe("closed");
      expect((await put({ state_event: "merge" })).body.state).toBe("closed");
      const reopened = await put({ state_event: "reopen" });
      expect(reopened.body).toMatchObject({ state: "reopened", merge_status: "can_be_merged" });

      const events = await ctx().api<{ action_name: string; target_id: number; target_type: string }[]>({
        path: `/projects/${id()}/events`,
        token: people().developer.token,
        query: { per_page: 100 },
      });
      const mine = events.body.filter(
        (event) => event.target_type === "MergeRequest" && event.target_id === mr.id,
      );
      expect(mine.map((event) => event.action_name)).toEqual(["opened", "closed", "opened"]);
    });

    it("lets only owners and administrators delete", async () => {
      const mr = (await open({ source_branch: topic().name, target_branch: "master", title: "Doomed" })).body;
      const remove = (user = people().owner) =>
        ctx().api<Reply>({ method: "DELETE", path: `${MRS()}/${mr.id}`, token: user.token });
      expect((await remove(people().master)).status).toBe(403);
      expect((await remove(people().developer)).status).toBe(403);
      const removed = await remove(people().owner);
      expect(removed.status).toBe(200);
      expect(removed.body.id).toBe(mr.id);
      expect((await get(mr.id)).status).toBe(404);
      expect((await remove(people().admin)).status).toBe(404);
    });
  });

  describe("subscriptions, todos, closed issues and the singular routes", () => {
    it("subscribes and unsubscribes (201/304, 200/304)", async () => {
      const mr = (await open({ source_branch: topic().name, target_branch: "master", title: "Subscribe" }))
        .body;
      const sub = (method: "POST" | "DELETE", user = people().reporter) =>
        ctx().api<Reply>({ method, path: `${MRS()}/${mr.id}/subscription`, token: user.token });
      const first = await sub("POST");
      expect(first.status).toBe(201);
      expect(first.body.subscribed).toBe(true);
      expect((await sub("POST")).status).toBe(304);
      const off = await sub("DELETE");
      expect(off.status).toBe(200);
      expect(off.body.subscribed).toBe(false);
      expect((await sub("DELETE")).status).toBe(304);
      // The author is subscribed without asking.
      expect((await sub("POST", people().developer)).status).toBe(304);
    });

    it("marks a todo (200, then 304)", async () => {
      const mr = (await open({ source_branch: topic().name, target_branch: "master", title: "Todo" })).body;
      const mark = () =>
        ctx().api<TodoJson>({
          method: "POST",
          path: `${MRS()}/${mr.id}/todo`,
          token: people().reporter.token,
        });
      const first = await mark();
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        action_name: "marked",
        target_type: "MergeRequest",
        target: { id: mr.id },
        state: "pending",
      });
      expect((await mark()).status).toBe(304);
    });

    it("lists the issues it closes", async () => {
      const issue = async (title: string) =>
        (
          await ctx().api<IssueJson>({
            method: "POST",
            path: `/projects/${id()}/issues`,
            token: people().owner.token,
            json: { title },
          })
        ).body;
      const one = await issue("First bug");
      const two = await issue("Second bug");
      const mr = (
        await open({
          source_branch: topic().name,
          target_branch: "master",
          title: `Fixes #${one.iid}`,
          description: `Also closes #${two.iid} and mentions #9999`,
        })
      ).body;
      const closes = await ctx().api<IssueJson[]>({
        path: `${MRS()}/${mr.id}/closes_issues`,
        token: people().reporter.token,
      });
      expect(closes.status).toBe(200);
      expect(closes.body.map((found) => found.id)).toEqual([one.id, two.id]);
    });

    it("answers every route under the deprecated singular path too", async () => {
      const { name } = topic();
      const mr = (await open({ source_branch: name, target_branch: "master", title: "Singular" })).body;
      const ONE = `/projects/${id()}/merge_request/${mr.id}`;
      const token = people().developer.token;
      expect((await ctx().api<Reply>({ path: ONE, token })).body.id).toBe(mr.id);
      expect((await ctx().api<CommitJson[]>({ path: `${ONE}/commits`, token })).body).toHaveLength(1);
      expect(
        (await ctx().api<MergeRequestChangesJson>({ path: `${ONE}/changes`, token })).body.changes,
      ).toHaveLength(1);
      expect((await ctx().api({ path: `${ONE}/closes_issues`, token })).body).toEqual([]);
      expect(
        (await ctx().api({ method: "POST", path: `${ONE}/subscription`, token: people().master.token }))
          .status,
      ).toBe(201);
      expect((await ctx().api({ method: "POST", path: `${ONE}/todo`, token })).status).toBe(200);
      expect(
        (await ctx().api({ method: "PUT", path: `${ONE}/cancel_merge_when_build_succeeds`, token })).status,
      ).toBe(406);
      const edited = await ctx().api<Reply>({
        method: "PUT",
        path: ONE,
        token,
        json: { title: "Singular edit" },
      });
      expect(edited.body.title).toBe("Singular edit");
      const merged = await ctx().api<Reply>({ method: "PUT", path: `${ONE}/merge`, token });
      expect(merged).toMatchObject({ status: 200, body: { state: "merged" } });
      expect(git(["log", "-1", "--format=%s", "master"], fx.repo).trim()).toBe(
        `Merge branch '${name}' into 'master'`,
      );
      expect((await ctx().api({ method: "DELETE", path: ONE, token: people().owner.token })).status).toBe(
        200,
      );
    });
  });
});
