import { BranchJson, type ProjectJson } from "@kiln/schemas";
import { git, repositoryPath, seedRepository } from "@kiln/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import { createRoleCast, type Role, type RoleCast } from "./project-roles.js";
import { onEachDatabase } from "./support.js";

type Body = BranchJson & { message?: unknown; branch_name?: string };
type EventBody = {
  action_name: string;
  author_id: number;
  data: { ref: string; before: string; after: string };
};

const SEED = [
  { message: "first", files: { "README.md": "# hello\n" } },
  { message: "second", files: { "a.txt": "a\n" } },
  { message: "on a feature", files: { "b.txt": "b\n" }, branch: "feature/x" },
  { message: "release fix", files: { "c.txt": "c\n" }, branch: "release-1.0" },
];

onEachDatabase("branches API", (ctx) => {
  let cast: RoleCast;
  /** Commit shas of each seeded project, by message. */
  const shas = new Map<number, Record<string, string>>();
  const api = <T = Body>(request: Parameters<ReturnType<typeof ctx>["api"]>[0]) => ctx().api<T>(request);
  const token = (role: Role) => cast.people[role].token;
  const path = (project: ProjectJson, rest = "") => `/projects/${project.id}/repository/branches${rest}`;
  const create = (project: ProjectJson, json: Record<string, unknown>, role: Role = "owner") =>
    api({ method: "POST", path: path(project), token: token(role), json });
  const head = (project: ProjectJson) =>
    git(["symbolic-ref", "HEAD"], repositoryPath(ctx().server, project.id)).trim();

  /** Seeds a project's repository and makes master its default branch. */
  async function seeded(project: ProjectJson): Promise<Record<string, string>> {
    const ids = seedRepository(ctx().server, project.id, SEED);
    const byMessage = Object.fromEntries(SEED.map((commit, i) => [commit.message, ids[i] as string]));
    const edited = await api<ProjectJson>({
      method: "PUT",
      path: `/projects/${project.id}`,
      token: token("owner"),
      json: { default_branch: "master" },
    });
    expect(edited.body.default_branch).toBe("master");
    shas.set(project.id, byMessage);
    return byMessage;
  }

  beforeAll(async () => {
    cast = await createRoleCast(ctx(), "br");
    await seeded(cast.private);
    await seeded(cast.public);
  });
  const sha = (project: ProjectJson, message: string) => shas.get(project.id)?.[message] as string;

  describe("reading", () => {
    it("lists branches sorted by name with their head commits, unprotected by default", async () => {
      const res = await api<Body[]>({ path: path(cast.private), token: token("reporter") });
      expect(res.status).toBe(200);
      const names = res.body.map((branch) => branch.name);
      expect(names).toEqual([...names].sort());
      expect(names).toEqual(expect.arrayContaining(["feature/x", "master", "release-1.0"]));
      const master = BranchJson.strict().parse(res.body.find((branch) => branch.name === "master"));
      expect(master).toEqual({
        name: "master",
        protected: false,
        developers_can_push: false,
        developers_can_merge: false,
        commit: {
          id: sha(cast.private, "second"),
          message: "second\n",
          parent_ids: [sha(cast.private, "first")],
          authored_date: expect.stringMatching(/^2026-01-01T00:02:00/),
          author_name: "Seed Author",
          author_email: "seed@example.com",
          committed_date: expect.stringMatching(/^2026-01-01T00:02:00/),
          committer_name: "Seed Author",
          committer_email: "seed@example.com",
        },
      });
    });

    it("gets one branch, URL-encoded slashes and dots included; 404 for a missing or impossible name", async () => {
      const feature = await api({ path: path(cast.private, "/feature%2Fx"), token: token("reporter") });
      expect(feature.status).toBe(200);
      expect(feature.body).toMatchObject({
        name: "feature/x",
        commit: { id: sha(cast.private, "on a feature") },
      });
      const dotted = await api({ path: path(cast.private, "/release-1.0"), token: token("reporter") });
      expect(dotted).toMatchObject({ status: 200, body: { name: "release-1.0" } });
      for (const name of ["nope", "bad..name", "feature"]) {
        const missing = await api({
          path: path(cast.private, `/${encodeURIComponent(name)}`),
          token: token("owner"),
        });
        expect(missing).toMatchObject({ status: 404, body: { message: "404 Branch Not Found" } });
      }
    });

    it("lets reporters and above read a private project's branches; guests get 403, outsiders 404", async () => {
      const expected: Record<Role, number> = {
        owner: 200,
        master: 200,
        developer: 200,
        reporter: 200,
        guest: 403,
        outsider: 404,
        admin: 200,
      };
      for (const [role, status] of Object.entries(expected)) {
        expect((await api({ path: path(cast.private), token: token(role as Role) })).status, role).toBe(
          status,
        );
        const one = await api({ path: path(cast.private, "/master"), token: token(role as Role) });
        expect(one.status, role).toBe(status);
      }
      for (const role of ["guest", "outsider"] as const) {
        expect((await api({ path: path(cast.public, "/master"), token: token(role) })).status, role).toBe(
          200,
        );
      }
      expect((await api({ path: path(cast.private) })).status).toBe(401);
    });
  });

  describe("creating", () => {
    it("creates a branch from a branch, a tag or a sha (200 and the Branch), slashes included", async () => {
      const p = cast.private;
      git(["tag", "seed-tag", sha(p, "first")], repositoryPath(ctx().server, p.id));
      const cases = [
        { branch_name: "from-branch", ref: "feature/x", at: "on a feature" },
        { branch_name: "from-tag", ref: "seed-tag", at: "first" },
        { branch_name: "from/sha.1", ref: sha(p, "second"), at: "second" },
      ];
      for (const { branch_name, ref, at } of cases) {
        const res = await create(p, { branch_name, ref }, "developer");
        expect(res.status, branch_name).toBe(200);
        expect(BranchJson.strict().parse(res.body)).toMatchObject({
          name: branch_name,
          protected: false,
          commit: { id: sha(p, at) },
        });
        const got = await api({
          path: path(p, `/${encodeURIComponent(branch_name)}`),
          token: token("reporter"),
        });
        expect(got.body).toEqual(res.body);
      }
      const heads = git(
        ["for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/from"],
        repositoryPath(ctx().server, p.id),
      );
      expect(heads).toBe(`refs/heads/from/sha.1 ${sha(p, "second")}\n`);
    });

    it("answers 400 with GitLab's message for a bad name, a taken name and a bad ref", async () => {
      const p = cast.private;
      const cases: [Record<string, unknown>, string][] = [
        [{ branch_name: "bad..name", ref: "master" }, "Branch name is invalid"],
        [{ branch_name: "has space", ref: "master" }, "Branch name is invalid"],
        [{ branch_name: "-dash", ref: "master" }, "Branch name is invalid"],
        [{ branch_name: "refs/heads/x", ref: "master" }, "Branch name is invalid"],
        [{ branch_name: "master", ref: "feature/x" }, "Branch already exists"],
        [{ branch_name: "feature", ref: "master" }, "Branch already exists"],
        [{ branch_name: "fresh", ref: "no-such-ref" }, "Invalid reference name"],
        [{ branch_name: "fresh", ref: "0123456789abcdef0123456789abcdef01234567" }, "Invalid reference name"],
        [{ branch_name: "fresh", ref: "master:README.md" }, "Invalid reference name"],
        [{ branch_name: "bad..name", ref: "no-such-ref" }, "Branch name is invalid"],
      ];
      for (const [json, message] of cases) {
        expect(await create(p, json, "developer"), JSON.stringify(json)).toMatchObject({
          status: 400,
          body: { message },
        });
      }
      expect(await create(p, { ref: "master" })).toMatchObject({
        status: 400,
        body: { message: '400 (Bad request) "branch_name" not given' },
      });
      expect(await create(p, { branch_name: "x" })).toMatchObject({
        status: 400,
        body: { message: '400 (Bad request) "ref" not given' },
      });
      const list = await api<Body[]>({ path: path(p), token: token("owner") });
      expect(list.body.map((branch) => branch.name)).not.toContain("fresh");
    });

    it("lets developers and above create; reporters and guests get 403, outsiders 404 on private", async () => {
      const expected: Record<Role, number> = {
        owner: 200,
        master: 200,
        developer: 200,
        reporter: 403,
        guest: 403,
        outsider: 404,
        admin: 200,
      };
      for (const [role, status] of Object.entries(expected)) {
        const res = await create(cast.private, { branch_name: `by-${role}`, ref: "master" }, role as Role);
        expect(res.status, role).toBe(status);
      }
      const outsider = await create(cast.public, { branch_name: "by-outsider", ref: "master" }, "outsider");
      expect(outsider.status).toBe(403);
    });

    it("records a push event for the new branch, with the caller as author", async () => {
      const p = cast.public;
      expect((await create(p, { branch_name: "evented", ref: "master" }, "developer")).status).toBe(200);
      const events = await api<EventBody[]>({ path: `/projects/${p.id}/events`, token: token("owner") });
      const pushed = events.body.find((event) => event.data?.ref === "refs/heads/evented");
      expect(pushed).toMatchObject({
        action_name: "pushed new",
        author_id: cast.people.developer.id,
        data: { before: "0000000000000000000000000000000000000000", after: sha(p, "second") },
      });
    });

    it("refuses a developer a protected name even when the branch is gone, as git push would", async () => {
      const p = cast.private;
      expect((await create(p, { branch_name: "guarded", ref: "master" }, "master")).status).toBe(200);
      const protectedRes = await api({
        method: "PUT",
        path: path(p, "/guarded/protect"),
        token: token("master"),
      });
      expect(protectedRes.status).toBe(200);
      git(["update-ref", "-d", "refs/heads/guarded"], repositoryPath(ctx().server, p.id));
      expect(await create(p, { branch_name: "guarded", ref: "master" }, "developer")).toMatchObject({
        status: 400,
        body: { message: "You are not allowed to push code to protected branches on this project." },
      });
      expect(await create(p, { branch_name: "guarded", ref: "master" }, "master")).toMatchObject({
        status: 200,
        body: { name: "guarded", protected: true, developers_can_push: false },
      });
    });
  });

  describe("removing", () => {
    it("removes a branch (200 and its name), then 404 No such branch; URL-encoded slashes work", async () => {
      const p = cast.private;
      expect((await create(p, { branch_name: "doomed/one", ref: "master" })).status).toBe(200);
      const url = path(p, "/doomed%2Fone");
      const removed = await api({ method: "DELETE", path: url, token: token("developer") });
      expect(removed).toMatchObject({ status: 200, body: { branch_name: "doomed/one" } });
      expect((await api({ path: url, token: token("owner") })).status).toBe(404);
      expect(await api({ method: "DELETE", path: url, token: token("developer") })).toMatchObject({
        status: 404,
        body: { message: "No such branch" },
      });
      const events = await api<EventBody[]>({ path: `/projects/${p.id}/events`, token: token("owner") });
      expect(events.body.find((event) => event.data?.ref === "refs/heads/doomed/one")).toMatchObject({
        action_name: "deleted",
        data: { after: "0000000000000000000000000000000000000000" },
      });
    });

    it("refuses (400) to remove the default branch or a protected one, masters included", async () => {
      const p = cast.private;
      expect(await api({ method: "DELETE", path: path(p, "/master"), token: token("owner") })).toMatchObject({
        status: 400,
        body: { message: "Cannot remove HEAD branch" },
      });
      expect((await create(p, { branch_name: "kept", ref: "master" })).status).toBe(200);
      await api({ method: "PUT", path: path(p, "/kept/protect"), token: token("master") });
      expect(await api({ method: "DELETE", path: path(p, "/kept"), token: token("master") })).toMatchObject({
        status: 400,
        body: { message: "Protected branch cant be removed" },
      });
      await api({ method: "PUT", path: path(p, "/kept/unprotect"), token: token("master") });
      expect((await api({ method: "DELETE", path: path(p, "/kept"), token: token("master") })).status).toBe(
        200,
      );
    });

    it("needs push_code: reporters and guests 403, outsiders 404 on private", async () => {
      const p = cast.private;
      expect((await create(p, { branch_name: "stays", ref: "master" })).status).toBe(200);
      for (const [role, status] of [
        ["reporter", 403],
        ["guest", 403],
        ["outsider", 404],
      ] as const) {
        expect(
          (await api({ method: "DELETE", path: path(p, "/stays"), token: token(role) })).status,
          role,
        ).toBe(status);
      }
      expect((await api({ path: path(p, "/stays"), token: token("owner") })).status).toBe(200);
    });
  });

  describe("protecting", () => {
    it("protects and unprotects idempotently, with GitLab's flag semantics", async () => {
      const p = cast.public;
      expect((await create(p, { branch_name: "stable/1.x", ref: "master" })).status).toBe(200);
      const url = (action: string) => path(p, `/stable%2F1.x/${action}`);
      const put = (action: string, json?: Record<string, unknown>) =>
        api({ method: "PUT", path: url(action), token: token("master"), ...(json ? { json } : {}) });
      const flags = (res: { body: Body }) => [
        res.body.protected,
        res.body.developers_can_push,
        res.body.developers_can_merge,
      ];

      const plain = await put("protect");
      expect(plain.status).toBe(200);
      expect(BranchJson.strict().parse(plain.body).name).toBe("stable/1.x");
      expect(flags(plain)).toEqual([true, false, false]);
      expect(flags(await put("protect", { developers_can_push: true, developers_can_merge: true }))).toEqual([
        true,
        true,
        true,
      ]);
      expect(flags(await put("protect", { developers_can_merge: true }))).toEqual([true, false, true]);
      // A flag left out means masters only again.
      expect(flags(await put("protect"))).toEqual([true, false, false]);
      const listed = await api<Body[]>({ path: path(p), token: token("reporter") });
      expect(listed.body.find((branch) => branch.name === "stable/1.x")?.protected).toBe(true);

      expect(flags(await put("unprotect"))).toEqual([false, false, false]);
      const again = await put("unprotect");
      expect(again.status).toBe(200);
      expect(flags(again)).toEqual([false, false, false]);
      expect((await api({ path: path(p, "/stable%2F1.x"), token: token("reporter") })).body.protected).toBe(
        false,
      );
    });

    it("answers 404 Branch Not Found for a missing branch", async () => {
      for (const action of ["protect", "unprotect"]) {
        const res = await api({
          method: "PUT",
          path: path(cast.private, `/nope/${action}`),
          token: token("master"),
        });
        expect(res).toMatchObject({ status: 404, body: { message: "404 Branch Not Found" } });
      }
    });

    it("lets masters and above protect; developers and below 403, outsiders 404 on private", async () => {
      const expected: Record<Role, number> = {
        owner: 200,
        master: 200,
        developer: 403,
        reporter: 403,
        guest: 403,
        outsider: 404,
        admin: 200,
      };
      for (const [role, status] of Object.entries(expected)) {
        for (const action of ["protect", "unprotect"]) {
          const res = await api({
            method: "PUT",
            path: path(cast.private, `/release-1.0/${action}`),
            token: token(role as Role),
          });
          expect(res.status, `${role} ${action}`).toBe(status);
        }
      }
    });
  });

  // GitLab 8.x declared `requirements: { branch: /.+/ }` on these routes, so clients of the era
  // send a name's slashes as they are; the encoded form keeps working.
  describe("names with slashes sent raw in the path", () => {
    it("gets, protects, unprotects and removes `a/b/c` through `/branches/a/b/c[/...]`", async () => {
      const p = cast.private;
      expect((await create(p, { branch_name: "raw/deep/name", ref: "feature/x" })).status).toBe(200);
      const got = await api({ path: path(p, "/raw/deep/name"), token: token("reporter") });
      expect(got).toMatchObject({
        status: 200,
        body: { name: "raw/deep/name", protected: false, commit: { id: sha(p, "on a feature") } },
      });
      const put = (action: string, json?: Record<string, unknown>) =>
        api({ method: "PUT", path: path(p, `/raw/deep/name/${action}`), token: token("master"), json });
      expect(await put("protect", { developers_can_push: true })).toMatchObject({
        status: 200,
        body: { name: "raw/deep/name", protected: true, developers_can_push: true },
      });
      expect(
        (await api({ path: path(p, "/raw%2Fdeep%2Fname"), token: token("reporter") })).body,
      ).toMatchObject({ protected: true, developers_can_push: true });
      expect(await put("unprotect")).toMatchObject({
        status: 200,
        body: { name: "raw/deep/name", protected: false },
      });
      const removed = await api({
        method: "DELETE",
        path: path(p, "/raw/deep/name"),
        token: token("developer"),
      });
      expect(removed).toMatchObject({ status: 200, body: { branch_name: "raw/deep/name" } });
      expect(await api({ path: path(p, "/raw/deep/name"), token: token("owner") })).toMatchObject({
        status: 404,
        body: { message: "404 Branch Not Found" },
      });
      expect(
        await api({ method: "DELETE", path: path(p, "/raw/deep/name"), token: token("developer") }),
      ).toMatchObject({ status: 404, body: { message: "No such branch" } });
    });

    it("reads the last segment as the action, as GitLab's routes did, for branches named like one", async () => {
      const p = cast.public;
      for (const branch_name of ["protect", "fix/protect", "fix/unprotect"]) {
        expect((await create(p, { branch_name, ref: "master" })).status, branch_name).toBe(200);
      }
      const put = (rest: string) => api({ method: "PUT", path: path(p, rest), token: token("master") });
      const state = async (name: string) =>
        (await api({ path: path(p, `/${encodeURIComponent(name)}`), token: token("reporter") })).body
          .protected;

      // `fix/protect` is a branch, but PUT .../fix/protect is "protect the branch fix" (none here).
      expect(await put("/fix/protect")).toMatchObject({
        status: 404,
        body: { message: "404 Branch Not Found" },
      });
      expect(await put("/fix/protect/protect")).toMatchObject({ status: 200, body: { name: "fix/protect" } });
      expect(await put("/protect/protect")).toMatchObject({ status: 200, body: { name: "protect" } });
      expect(await put("/fix/unprotect/protect")).toMatchObject({
        status: 200,
        body: { name: "fix/unprotect" },
      });
      expect([await state("fix/protect"), await state("protect"), await state("fix/unprotect")]).toEqual([
        true,
        true,
        true,
      ]);
      expect(await put("/fix/unprotect/unprotect")).toMatchObject({
        status: 200,
        body: { name: "fix/unprotect", protected: false },
      });
      expect(await state("fix/protect")).toBe(true);

      // GET and DELETE have no action: the whole rest of the path is the name.
      expect(await api({ path: path(p, "/fix/protect"), token: token("reporter") })).toMatchObject({
        status: 200,
        body: { name: "fix/protect", protected: true },
      });
      await put("/fix/protect/unprotect");
      const removed = await api({
        method: "DELETE",
        path: path(p, "/fix/protect"),
        token: token("developer"),
      });
      expect(removed).toMatchObject({ status: 200, body: { branch_name: "fix/protect" } });
      expect(await state("protect")).toBe(true);

      // An encoded slash stays inside the name: PUT .../fix%2Funprotect is no action on `fix`.
      expect((await put("/fix%2Funprotect")).status).toBe(405);
      expect(await put("/fix%2Funprotect/protect")).toMatchObject({
        status: 200,
        body: { name: "fix/unprotect", protected: true },
      });
    });
  });

  describe("a project's repository and its default branch", () => {
    async function newProject(name: string): Promise<ProjectJson> {
      const res = await api<ProjectJson>({
        method: "POST",
        path: "/projects",
        token: token("owner"),
        json: { name },
      });
      expect(res.status).toBe(201);
      return res.body;
    }

    it("cannot branch an empty repository (400 Invalid reference name)", async () => {
      const empty = await newProject("br-empty");
      expect(await create(empty, { branch_name: "master", ref: "master" })).toMatchObject({
        status: 400,
        body: { message: "Invalid reference name" },
      });
      expect((await api<Body[]>({ path: path(empty), token: token("owner") })).body).toEqual([]);
    });

    it("makes the first branch created of a project without a default branch its default, protected", async () => {
      const project = await newProject("br-first");
      seedRepository(ctx().server, project.id, [{ message: "only", files: { "a.txt": "a\n" } }]);
      expect((await create(project, { branch_name: "develop", ref: "master" })).body).toMatchObject({
        name: "develop",
        protected: true,
        developers_can_push: false,
        developers_can_merge: false,
      });
      const got = await api<ProjectJson>({ path: `/projects/${project.id}`, token: token("owner") });
      expect(got.body.default_branch).toBe("develop");
      expect(head(project)).toBe("refs/heads/develop");
    });

    it("moves HEAD when the default branch is changed to a branch that exists; ignores one that does not", async () => {
      const project = await newProject("br-default");
      seedRepository(ctx().server, project.id, [
        { message: "one", files: { "a.txt": "a\n" } },
        { message: "two", files: { "b.txt": "b\n" }, branch: "next" },
      ]);
      const edit = (json: Record<string, unknown>) =>
        api<ProjectJson>({ method: "PUT", path: `/projects/${project.id}`, token: token("owner"), json });
      expect((await edit({ default_branch: "master" })).body.default_branch).toBe("master");
      expect(head(project)).toBe("refs/heads/master");
      const moved = await edit({ default_branch: "next" });
      expect(moved).toMatchObject({ status: 200, body: { default_branch: "next" } });
      expect(head(project)).toBe("refs/heads/next");

      for (const name of ["missing", "bad..name"]) {
        const ignored = await edit({ default_branch: name, description: `tried ${name}` });
        expect(ignored).toMatchObject({
          status: 200,
          body: { default_branch: "next", description: `tried ${name}` },
        });
        expect(head(project)).toBe("refs/heads/next");
      }

      expect(
        await api({ method: "DELETE", path: path(project, "/next"), token: token("owner") }),
      ).toMatchObject({
        status: 400,
        body: { message: "Cannot remove HEAD branch" },
      });
      expect(
        (await api({ method: "DELETE", path: path(project, "/master"), token: token("owner") })).status,
      ).toBe(200);
    });
  });
});
