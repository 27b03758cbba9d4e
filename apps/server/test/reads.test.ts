/**
 * What each caller reads of a project beyond its routes' statuses (issue 11, "reads that show too
 * much"): the events feed passes every event through the rule of reading what it is about,
 * `open_issues_count` does not count confidential issues for those who may not read them all, and
 * `import_url`, which may carry credentials, is kept sealed in the database.
 */
import { existsSync, readFileSync } from "node:fs";
import type { EventJson, IssueJson, MergeRequestJson, ProjectJson } from "@kiln/schemas";
import { importUrlOf } from "@kiln/services";
import { openDatabase } from "@kiln/storage-kysely";
import {
  call as callServer,
  type KilnProcess,
  seedRepository,
  signInAsRoot,
  type TestUser,
} from "@kiln/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import { openBackend } from "../src/app.js";
import { readConfig } from "../src/config.js";
import { createRoleCast, type Role, type RoleCast } from "./project-roles.js";
import { onEachDatabase, start } from "./support.js";

onEachDatabase("reads that show too much", (ctx) => {
  let cast: RoleCast;
  beforeAll(async () => {
    cast = await createRoleCast(ctx(), "rd");
  });
  const as = (role: Role): TestUser => cast.people[role];
  async function call<T>(role: Role, request: Parameters<ReturnType<typeof ctx>["api"]>[0], status: number) {
    const res = await ctx().api<T>({ ...request, token: as(role).token });
    expect(res.status, `${request.method ?? "GET"} ${request.path} as ${role}: ${res.text}`).toBe(status);
    return res;
  }
  const post = <T>(role: Role, path: string, json: Record<string, unknown>, status = 201) =>
    call<T>(role, { method: "POST", path, json }, status).then((res) => res.body);
  const put = <T>(role: Role, path: string, json: Record<string, unknown>) =>
    call<T>(role, { method: "PUT", path, json }, 200).then((res) => res.body);

  describe("the events feed", () => {
    /**
     * Fills a project's feed with an event of every kind, and answers a name for each thing an
     * event may be about (its `target_type:target_id`, or for a comment `note on <noteable>`).
     */
    async function fillFeed(project: ProjectJson) {
      seedRepository(ctx().server, project.id, [
        { message: "Initial\n", files: { "README.md": "# Feed\n" } },
        { branch: "topic", message: "Topic\n", files: { "topic.txt": "topic\n" } },
        { branch: "assigned", message: "Assigned\n", files: { "assigned.txt": "assigned\n" } },
      ]);
      const id = project.id;
      // A push: a file written through the API.
      await post("developer", `/projects/${id}/repository/files`, {
        file_path: "feed.txt",
        content: "feed\n",
        branch_name: "master",
        commit_message: "Feed",
      });
      const issue = (role: Role, json: Record<string, unknown>) =>
        post<IssueJson>(role, `/projects/${id}/issues`, json, 200);
      const plain = await issue("owner", { title: "Plain" });
      const secret = await issue("owner", { title: "Secret", confidential: true });
      const guestsSecret = await issue("guest", { title: "Guest's secret", confidential: true });
      const mr = (json: Record<string, unknown>) =>
        post<MergeRequestJson>("developer", `/projects/${id}/merge_requests`, json, 200);
      const others = await mr({ source_branch: "topic", target_branch: "master", title: "Topic" });
      const assigned = await mr({
        source_branch: "assigned",
        target_branch: "master",
        title: "For the guest",
        assignee_id: as("guest").id,
      });
      await put("developer", `/projects/${id}/merge_requests/${others.id}`, { state_event: "close" });
      await put("owner", `/projects/${id}/issues/${secret.id}`, { state_event: "close" });
      for (const on of [
        `issues/${plain.id}`,
        `issues/${secret.id}`,
        `merge_requests/${others.id}`,
        `merge_requests/${assigned.id}`,
      ]) {
        await post("master", `/projects/${id}/${on}/notes`, { body: "A note" });
      }
      await post("master", `/projects/${id}/milestones`, { title: "v1" });
      return { plain, secret, guestsSecret, others, assigned };
    }

    /** What the feed shows `role`, by what each event is about, and whether its pages are full and its total honest. */
    async function feedOf(project: ProjectJson, role: Role) {
      const about: string[] = [];
      let total: string | null = null;
      for (let page = 1; page < 50; page++) {
        const res = await call<EventJson[]>(
          role,
          { path: `/projects/${project.id}/events`, query: { per_page: 4, page } },
          200,
        );
        total = res.headers.get("x-total");
        for (const event of res.body) {
          if (event.note) about.push(`note on ${event.note.noteable_type}:${event.note.noteable_id}`);
          else if (event.target_type) about.push(`${event.target_type}:${event.target_id}`);
          else about.push(event.action_name);
        }
        if (res.body.length < 4) break;
      }
      expect(total, `X-Total of ${role}`).toBe(String(about.length));
      return about;
    }

    it("shows a guest of a private project neither pushes, nor others' confidential issues, nor merge requests but theirs", async () => {
      const project = cast.private;
      const made = await fillFeed(project);
      const full = await feedOf(project, "owner");
      for (const role of ["master", "developer", "reporter", "admin"] as const) {
        expect(await feedOf(project, role)).toEqual(full);
      }
      const hidden = [
        "pushed to",
        `Issue:${made.secret.id}`,
        `note on Issue:${made.secret.id}`,
        `MergeRequest:${made.others.id}`,
        `note on MergeRequest:${made.others.id}`,
      ];
      expect(full).toEqual(expect.arrayContaining(hidden));
      expect(full).toEqual(
        expect.arrayContaining([`Issue:${made.guestsSecret.id}`, `MergeRequest:${made.assigned.id}`]),
      );
      expect(await feedOf(project, "guest")).toEqual(full.filter((about) => !hidden.includes(about)));
      await call("outsider", { path: `/projects/${project.id}/events` }, 404);
    });

    it("shows everyone who reads a public project all but the confidential issues they may not read", async () => {
      const project = cast.public;
      const made = await fillFeed(project);
      const full = await feedOf(project, "reporter");
      const secret = [`Issue:${made.secret.id}`, `note on Issue:${made.secret.id}`];
      expect(full).toEqual(
        expect.arrayContaining([...secret, `MergeRequest:${made.others.id}`, "pushed to"]),
      );
      expect(await feedOf(project, "guest")).toEqual(full.filter((about) => !secret.includes(about)));
      const guestsSecret = `Issue:${made.guestsSecret.id}`;
      expect(await feedOf(project, "outsider")).toEqual(
        full.filter((about) => !secret.includes(about) && about !== guestsSecret),
      );
    });
  });
  describe("open_issues_count", () => {
    let counted: RoleCast;
    let target: ProjectJson;
    beforeAll(async () => {
      counted = await createRoleCast(ctx(), "oc");
      const made = await ctx().api<ProjectJson>({
        method: "POST",
        path: "/projects",
        token: counted.people.owner.token,
        json: { name: "oc-target", visibility_level: 20 },
      });
      expect(made.status).toBe(201);
      target = made.body;
    });
    const issues = (project: ProjectJson) => `/projects/${project.id}/issues`;
    const by = (role: Role) => counted.people[role];

    /** `open_issues_count` of the project as each role reads it: alone, and in a list of projects. */
    async function countsOf(
      project: ProjectJson,
      roles: readonly Role[] = ["admin", "reporter", "guest", "outsider"],
    ) {
      const counts: Partial<Record<Role, number>> = {};
      for (const role of roles) {
        const token = by(role).token;
        const one = await ctx().api<ProjectJson>({ path: `/projects/${project.id}`, token });
        expect(one.status, `${role}: ${one.text}`).toBe(200);
        // The lists give the same count: GET /projects to members, /projects/all to administrators.
        const list =
          role === "admin" ? "/projects/all" : role === "outsider" ? "/projects/visible" : "/projects";
        const listed = await ctx().api<ProjectJson[]>({ path: list, token, query: { per_page: 100 } });
        expect(listed.body.find((item) => item.id === project.id)?.open_issues_count).toBe(
          one.body.open_issues_count,
        );
        counts[role] = one.body.open_issues_count as number;
      }
      return counts;
    }
    const expected = (all: number, open: number) => ({
      admin: all,
      reporter: all,
      guest: open,
      outsider: open,
    });
    const create = (role: Role, project: ProjectJson, json: Record<string, unknown>) =>
      ctx()
        .api<IssueJson>({ method: "POST", path: issues(project), token: by(role).token, json })
        .then((res) => {
          expect(res.status).toBe(200);
          return res.body;
        });
    const edit = async (issue: IssueJson, json: Record<string, unknown>) => {
      const res = await ctx().api({
        method: "PUT",
        path: `/projects/${issue.project_id}/issues/${issue.id}`,
        token: by("owner").token,
        json,
      });
      expect(res.status, res.text).toBe(200);
    };

    it("counts confidential issues only for those who may read them all, after every kind of change", async () => {
      const project = counted.public;
      expect(await countsOf(project)).toEqual(expected(0, 0));
      const plain = await create("owner", project, { title: "Plain" });
      expect(await countsOf(project)).toEqual(expected(1, 1));
      const secret = await create("owner", project, { title: "Secret", confidential: true });
      expect(await countsOf(project)).toEqual(expected(2, 1));
      // Its author reads it, but the count stays the one that does not give the others away.
      const guests = await create("guest", project, { title: "Guest's secret", confidential: true });
      expect(await countsOf(project)).toEqual(expected(3, 1));

      await edit(secret, { state_event: "close" });
      expect(await countsOf(project)).toEqual(expected(2, 1));
      await edit(secret, { state_event: "reopen" });
      expect(await countsOf(project)).toEqual(expected(3, 1));
      await edit(plain, { confidential: true });
      expect(await countsOf(project)).toEqual(expected(3, 0));
      await edit(plain, { confidential: false });
      expect(await countsOf(project)).toEqual(expected(3, 1));
      await edit(plain, { state_event: "close" });
      expect(await countsOf(project)).toEqual(expected(2, 0));
      await edit(plain, { state_event: "reopen" });
      expect(await countsOf(project)).toEqual(expected(3, 1));

      for (const moved of [plain, secret]) {
        const res = await ctx().api({
          method: "POST",
          path: `${issues(project)}/${moved.id}/move`,
          token: by("owner").token,
          json: { to_project_id: target.id },
        });
        expect(res.status, res.text).toBe(201);
      }
      expect(await countsOf(project)).toEqual(expected(1, 0));
      expect(await countsOf(target, ["admin", "outsider"])).toEqual({ admin: 2, outsider: 1 });

      const deleted = await ctx().api({
        method: "DELETE",
        path: `${issues(project)}/${guests.id}`,
        token: by("owner").token,
      });
      expect(deleted.status).toBe(200);
      expect(await countsOf(project)).toEqual(expected(0, 0));
    });

    it("gives guests of a private project the count without confidential issues", async () => {
      const project = counted.private;
      await create("owner", project, { title: "Plain" });
      await create("reporter", project, { title: "Secret", confidential: true });
      expect(await countsOf(project, ["admin", "owner", "reporter", "guest"])).toEqual({
        admin: 2,
        owner: 2,
        reporter: 2,
        guest: 1,
      });
      expect((await ctx().api({ path: `/projects/${project.id}`, token: by("outsider").token })).status).toBe(
        404,
      );
    });
  });
  describe("import_url", () => {
    const PASSWORD = "s3cret-in-url";
    const IMPORT_URL = `https://importer:${PASSWORD}@example.com/source.git`;
    const config = (server: KilnProcess) => readConfig(server.kilnEnv);

    /** Every column of the project's row, as text, read straight from the server's database. */
    async function storedRow(server: KilnProcess, id: number): Promise<string> {
      const opened = await openDatabase(config(server).database);
      try {
        return JSON.stringify(
          await opened.db.selectFrom("projects").selectAll().where("id", "=", id).execute(),
        );
      } finally {
        await opened.close();
      }
    }

    /** On SQLite, true when the database files hold `text` anywhere, free pages and the WAL included. */
    function inSqliteFiles(server: KilnProcess, text: string): boolean {
      const location = config(server).database;
      if (location.kind !== "sqlite") return false;
      const files = [location.filename, `${location.filename}-wal`].filter((file) => existsSync(file));
      return files.some((file) => readFileSync(file).includes(text));
    }

    /** The project's import URL as the services read it, with the server's key. */
    async function readBack(server: KilnProcess, id: number): Promise<string | null> {
      const { database, runtime } = await openBackend(config(server));
      try {
        return await importUrlOf(runtime, id);
      } finally {
        await database.close();
      }
    }

    it("is stored sealed on creation and edits, never answered, and read back with the server key", async () => {
      const server = ctx().server;
      const created = await post<ProjectJson>("owner", "/projects", {
        name: "rd-imported",
        import_url: IMPORT_URL,
      });
      expect(JSON.stringify(created)).not.toContain("import_url");
      await put("owner", `/projects/${created.id}`, { description: "edited", name: "rd-imported-2" });
      const read = await call<ProjectJson>("owner", { path: `/projects/${created.id}` }, 200);
      expect(read.text).not.toContain(PASSWORD);
      expect(read.text).not.toContain("import_url");
      expect(await storedRow(server, created.id)).not.toContain(PASSWORD);
      expect(inSqliteFiles(server, PASSWORD)).toBe(false);
      expect(await readBack(server, created.id)).toBe(IMPORT_URL);
    });

    it("left in the clear by an older version is sealed when the server starts", async () => {
      const postgres = ctx().server.kilnEnv["DATABASE_URL"] !== undefined;
      const first = await start(postgres ? { database: "postgres" } : {});
      let second: KilnProcess | undefined;
      try {
        const root = await signInAsRoot(first);
        const made = await callServer<ProjectJson>(first.url, {
          method: "POST",
          path: "/projects",
          token: root.token,
          json: { name: "old-import" },
        });
        expect(made.status).toBe(201);
        const project = made.body;
        await first.stop({ remove: false });
        const opened = await openDatabase(config(first).database);
        await opened.db
          .updateTable("projects")
          .set({ import_url: IMPORT_URL })
          .where("id", "=", project.id)
          .execute();
        await opened.close();

        second = await start({ dataDir: first.dataDir, env: first.kilnEnv });
        const row = await storedRow(second, project.id);
        expect(row).not.toContain(PASSWORD);
        expect(row).toContain('"import_url":null');
        expect(await readBack(second, project.id)).toBe(IMPORT_URL);
      } finally {
        await second?.stop({ remove: false });
        await first.stop();
      }
    });
  });
});
