import { CommitDetailJson, CommitJson, DiffJson, type ProjectJson } from "@kiln/schemas";
import { type ApiRequest, seedRepository } from "@kiln/testkit";
import { beforeAll, expect, it } from "vitest";
import { createRoleCast, type RoleCast } from "./project-roles.js";
import { onEachDatabase } from "./support.js";

const ADA = { name: "Ada Lovelace", email: "ada@example.com" };

onEachDatabase("commits API", (ctx) => {
  let cast: RoleCast;
  /** master: c1 → c2 → c3 → c4; feature: c4 → c5. */
  let c1: string, c2: string, c3: string, c4: string, c5: string;
  beforeAll(async () => {
    cast = await createRoleCast(ctx(), "cm");
    const history = [
      { message: "Initial commit\n", date: "2026-01-01T00:00:00Z", files: { "README.md": "# Demo\n" } },
      {
        message: "Add the library\n",
        date: "2026-01-02T00:00:00Z",
        author: ADA,
        files: { "lib/util.js": "export const one = 1;\n" },
      },
      {
        message: "Update the README\n",
        date: "2026-01-03T00:00:00Z",
        files: { "README.md": "# Demo\n\nMore words.\nAnd more.\n" },
      },
      {
        message: "Move the library to docs\n\nIt was never used.\n",
        date: "2026-01-04T00:00:00Z",
        files: { "lib/util.js": null, "docs/guide.md": "A guide\n" },
      },
      {
        branch: "feature",
        message: "Feature\n",
        date: "2026-01-05T00:00:00Z",
        files: { "feature.txt": "f\n" },
      },
    ];
    for (const project of [cast.private, cast.public]) {
      [c1, c2, c3, c4, c5] = seedRepository(ctx().server, project.id, history) as [
        string,
        string,
        string,
        string,
        string,
      ];
    }
  });

  const owner = () => cast.people.owner.token;
  const api = <T = unknown>(request: ApiRequest) => ctx().api<T>(request);
  const commits = (query: ApiRequest["query"] = {}, token = owner(), id = cast.private.id) =>
    api<CommitJson[]>({ path: `/projects/${id}/repository/commits`, token, query });
  const ids = (list: { id: string }[]) => list.map((commit) => commit.id);

  it("lists the default branch's history newest first, as RepoCommits", async () => {
    const res = await commits();
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([c4, c3, c2, c1]);
    expect(res.headers.get("x-total")).toBeNull();
    const [latest] = res.body.map((commit) => CommitJson.strict().parse(commit));
    expect(latest).toEqual({
      id: c4,
      short_id: c4.slice(0, 11),
      title: "Move the library to docs",
      author_name: "Seed Author",
      author_email: "seed@example.com",
      created_at: expect.stringMatching(/^2026-01-04T00:00:00(Z|\+00:00)$/),
      committer_name: "Seed Author",
      committer_email: "seed@example.com",
      message: "Move the library to docs\n\nIt was never used.\n",
    });
    expect(res.body[2]).toMatchObject({
      id: c2,
      author_name: "Ada Lovelace",
      author_email: "ada@example.com",
    });
  });

  it("starts from ref_name: a branch or a sha; an unknown ref has no history", async () => {
    expect(ids((await commits({ ref_name: "feature" })).body)).toEqual([c5, c4, c3, c2, c1]);
    expect(ids((await commits({ ref_name: c2 })).body)).toEqual([c2, c1]);
    expect(await commits({ ref_name: "no-such-branch" })).toMatchObject({ status: 200, body: [] });
    expect(await commits({ ref_name: "master..feature" })).toMatchObject({ status: 200, body: [] });
  });

  it("follows the project's default branch when ref_name is left out", async () => {
    const id = cast.public.id;
    expect(ids((await commits({}, owner(), id)).body)).toEqual([c4, c3, c2, c1]);
    const changed = await api<ProjectJson>({
      method: "PUT",
      path: `/projects/${id}`,
      token: owner(),
      json: { default_branch: "feature" },
    });
    expect(changed.status).toBe(200);
    expect(ids((await commits({}, owner(), id)).body)).toEqual([c5, c4, c3, c2, c1]);
  });

  it("filters by since and until (ISO 8601), and refuses other timestamps with GitLab's message", async () => {
    expect(ids((await commits({ since: "2026-01-02T00:00:00Z" })).body)).toEqual([c4, c3, c2]);
    expect(ids((await commits({ until: "2026-01-02T12:00:00Z" })).body)).toEqual([c2, c1]);
    const window = await commits({ since: "2026-01-01T12:00:00+00:00", until: "2026-01-03T01:00:00+01:00" });
    expect(ids(window.body)).toEqual([c3, c2]);
    expect(ids((await commits({ since: "2026-01-03" })).body)).toEqual([c4, c3]);
    for (const since of ["yesterday", "2026-02-30T00:00:00Z", "2026-01-01T25:00:00Z", "1767225600"]) {
      expect(await commits({ since })).toMatchObject({
        status: 400,
        body: { message: '"since" must be a timestamp in ISO 8601 format: YYYY-MM-DDTHH:MM:SSZ' },
      });
    }
    expect(await commits({ until: "soon" })).toMatchObject({
      status: 400,
      body: { message: '"until" must be a timestamp in ISO 8601 format: YYYY-MM-DDTHH:MM:SSZ' },
    });
  });

  it("keeps only the commits that touch path (a file or a directory)", async () => {
    expect(ids((await commits({ path: "README.md" })).body)).toEqual([c3, c1]);
    expect(ids((await commits({ path: "lib" })).body)).toEqual([c4, c2]);
    expect(ids((await commits({ path: "lib/" })).body)).toEqual([c4, c2]);
    expect(ids((await commits({ path: "feature.txt", ref_name: "feature" })).body)).toEqual([c5]);
    expect(await commits({ path: "nowhere" })).toMatchObject({ status: 200, body: [] });
    expect(await commits({ path: "../etc/passwd" })).toMatchObject({ status: 200, body: [] });
  });

  it("pages with a 0-based page and per_page (default 20)", async () => {
    expect(ids((await commits({ per_page: 2 })).body)).toEqual([c4, c3]);
    expect(ids((await commits({ per_page: 2, page: 0 })).body)).toEqual([c4, c3]);
    expect(ids((await commits({ per_page: 2, page: 1 })).body)).toEqual([c2, c1]);
    expect((await commits({ per_page: 2, page: 2 })).body).toEqual([]);
    expect(ids((await commits({ per_page: 3, page: 1, ref_name: "feature" })).body)).toEqual([c2, c1]);
    expect(ids((await commits({ per_page: 500 })).body)).toEqual([c4, c3, c2, c1]);
    expect((await commits({ per_page: "many" as unknown as number })).status).toBe(400);
  });

  it("answers one commit by sha or by branch name, with parents and stats", async () => {
    const res = await api<CommitDetailJson>({
      path: `/projects/${cast.private.id}/repository/commits/${c3}`,
      token: owner(),
    });
    expect(res.status).toBe(200);
    expect(CommitDetailJson.strict().parse(res.body)).toEqual({
      id: c3,
      short_id: c3.slice(0, 11),
      title: "Update the README",
      author_name: "Seed Author",
      author_email: "seed@example.com",
      created_at: res.body.committed_date,
      committer_name: "Seed Author",
      committer_email: "seed@example.com",
      message: "Update the README\n",
      parent_ids: [c2],
      committed_date: expect.stringMatching(/^2026-01-03T00:00:00(Z|\+00:00)$/),
      authored_date: expect.stringMatching(/^2026-01-03T00:00:00(Z|\+00:00)$/),
      stats: { additions: 3, deletions: 0, total: 3 },
      status: null,
    });
    const byBranch = await api<CommitDetailJson>({
      path: `/projects/${cast.private.id}/repository/commits/feature`,
      token: owner(),
    });
    expect(byBranch.body).toMatchObject({ id: c5, parent_ids: [c4] });
    const root = await api<CommitDetailJson>({
      path: `/projects/${cast.private.id}/repository/commits/${c1.slice(0, 8)}`,
      token: owner(),
    });
    expect(root.body).toMatchObject({
      id: c1,
      parent_ids: [],
      stats: { additions: 1, deletions: 0, total: 1 },
    });
  });

  it("answers 404 Commit Not Found for anything that names no commit", async () => {
    const tree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
    for (const sha of ["0000000000000000000000000000000000000000", "no-such-ref", "master..feature", tree]) {
      for (const suffix of ["", "/diff"]) {
        const res = await api({
          path: `/projects/${cast.private.id}/repository/commits/${encodeURIComponent(sha)}${suffix}`,
          token: owner(),
        });
        expect(res).toMatchObject({ status: 404, body: { message: "404 Commit Not Found" } });
      }
    }
  });

  it("answers a commit's diff against its first parent, file by file", async () => {
    const res = await api<DiffJson[]>({
      path: `/projects/${cast.private.id}/repository/commits/${c4}/diff`,
      token: owner(),
    });
    expect(res.status).toBe(200);
    const diffs = res.body.map((diff) => DiffJson.strict().parse(diff));
    expect(diffs).toEqual([
      {
        diff: "--- /dev/null\n+++ b/docs/guide.md\n@@ -0,0 +1 @@\n+A guide\n",
        new_path: "docs/guide.md",
        old_path: "docs/guide.md",
        a_mode: "0",
        b_mode: "100644",
        new_file: true,
        renamed_file: false,
        deleted_file: false,
      },
      {
        diff: "--- a/lib/util.js\n+++ /dev/null\n@@ -1 +0,0 @@\n-export const one = 1;\n",
        new_path: "lib/util.js",
        old_path: "lib/util.js",
        a_mode: "100644",
        b_mode: "0",
        new_file: false,
        renamed_file: false,
        deleted_file: true,
      },
    ]);
    const root = await api<DiffJson[]>({
      path: `/projects/${cast.private.id}/repository/commits/${c1}/diff`,
      token: owner(),
    });
    expect(root.body).toEqual([expect.objectContaining({ new_path: "README.md", new_file: true })]);
  });

  it("answers an empty history for a repository with nothing pushed, and 404 for its commits", async () => {
    const created = await api<ProjectJson>({
      method: "POST",
      path: "/projects",
      token: owner(),
      json: { name: "cm-empty" },
    });
    expect(created.status).toBe(201);
    expect(await commits({}, owner(), created.body.id)).toMatchObject({ status: 200, body: [] });
    expect(
      await api({ path: `/projects/${created.body.id}/repository/commits/master`, token: owner() }),
    ).toMatchObject({ status: 404, body: { message: "404 Commit Not Found" } });
  });

  it("lets readers with download_code in: reporters and up, anyone on a public project", async () => {
    const { people } = cast;
    const paths = (id: number) => [
      `/projects/${id}/repository/commits`,
      `/projects/${id}/repository/commits/${c1}`,
      `/projects/${id}/repository/commits/${c1}/diff`,
    ];
    for (const path of paths(cast.private.id)) {
      for (const role of ["owner", "master", "developer", "reporter", "admin"] as const) {
        expect((await api({ path, token: people[role].token })).status, `${role} ${path}`).toBe(200);
      }
      expect(await api({ path, token: people.guest.token })).toMatchObject({
        status: 403,
        body: { message: "403 Forbidden" },
      });
      expect(await api({ path, token: people.outsider.token })).toMatchObject({
        status: 404,
        body: { message: "404 Project Not Found" },
      });
      expect(await api({ path })).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    }
    for (const path of paths(cast.public.id)) {
      for (const role of ["guest", "outsider"] as const) {
        expect((await api({ path, token: people[role].token })).status, `${role} ${path}`).toBe(200);
      }
    }
    const byPath = await api<CommitJson[]>({
      path: `/projects/${encodeURIComponent(cast.private.path_with_namespace)}/repository/commits`,
      token: people.reporter.token,
    });
    expect(ids(byPath.body)).toEqual([c4, c3, c2, c1]);
  });
});
