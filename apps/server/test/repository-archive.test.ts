import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProjectJson } from "@kiln/schemas";
import { type ApiRequest, apiUrl, seedRepository } from "@kiln/testkit";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createRoleCast, type RoleCast } from "./project-roles.js";
import { BINARY, type Download, download, type SeededTree, seedTree } from "./repository-seed.js";
import { onEachDatabase } from "./support.js";

onEachDatabase("repository API: archives", (ctx) => {
  let cast: RoleCast;
  let seeded: SeededTree;
  const scratch = mkdtempSync(join(tmpdir(), "kiln-archive-test-"));
  beforeAll(async () => {
    cast = await createRoleCast(ctx(), "ar");
    seeded = seedTree(ctx().server, cast.private.id);
    seedTree(ctx().server, cast.public.id);
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const owner = () => cast.people.owner.token;
  const archive = (suffix = "", query: ApiRequest["query"] = {}, token = owner(), id = cast.private.id) =>
    download(ctx().server, { path: `/projects/${id}/repository/archive${suffix}`, token, query });

  /** Unpacks a downloaded archive with the system's own tools; answers the directory. */
  function unpack(res: Download, name: string, command: (file: string, into: string) => [string, string[]]) {
    const into = mkdtempSync(join(scratch, "x-"));
    const file = join(scratch, name);
    writeFileSync(file, res.bytes);
    const [program, args] = command(file, into);
    execFileSync(program, args, { stdio: "ignore" });
    return into;
  }
  const untar = (file: string, into: string): [string, string[]] => ["tar", ["-xf", file, "-C", into]];
  const unzip = (file: string, into: string): [string, string[]] => ["unzip", ["-q", file, "-d", into]];

  it("downloads the default branch as tar.gz, named <project>-<ref>-<sha>, and it unpacks", async () => {
    const res = await archive();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    const prefix = `${cast.private.path}-master-${seeded.withSubmodule}`;
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${prefix}.tar.gz"`);
    const into = unpack(res, "default.tar.gz", untar);
    expect(readdirSync(into)).toEqual([prefix]);
    const root = join(into, prefix);
    expect(readdirSync(root).sort()).toEqual([
      "CHANGELOG",
      "README.md",
      "a file.txt",
      "bin",
      "docs",
      "src",
      "sub",
    ]);
    expect(readFileSync(join(root, "README.md"), "utf8")).toBe("# Tree\n\nv2\n");
    expect(readFileSync(join(root, "src/lib/util.js"), "utf8")).toBe("export const u = 1;\n");
    expect(readFileSync(join(root, "bin/blob.bin")).equals(BINARY)).toBe(true);
  });

  it("takes the format from the path (archive.zip, archive.tgz) or the format parameter", async () => {
    const zip = await archive(".zip", { sha: "feature" });
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    const zipPrefix = `${cast.private.path}-feature-${seeded.c3}`;
    expect(zip.headers.get("content-disposition")).toBe(`attachment; filename="${zipPrefix}.zip"`);
    const unzipped = unpack(zip, "feature.zip", unzip);
    expect(readFileSync(join(unzipped, zipPrefix, "feature.txt"), "utf8")).toBe("f\n");
    expect(readFileSync(join(unzipped, zipPrefix, "bin/blob.bin")).equals(BINARY)).toBe(true);

    const tar = await archive("", { format: "tar", sha: seeded.c1 });
    expect(tar.headers.get("content-type")).toBe("application/x-tar");
    const tarPrefix = `${cast.private.path}-${seeded.c1}-${seeded.c1}`;
    expect(tar.headers.get("content-disposition")).toBe(`attachment; filename="${tarPrefix}.tar"`);
    const untarred = unpack(tar, "first.tar", untar);
    expect(readdirSync(join(untarred, tarPrefix)).sort()).toEqual([
      "README.md",
      "a file.txt",
      "bin",
      "docs",
      "src",
    ]);

    const tgz = await archive(".tgz", { format: "zip" });
    expect(tgz.headers.get("content-disposition")).toMatch(/\.tar\.gz"$/);
    expect(readdirSync(unpack(tgz, "suffix.tgz", untar))).toHaveLength(1);
  });

  it("answers 404 File Not Found for a revision that names no commit, 400 for a format it cannot write", async () => {
    for (const sha of ["no-such-branch", "0000000000000000000000000000000000000000", "master..feature"]) {
      const res = await ctx().api({
        path: `/projects/${cast.private.id}/repository/archive`,
        token: owner(),
        query: { sha },
      });
      expect(res).toMatchObject({ status: 404, body: { message: "404 File Not Found" } });
    }
    const bz2 = await ctx().api({
      path: `/projects/${cast.private.id}/repository/archive`,
      token: owner(),
      query: { format: "tar.bz2" },
    });
    expect(bz2).toMatchObject({
      status: 400,
      body: { message: { format: ["does not have a valid value"] } },
    });
    const empty = await ctx().api<ProjectJson>({
      method: "POST",
      path: "/projects",
      token: owner(),
      json: { name: "ar-empty" },
    });
    expect((await archive("", {}, owner(), empty.body.id)).status).toBe(404);
  });

  it("lets readers with download_code in: reporters and up, anyone on a public project", async () => {
    const { people } = cast;
    for (const role of ["owner", "developer", "reporter", "admin"] as const) {
      expect((await archive("", {}, people[role].token)).status, role).toBe(200);
    }
    expect((await archive("", {}, people.guest.token)).status).toBe(403);
    expect((await archive("", {}, people.outsider.token)).status).toBe(404);
    for (const role of ["guest", "outsider"] as const) {
      expect((await archive(".zip", {}, people[role].token, cast.public.id)).status, role).toBe(200);
    }
  });

  it("stops git when the client goes away in the middle of a download", async () => {
    const created = await ctx().api<ProjectJson>({
      method: "POST",
      path: "/projects",
      token: owner(),
      json: { name: "ar-huge" },
    });
    // Random bytes do not compress: far more than the socket and pipe buffers can hold.
    seedRepository(ctx().server, created.body.id, [
      { message: "huge\n", files: { huge: randomBytes(32 << 20) } },
    ]);
    const serverPid = ctx().server.process.pid as number;
    const archivers = () =>
      // ps exits with 1 when the server has no children at all.
      spawnSync("ps", ["-o", "args=", "--ppid", String(serverPid)], { encoding: "utf8" })
        .stdout.split("\n")
        .filter((line) => /\bgit\b.*\barchive\b/.test(line));

    const url = apiUrl(ctx().server.url, `/projects/${created.body.id}/repository/archive`, {
      format: "tar",
    });
    const req = httpRequest(url, { headers: { "PRIVATE-TOKEN": owner() }, agent: false });
    const status = await new Promise<number>((resolve, reject) => {
      req.on("response", (res) => {
        res.once("data", () => {
          res.pause();
          resolve(res.statusCode ?? 0);
        });
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(200);
    // The client reads no more: git is blocked on a full pipe, not finished.
    expect(archivers()).toHaveLength(1);
    req.destroy();
    await vi.waitFor(() => expect(archivers()).toEqual([]), { timeout: 20_000, interval: 50 });
    expect((await ctx().api({ path: "/user", token: owner() })).status).toBe(200);
  });
});
