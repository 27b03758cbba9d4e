import { CompareJson, type ProjectJson, TreeObjectJson } from "@kiln/schemas";
import { type ApiRequest, git, repositoryPath } from "@kiln/testkit";
import { beforeAll, expect, it } from "vitest";
import { createRoleCast, type RoleCast } from "./project-roles.js";
import { BINARY, download, type SeededTree, seedTree } from "./repository-seed.js";
import { onEachDatabase } from "./support.js";

type Entry = TreeObjectJson;

onEachDatabase("repository API: tree, blobs, compare", (ctx) => {
  let cast: RoleCast;
  let seeded: SeededTree;
  beforeAll(async () => {
    cast = await createRoleCast(ctx(), "rp");
    seeded = seedTree(ctx().server, cast.private.id);
    seedTree(ctx().server, cast.public.id);
  });

  const owner = () => cast.people.owner.token;
  const api = <T = unknown>(request: ApiRequest) => ctx().api<T>(request);
  const repo = (suffix: string, id: number | string = cast.private.id) =>
    `/projects/${id}/repository${suffix}`;
  const tree = (query: ApiRequest["query"] = {}, token = owner()) =>
    api<Entry[]>({ path: repo("/tree"), token, query });
  const objectId = (rev: string) =>
    git(["rev-parse", rev], repositoryPath(ctx().server, cast.private.id)).trim();
  const paths = (entries: Entry[]) => entries.map((entry) => entry.path);

  it("lists the root of the default branch: directories, then files, then submodules", async () => {
    const res = await tree();
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total")).toBeNull();
    const entries = res.body.map((entry) => TreeObjectJson.strict().parse(entry));
    expect(entries).toEqual([
      { id: objectId("master:bin"), name: "bin", type: "tree", path: "bin", mode: "040000" },
      { id: objectId("master:docs"), name: "docs", type: "tree", path: "docs", mode: "040000" },
      { id: objectId("master:src"), name: "src", type: "tree", path: "src", mode: "040000" },
      {
        id: objectId("master:CHANGELOG"),
        name: "CHANGELOG",
        type: "blob",
        path: "CHANGELOG",
        mode: "100644",
      },
      {
        id: objectId("master:README.md"),
        name: "README.md",
        type: "blob",
        path: "README.md",
        mode: "100644",
      },
      {
        id: objectId("master:a file.txt"),
        name: "a file.txt",
        type: "blob",
        path: "a file.txt",
        mode: "100644",
      },
      { id: seeded.c1, name: "sub", type: "commit", path: "sub", mode: "160000" },
    ]);
  });

  it("lists a directory given by path, however its slashes are written", async () => {
    for (const path of ["src", "src/", "/src"]) {
      const res = await tree({ path });
      expect(res.body.map(({ name, type, path: full }) => [name, type, full])).toEqual([
        ["lib", "tree", "src/lib"],
        ["app.js", "blob", "src/app.js"],
      ]);
    }
    expect(paths((await tree({ path: "src/lib" })).body)).toEqual(["src/lib/util.js"]);
    for (const path of ["nowhere", "README.md", "../etc"]) {
      expect(await tree({ path })).toMatchObject({ status: 200, body: [] });
    }
  });

  it("lists everything below with recursive, directories first", async () => {
    const res = await tree({ recursive: true });
    expect(res.body.map((entry) => entry.type)).toEqual([
      ...Array<string>(4).fill("tree"),
      ...Array<string>(7).fill("blob"),
      "commit",
    ]);
    expect(paths(res.body)).toEqual([
      "bin",
      "docs",
      "src",
      "src/lib",
      "CHANGELOG",
      "README.md",
      "a file.txt",
      "bin/blob.bin",
      "docs/guide.md",
      "src/app.js",
      "src/lib/util.js",
      "sub",
    ]);
    expect(paths((await tree({ recursive: true, path: "src" })).body)).toEqual([
      "src/lib",
      "src/app.js",
      "src/lib/util.js",
    ]);
  });

  it("lists the tree of ref_name; an unknown ref is 404 Tree Not Found", async () => {
    expect(paths((await tree({ ref_name: "feature" })).body)).toContain("feature.txt");
    expect(paths((await tree({ ref_name: "feature" })).body)).not.toContain("sub");
    expect(paths((await tree({ ref_name: seeded.c1 })).body)).not.toContain("CHANGELOG");
    for (const ref_name of ["no-such-branch", "master..feature"]) {
      expect(await tree({ ref_name })).toMatchObject({
        status: 404,
        body: { message: "404 Tree Not Found" },
      });
    }
    const empty = await api<ProjectJson>({
      method: "POST",
      path: "/projects",
      token: owner(),
      json: { name: "rp-empty" },
    });
    expect(await api({ path: repo("/tree", empty.body.id), token: owner() })).toMatchObject({
      status: 404,
      body: { message: "404 Tree Not Found" },
    });
  });

  it("answers a file at a commit as plain text, by blobs/:sha or commits/:sha/blob", async () => {
    const res = await api({ path: repo("/blobs/master"), token: owner(), query: { filepath: "src/app.js" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.text).toBe("console.log('hi');\n");
    const onFeature = await api({
      path: repo("/commits/feature/blob"),
      token: owner(),
      query: { filepath: "/src/app.js" },
    });
    expect(onFeature.text).toBe("console.log('feature');\n");
    const bySha = await api({
      path: repo(`/blobs/${seeded.c1}`),
      token: owner(),
      query: { filepath: "README.md" },
    });
    expect(bySha.text).toBe("# Tree\n");
    const spaced = await api({
      path: repo("/blobs/master"),
      token: owner(),
      query: { filepath: "a file.txt" },
    });
    expect(spaced.text).toBe("spaced\n");
  });

  it("answers a binary file byte for byte", async () => {
    const res = await download(ctx().server, {
      path: repo("/blobs/master"),
      token: owner(),
      query: { filepath: "bin/blob.bin" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-length")).toBe(String(BINARY.length));
    expect(res.bytes.equals(BINARY)).toBe(true);
  });

  it("refuses a file lookup without filepath (400), at no commit (404 Commit), of no file (404 File)", async () => {
    expect(await api({ path: repo("/blobs/master"), token: owner() })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "filepath" not given' },
    });
    for (const sha of ["no-such-branch", "0000000000000000000000000000000000000000"]) {
      for (const path of [repo(`/blobs/${sha}`), repo(`/commits/${sha}/blob`)]) {
        expect(await api({ path, token: owner(), query: { filepath: "README.md" } })).toMatchObject({
          status: 404,
          body: { message: "404 Commit Not Found" },
        });
      }
    }
    for (const filepath of ["nothing.txt", "src", "sub", "src/nothing", "../README.md", "src/app.js/x"]) {
      expect(await api({ path: repo("/blobs/master"), token: owner(), query: { filepath } })).toMatchObject({
        status: 404,
        body: { message: "404 File Not Found" },
      });
    }
  });

  it("answers a blob by its id, byte for byte; anything else is 404 Blob Not Found", async () => {
    const id = objectId("master:bin/blob.bin");
    for (const sha of [id, id.slice(0, 10), id.toUpperCase()]) {
      const res = await download(ctx().server, { path: repo(`/raw_blobs/${sha}`), token: owner() });
      expect(res.status).toBe(200);
      expect(res.bytes.equals(BINARY)).toBe(true);
    }
    const text = await api({ path: repo(`/raw_blobs/${objectId("master:README.md")}`), token: owner() });
    expect(text).toMatchObject({ status: 200, text: "# Tree\n\nv2\n" });
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const missing = [
      "0000000000000000000000000000000000000000",
      "not-hex",
      objectId("master:src"),
      seeded.c1,
    ];
    for (const sha of missing) {
      expect(await api({ path: repo(`/raw_blobs/${sha}`), token: owner() })).toMatchObject({
        status: 404,
        body: { message: "404 Blob Not Found" },
      });
    }
  });

  it("compares two refs: the commits oldest first, the newest, and the diffs from the merge base", async () => {
    const res = await api<CompareJson>({
      path: repo("/compare"),
      token: owner(),
      query: { from: "master", to: "feature" },
    });
    expect(res.status).toBe(200);
    const comparison = CompareJson.strict().parse(res.body);
    expect(comparison.commits.map((commit) => commit.id)).toEqual([seeded.c3]);
    expect(comparison.commit).toMatchObject({
      id: seeded.c3,
      short_id: seeded.c3.slice(0, 11),
      title: "Feature",
    });
    expect(comparison).toMatchObject({ compare_timeout: false, compare_same_ref: false });
    expect(comparison.diffs).toEqual([
      {
        old_path: "feature.txt",
        new_path: "feature.txt",
        a_mode: "0",
        b_mode: "100644",
        diff: "--- /dev/null\n+++ b/feature.txt\n@@ -0,0 +1 @@\n+f\n",
        new_file: true,
        renamed_file: false,
        deleted_file: false,
      },
      {
        old_path: "src/app.js",
        new_path: "src/app.js",
        a_mode: "100644",
        b_mode: "100644",
        diff: "--- a/src/app.js\n+++ b/src/app.js\n@@ -1 +1 @@\n-console.log('hi');\n+console.log('feature');\n",
        new_file: false,
        renamed_file: false,
        deleted_file: false,
      },
    ]);
    const longer = await api<CompareJson>({
      path: repo("/compare"),
      token: owner(),
      query: { from: seeded.c1, to: "feature" },
    });
    expect(longer.body.commits.map((commit) => commit.id)).toEqual([seeded.c2, seeded.c3]);
    expect(longer.body.commit?.id).toBe(seeded.c3);
  });

  it("compares a ref with itself as compare_same_ref, and says when a diff was too big to show", async () => {
    for (const to of ["master", seeded.withSubmodule]) {
      const same = await api<CompareJson>({
        path: repo("/compare"),
        token: owner(),
        query: { from: "master", to },
      });
      expect(same).toMatchObject({
        status: 200,
        body: { commit: null, commits: [], diffs: [], compare_timeout: false, compare_same_ref: true },
      });
    }
    const big = await api<CompareJson>({
      path: repo("/compare"),
      token: owner(),
      query: { from: seeded.c1, to: "big" },
    });
    expect(big.body).toMatchObject({
      commit: { id: seeded.bigCommit },
      diffs: [{ new_path: "big.txt", new_file: true, diff: "" }],
      compare_timeout: true,
      compare_same_ref: false,
    });
  });

  it("compares a side that names no commit as nothing, and needs both from and to", async () => {
    for (const query of [
      { from: "nope", to: "master" },
      { from: "master", to: "nope" },
    ]) {
      expect(await api({ path: repo("/compare"), token: owner(), query })).toMatchObject({
        status: 200,
        body: { commit: null, commits: [], diffs: [], compare_timeout: false, compare_same_ref: false },
      });
    }
    expect(await api({ path: repo("/compare"), token: owner(), query: { to: "master" } })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "from" not given' },
    });
  });

  it("lets readers with download_code in: reporters and up, anyone on a public project", async () => {
    const { people } = cast;
    const reads = (id: number): ApiRequest[] => [
      { path: repo("/tree", id) },
      { path: repo("/blobs/master", id), query: { filepath: "README.md" } },
      { path: repo(`/raw_blobs/${objectId("master:README.md")}`, id) },
      { path: repo("/compare", id), query: { from: seeded.c1, to: "master" } },
    ];
    for (const request of reads(cast.private.id)) {
      for (const role of ["owner", "master", "developer", "reporter", "admin"] as const) {
        expect((await api({ ...request, token: people[role].token })).status, `${role} ${request.path}`).toBe(
          200,
        );
      }
      expect(await api({ ...request, token: people.guest.token })).toMatchObject({
        status: 403,
        body: { message: "403 Forbidden" },
      });
      expect(await api({ ...request, token: people.outsider.token })).toMatchObject({
        status: 404,
        body: { message: "404 Project Not Found" },
      });
    }
    for (const request of reads(cast.public.id)) {
      for (const role of ["guest", "outsider"] as const) {
        expect((await api({ ...request, token: people[role].token })).status, `${role} ${request.path}`).toBe(
          200,
        );
      }
    }
    const byPath = await api<Entry[]>({
      path: repo("/tree", encodeURIComponent(cast.private.path_with_namespace)),
      token: people.reporter.token,
    });
    expect(byPath.body).toHaveLength(7);
  });
});
