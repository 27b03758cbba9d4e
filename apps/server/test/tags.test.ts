import { type ProjectJson, TagJson } from "@kiln/schemas";
import { git, repositoryPath, seedRepository } from "@kiln/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import { createRoleCast, type Role, type RoleCast } from "./project-roles.js";
import { onEachDatabase } from "./support.js";

type Body = TagJson & { message?: unknown; tag_name?: string };
type EventBody = {
  action_name: string;
  author_id: number;
  data: { ref: string; before: string; after: string };
};

const ZERO = "0000000000000000000000000000000000000000";

onEachDatabase("tags API", (ctx) => {
  let cast: RoleCast;
  const shas = new Map<number, string[]>();
  const api = <T = Body>(request: Parameters<ReturnType<typeof ctx>["api"]>[0]) => ctx().api<T>(request);
  const token = (role: Role) => cast.people[role].token;
  const path = (project: ProjectJson, rest = "") => `/projects/${project.id}/repository/tags${rest}`;
  const create = (project: ProjectJson, json: Record<string, unknown>, role: Role = "owner") =>
    api({ method: "POST", path: path(project), token: token(role), json });
  const inRepo = (project: ProjectJson, args: string[]) =>
    git(args, repositoryPath(ctx().server, project.id)).trim();

  beforeAll(async () => {
    cast = await createRoleCast(ctx(), "tg");
    for (const project of [cast.private, cast.public]) {
      const ids = seedRepository(ctx().server, project.id, [
        { message: "first", files: { "a.txt": "a\n" } },
        { message: "second", files: { "b.txt": "b\n" } },
      ]);
      shas.set(project.id, ids);
      const edited = await api({
        method: "PUT",
        path: `/projects/${project.id}`,
        token: token("owner"),
        json: { default_branch: "master" },
      });
      expect(edited.status).toBe(200);
    }
  });
  const first = (project: ProjectJson) => shas.get(project.id)?.[0] as string;
  const second = (project: ProjectJson) => shas.get(project.id)?.[1] as string;

  it("creates a lightweight tag (201): no message, the commit, no release", async () => {
    const p = cast.private;
    const res = await create(p, { tag_name: "v1.0", ref: "master" }, "developer");
    expect(res.status).toBe(201);
    expect(TagJson.strict().parse(res.body)).toEqual({
      name: "v1.0",
      message: null,
      release: null,
      commit: {
        id: second(p),
        message: "second\n",
        parent_ids: [first(p)],
        authored_date: expect.any(String),
        author_name: "Seed Author",
        author_email: "seed@example.com",
        committed_date: expect.any(String),
        committer_name: "Seed Author",
        committer_email: "seed@example.com",
      },
    });
    expect(inRepo(p, ["cat-file", "-t", "refs/tags/v1.0"])).toBe("commit");
  });

  it("creates an annotated tag with the trimmed message, tagged by the caller", async () => {
    const p = cast.private;
    const res = await create(
      p,
      { tag_name: "v1.1", ref: first(p), message: "  Release 1.1\n\nNotes.  \n" },
      "developer",
    );
    expect(res).toMatchObject({
      status: 201,
      body: { name: "v1.1", message: "Release 1.1\n\nNotes.", commit: { id: first(p) } },
    });
    expect(inRepo(p, ["cat-file", "-t", "refs/tags/v1.1"])).toBe("tag");
    expect(inRepo(p, ["cat-file", "-p", "refs/tags/v1.1"])).toContain(
      "tagger tg-developer <tg-developer@example.com>",
    );
    const got = await api({ path: path(p, "/v1.1"), token: token("reporter") });
    expect(got).toMatchObject({ status: 200, body: res.body });
  });

  it("tags what a tag or a branch names; slashes work URL-encoded", async () => {
    const p = cast.private;
    expect(await create(p, { tag_name: "release/1.1", ref: "v1.1" })).toMatchObject({
      status: 201,
      body: { name: "release/1.1", message: null, commit: { id: first(p) } },
    });
    const got = await api({ path: path(p, "/release%2F1.1"), token: token("reporter") });
    expect(got).toMatchObject({ status: 200, body: { name: "release/1.1" } });
  });

  it("gets and removes a tag whose slashes are sent raw, as GitLab 8.x's `tag_name: /.+/` took them", async () => {
    const p = cast.private;
    expect((await create(p, { tag_name: "raw/v2/rc", ref: "master" })).status).toBe(201);
    expect(await api({ path: path(p, "/raw/v2/rc"), token: token("reporter") })).toMatchObject({
      status: 200,
      body: { name: "raw/v2/rc", commit: { id: second(p) } },
    });
    expect(
      await api({ method: "DELETE", path: path(p, "/raw/v2/rc"), token: token("master") }),
    ).toMatchObject({
      status: 200,
      body: { tag_name: "raw/v2/rc" },
    });
    expect(await api({ path: path(p, "/raw/v2/rc"), token: token("reporter") })).toMatchObject({
      status: 404,
      body: { message: "404 Tag Not Found" },
    });
  });

  it("answers 400 with GitLab's message for a bad name, a taken name and a bad target", async () => {
    const p = cast.private;
    const cases: [Record<string, unknown>, string][] = [
      [{ tag_name: "bad..tag", ref: "master" }, "Tag name invalid"],
      [{ tag_name: "has space", ref: "master" }, "Tag name invalid"],
      [{ tag_name: "refs/heads/v1", ref: "master" }, "Tag name invalid"],
      [{ tag_name: "v1.0", ref: "master" }, "Tag v1.0 already exists"],
      [{ tag_name: "v9", ref: "nope" }, "Target nope is invalid"],
      [{ tag_name: "v9", ref: "master:a.txt" }, "Target master:a.txt is invalid"],
    ];
    for (const [json, message] of cases) {
      expect(await create(p, json, "developer"), JSON.stringify(json)).toMatchObject({
        status: 400,
        body: { message },
      });
    }
    expect(await create(p, { ref: "master" })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "tag_name" not given' },
    });
    expect((await api({ path: path(p, "/v9"), token: token("owner") })).status).toBe(404);
  });

  it("lists tags sorted by name descending", async () => {
    const p = cast.public;
    for (const name of ["alpha", "v1.10", "v2.0", "v1.0"]) {
      expect((await create(p, { tag_name: name, ref: "master" })).status).toBe(201);
    }
    const res = await api<Body[]>({ path: path(p), token: token("guest") });
    expect(res.status).toBe(200);
    expect(res.body.map((tag) => tag.name)).toEqual(["v2.0", "v1.10", "v1.0", "alpha"]);
    for (const tag of res.body) TagJson.strict().parse(tag);
  });

  it("answers 404 Tag Not Found for a missing tag", async () => {
    for (const name of ["missing", "bad..name"]) {
      const res = await api({
        path: path(cast.private, `/${encodeURIComponent(name)}`),
        token: token("owner"),
      });
      expect(res).toMatchObject({ status: 404, body: { message: "404 Tag Not Found" } });
    }
  });

  it("records a push event for a created and a removed tag", async () => {
    const p = cast.public;
    const created = await create(p, { tag_name: "evented", ref: "master", message: "note" }, "developer");
    expect(created.status).toBe(201);
    const tagObject = inRepo(p, ["rev-parse", "refs/tags/evented"]);
    expect((await api({ method: "DELETE", path: path(p, "/evented"), token: token("master") })).status).toBe(
      200,
    );
    const events = await api<EventBody[]>({ path: `/projects/${p.id}/events`, token: token("owner") });
    const mine = events.body.filter((event) => event.data?.ref === "refs/tags/evented");
    expect(mine).toMatchObject([
      { action_name: "deleted", author_id: cast.people.master.id, data: { before: tagObject, after: ZERO } },
      {
        action_name: "pushed new",
        author_id: cast.people.developer.id,
        data: { before: ZERO, after: tagObject },
      },
    ]);
  });

  describe("removing", () => {
    it("removes a tag (200 and its name) for masters, then 404 No such tag", async () => {
      const p = cast.private;
      expect((await create(p, { tag_name: "gone/1", ref: "master" })).status).toBe(201);
      const url = path(p, "/gone%2F1");
      expect(await api({ method: "DELETE", path: url, token: token("master") })).toMatchObject({
        status: 200,
        body: { tag_name: "gone/1" },
      });
      expect((await api({ path: url, token: token("owner") })).status).toBe(404);
      expect(await api({ method: "DELETE", path: url, token: token("master") })).toMatchObject({
        status: 404,
        body: { message: "No such tag" },
      });
    });

    it("refuses developers (400, as git push would), reporters and guests (403), outsiders (404)", async () => {
      const p = cast.private;
      expect((await create(p, { tag_name: "kept", ref: "master" })).status).toBe(201);
      const remove = (role: Role) => api({ method: "DELETE", path: path(p, "/kept"), token: token(role) });
      expect(await remove("developer")).toMatchObject({
        status: 400,
        body: { message: "You are not allowed to change existing tags on this project." },
      });
      for (const [role, status] of [
        ["reporter", 403],
        ["guest", 403],
        ["outsider", 404],
      ] as const) {
        expect((await remove(role)).status, role).toBe(status);
      }
      expect((await api({ path: path(p, "/kept"), token: token("reporter") })).status).toBe(200);
      expect((await remove("admin")).status).toBe(200);
    });
  });

  it("applies the permission table: reporters read, developers create, guests of private 403, outsiders 404", async () => {
    const read: Record<Role, number> = {
      owner: 200,
      master: 200,
      developer: 200,
      reporter: 200,
      guest: 403,
      outsider: 404,
      admin: 200,
    };
    const write: Record<Role, number> = { ...read, reporter: 403 };
    for (const role of Object.keys(read) as Role[]) {
      expect((await api({ path: path(cast.private), token: token(role) })).status, role).toBe(read[role]);
      expect((await api({ path: path(cast.private, "/v1.0"), token: token(role) })).status, role).toBe(
        read[role],
      );
      const created = await create(cast.private, { tag_name: `by-${role}`, ref: "master" }, role);
      expect(created.status, role).toBe(write[role] === 200 ? 201 : write[role]);
    }
    expect((await api({ path: path(cast.public), token: token("outsider") })).status).toBe(200);
    expect((await create(cast.public, { tag_name: "by-outsider", ref: "master" }, "outsider")).status).toBe(
      403,
    );
  });
});
