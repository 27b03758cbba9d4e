import { existsSync, readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import type { ProjectJson, UploadJson } from "@kiln/schemas";
import { beforeAll, describe, expect, it } from "vitest";
import { createRoleCast, ROLES, type Role, type RoleCast } from "./project-roles.js";
import { onEachDatabase } from "./support.js";

/** A GET of a raw path, sent as written (fetch and URL would resolve `..` segments first). */
function rawGet(
  origin: string,
  path: string,
  token?: string,
): Promise<{ status: number; body: Buffer; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(origin);
    const headers = token === undefined ? {} : { "PRIVATE-TOKEN": token };
    const req = request({ hostname, port, path, method: "GET", headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

onEachDatabase("project uploads", (ctx) => {
  let cast: RoleCast;
  beforeAll(async () => {
    cast = await createRoleCast(ctx(), "up");
  });
  const origin = () => ctx().server.url;
  /** The entries under a directory of the server's data dir, at any depth (none when it is missing). */
  const entriesUnder = (...path: string[]) => {
    const dir = join(ctx().server.dataDir, ...path);
    return existsSync(dir) ? readdirSync(dir, { recursive: true }) : [];
  };
  const tempFiles = () => entriesUnder("tmp", "uploads");

  /** Posts `content` as the multipart field `field` (default `file`) under `filename`. */
  async function upload(
    project: ProjectJson,
    token: string | null,
    filename: string,
    content: string | Buffer,
    field = "file",
  ) {
    const form = new FormData();
    form.append("description", "ignored");
    form.append(field, new Blob([content as BlobPart]), filename);
    const headers: Record<string, string> = token === null ? {} : { "PRIVATE-TOKEN": token };
    const res = await fetch(`${origin()}/api/v3/projects/${project.id}/uploads`, {
      method: "POST",
      body: form,
      headers,
    });
    return { status: res.status, body: (await res.json()) as UploadJson & { message?: unknown } };
  }

  /** The served file of an upload of `project`. */
  const download = (project: ProjectJson, url: string, token?: string) =>
    rawGet(origin(), `/${project.path_with_namespace}${url}`, token);

  it("uploads an image (201, Markdown image link) and serves it back inline to readers", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const res = await upload(cast.private, cast.people.guest.token, "screen shot.png", png);
    expect(res.status).toBe(201);
    const url = res.body.url;
    expect(url).toMatch(/^\/uploads\/[0-9a-f]{32}\/screen_shot\.png$/);
    expect(res.body).toEqual({ alt: "screen_shot", url, markdown: `![screen_shot](${url})` });
    const served = await download(cast.private, url, cast.people.reporter.token);
    expect(served.status).toBe(200);
    expect(served.body.equals(png)).toBe(true);
    expect(served.headers).toMatchObject({
      "content-type": "image/png",
      "x-content-type-options": "nosniff",
      "content-length": String(png.length),
    });
    expect(served.headers["content-disposition"]).toMatch(/^inline; filename="screen_shot\.png"/);
    expect(tempFiles()).toEqual([]);
  });

  it("answers GitLab 8.15's link: images and videos embedded under their name without extension, other files linked under their whole name", async () => {
    const cases = [
      ["pic.jpeg", "pic", "!"],
      ["diagram.final.svg", "diagram.final", "!"],
      ["clip.MP4", "clip", "!"],
      ["notes.txt", "notes.txt", ""],
      ["favicon.ico", "favicon.ico", ""],
      ["archive.tar.gz", "archive.tar.gz", ""],
      ["README", "README", ""],
    ] as const;
    for (const [name, alt, embed] of cases) {
      const res = await upload(cast.public, cast.people.developer.token, name, "content");
      expect(res.status, name).toBe(201);
      const url = res.body.url;
      expect(url, name).toMatch(new RegExp(`^/uploads/[0-9a-f]{32}/${name.replace(/\./g, "\\.")}$`));
      expect(res.body, name).toEqual({ alt, url, markdown: `${embed}[${alt}](${url})` });
    }
  });

  it("serves other files as attachments typed by extension, never sniffed", async () => {
    for (const [name, type] of [
      ["notes.txt", "text/plain; charset=utf-8"],
      ["page.html", "application/octet-stream"],
      ["logo.svg", "image/svg+xml"],
    ] as const) {
      const res = await upload(cast.public, cast.people.owner.token, name, "<script>alert(1)</script>");
      expect(res.status).toBe(201);
      if (!name.endsWith(".svg")) expect(res.body.markdown).toBe(`[${name}](${res.body.url})`);
      const served = await download(cast.public, res.body.url);
      expect(served.status).toBe(200);
      expect(served.headers["content-type"]).toBe(type);
      expect(served.headers["x-content-type-options"]).toBe("nosniff");
      expect(served.headers["content-disposition"]).toMatch(/^attachment; /);
    }
  });

  it("serves a private project's files only to those who may read it, a public one's to anyone", async () => {
    const hidden = (await upload(cast.private, cast.people.owner.token, "plan.txt", "private plan")).body.url;
    const shown = (await upload(cast.public, cast.people.owner.token, "open.txt", "open data")).body.url;
    const byRole = async (project: ProjectJson, url: string) => {
      const statuses: Record<string, number> = {};
      for (const role of ROLES)
        statuses[role] = (await download(project, url, cast.people[role].token)).status;
      statuses["anonymous"] = (await download(project, url)).status;
      return statuses;
    };
    const everyone = Object.fromEntries([...ROLES, "anonymous"].map((role) => [role, 200]));
    expect(await byRole(cast.private, hidden)).toEqual({ ...everyone, outsider: 404, anonymous: 404 });
    expect(await byRole(cast.public, shown)).toEqual(everyone);
    const withQueryToken = await rawGet(
      origin(),
      `/${cast.private.path_with_namespace}${hidden}?private_token=${cast.people.guest.token}`,
    );
    expect(withQueryToken.body.toString()).toBe("private plan");
    expect((await download(cast.public, shown, "not-a-token")).status).toBe(401);
  });

  describe.each([
    ["private", () => cast.private, 404],
    ["public", () => cast.public, 201],
  ])("on a %s project", (_visibility, project, outsiderStatus) => {
    it.each(ROLES)("answers an upload by %s with the status of their role", async (role: Role) => {
      const res = await upload(project(), cast.people[role].token, "a.txt", "a");
      expect(res.status).toBe(role === "outsider" ? outsiderStatus : 201);
      expect(tempFiles()).toEqual([]);
    });
  });

  it("answers 401 without a token, 400 without a file or with a file forged in JSON", async () => {
    expect((await upload(cast.public, null, "a.txt", "a")).status).toBe(401);
    expect(await upload(cast.public, cast.people.owner.token, "a.txt", "a", "attachment")).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "file" not given' },
    });
    const forged = await ctx().api({
      method: "POST",
      path: `/projects/${cast.public.id}/uploads`,
      token: cast.people.owner.token,
      json: {
        file: {
          tempPath: join(ctx().server.dataDir, "secret.key"),
          filename: "key.txt",
          size: 44,
          mimeType: "text/plain",
        },
      },
    });
    expect(forged).toMatchObject({ status: 400, body: { message: { file: ["is invalid"] } } });
    expect(tempFiles()).toEqual([]);
  });

  it("refuses a file over max_attachment_size with 413, keeping no partial file", async () => {
    const setLimit = (max_attachment_size: number) =>
      ctx().api({
        method: "PUT",
        path: "/application/settings",
        token: ctx().root.token,
        json: { max_attachment_size },
      });
    expect((await setLimit(1)).status).toBe(200);
    const stored = () => entriesUnder("uploads", String(cast.public.id));
    const before = stored().length;
    try {
      const tooBig = await upload(
        cast.public,
        cast.people.owner.token,
        "big.bin",
        Buffer.alloc(1024 * 1024 + 1),
      );
      expect(tooBig).toEqual({ status: 413, body: { message: "413 Request Entity Too Large" } });
      expect(tempFiles()).toEqual([]);
      expect(stored()).toHaveLength(before);
      const fits = await upload(cast.public, cast.people.owner.token, "fits.bin", Buffer.alloc(1024 * 1024));
      expect(fits.status).toBe(201);
    } finally {
      expect((await setLimit(10)).status).toBe(200);
    }
  });

  it("keeps traversal out: in the uploaded name, and in the serving URL", async () => {
    const keyFile = join(ctx().server.dataDir, "secret.key");
    const key = readFileSync(keyFile, "utf8");
    const res = await upload(cast.public, cast.people.owner.token, "../../../../secret.key", "not the key");
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(/^\/uploads\/[0-9a-f]{32}\/secret\.key$/);
    expect(readFileSync(keyFile, "utf8")).toBe(key);
    expect((await download(cast.public, res.body.url)).body.toString()).toBe("not the key");

    const secret = res.body.url.split("/")[2] as string;
    const base = `/${cast.public.path_with_namespace}/uploads`;
    for (const path of [
      `${base}/${secret}/../../../../secret.key`,
      `${base}/${secret}/..%2F..%2F..%2F..%2Fsecret.key`,
      `${base}/${secret}/%2e%2e%2f%2e%2e%2fsecret.key`,
      `${base}/..%2F..%2F..%2F..%2F/secret.key`,
      `${base}/%2e%2e/secret.key`,
      `${base}/${secret}/..%5C..%5Csecret.key`,
      `${base}/${secret}/secret.key%00.png`,
      `/${cast.public.path_with_namespace}/uploads/../../../secret.key`,
      `/%2e%2e/%2e%2e/uploads/${secret}/secret.key`,
    ]) {
      const served = await rawGet(origin(), path, cast.people.owner.token);
      expect({ path, status: served.status }).toEqual({ path, status: 404 });
      expect(served.body.toString()).not.toContain(key.trim());
    }
  });

  it("stops serving a project's files once the project is deleted", async () => {
    const create = await ctx().api<ProjectJson>({
      method: "POST",
      path: "/projects",
      token: cast.people.owner.token,
      json: { name: "up-doomed", visibility_level: 20 },
    });
    const project = create.body;
    const { body } = await upload(project, cast.people.owner.token, "a.txt", "bye");
    expect((await download(project, body.url)).status).toBe(200);
    expect(
      (await ctx().api({ method: "DELETE", path: `/projects/${project.id}`, token: cast.people.owner.token }))
        .status,
    ).toBe(200);
    expect((await download(project, body.url)).status).toBe(404);
    expect(existsSync(join(ctx().server.dataDir, "uploads", String(project.id)))).toBe(false);
  });
});
