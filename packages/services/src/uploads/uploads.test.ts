import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";
import type { User } from "@kiln/domain";
import { UploadedFile } from "@kiln/schemas";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { forEachDialect, type Harness } from "../__tests__/harness.js";
import { actorOf } from "../auth/credentials.js";
import { type Caller, createCaller } from "../router.js";
import { ServiceRuntime } from "../runtime.js";
import { projectUploadsDir, uploadTempDir } from "../storage-files.js";

/** The harness's database with a runtime that keeps files in `dataDir` (the harness keeps none). */
function onDisk(h: Harness, dataDir: string) {
  const runtime = new ServiceRuntime({
    stores: h.runtime.stores,
    secretKey: randomBytes(32),
    singleProcess: false,
    dataDir,
  });
  return {
    runtime,
    system: createCaller({ runtime, actor: null, system: true }),
    anonymous: createCaller({ runtime, actor: null, system: false }),
    as: (user: User): Caller =>
      createCaller({ runtime, actor: actorOf({ user, method: "private_token" }), system: false }),
  };
}

/** A file as the REST adapter hands it over: already received into the temp dir. */
function received(dataDir: string, filename: string, content: string | Buffer): UploadedFile {
  const dir = uploadTempDir(dataDir);
  mkdirSync(dir, { recursive: true });
  const tempPath = join(dir, `upload-${randomBytes(8).toString("hex")}`);
  writeFileSync(tempPath, content);
  return new UploadedFile({
    tempPath,
    filename,
    size: Buffer.byteLength(content),
    mimeType: "application/octet-stream",
  });
}

/** Every file under `dir`, relative to it. */
const filesUnder = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    : [];

forEachDialect((h) => {
  describe("project uploads", () => {
    let dataDir: string;
    beforeEach(() => {
      dataDir = mkdtempSync(join(tmpdir(), "kiln-uploads-"));
    });
    afterEach(() => {
      rmSync(dataDir, { recursive: true, force: true });
    });

    async function ownProject(username: string, visibility_level = 0) {
      const disk = onDisk(h(), dataDir);
      const user = await h().user(username);
      const { project } = await disk.as(user).projects.create({ name: "files", visibility_level });
      return { disk, user, project, me: disk.as(user) };
    }

    it("moves an image under uploads/<project>/<secret>/<name> and answers its Markdown image link", async () => {
      const { project, me, user } = await ownProject("alice");
      const file = received(dataDir, "Screen Shot.png", "PNG bytes");
      const link = await me.uploads.create({ id: project.id, file });
      const [, secret] = /^\/uploads\/([0-9a-f]{32})\/Screen_Shot\.png$/.exec(link.url) ?? [];
      expect(secret).toBeDefined();
      expect(link).toEqual({
        alt: "Screen_Shot",
        url: `/uploads/${secret}/Screen_Shot.png`,
        markdown: `![Screen_Shot](/uploads/${secret}/Screen_Shot.png)`,
      });
      const stored = join(projectUploadsDir(dataDir, project.id), secret as string, "Screen_Shot.png");
      expect(readFileSync(stored, "utf8")).toBe("PNG bytes");
      expect(existsSync(file.tempPath)).toBe(false);
      expect(await h().runtime.stores.uploads.find(project.id, secret as string)).toMatchObject({
        uploader_id: user.id,
        filename: "Screen_Shot.png",
        size: 9,
      });
    });

    it("links other files by name, and gives each upload its own secret", async () => {
      const { project, me } = await ownProject("bob");
      const first = await me.uploads.create({ id: project.id, file: received(dataDir, "notes.txt", "a") });
      const second = await me.uploads.create({ id: project.id, file: received(dataDir, "notes.txt", "b") });
      expect(first.markdown).toMatch(/^\[notes\.txt\]\(\/uploads\/[0-9a-f]{32}\/notes\.txt\)$/);
      expect(first.url).not.toBe(second.url);
      expect(await h().runtime.stores.uploads.countForProject(project.id)).toBe(2);
    });

    it("keeps traversal out of the stored path: only a sanitised base name is used", async () => {
      const { project, me } = await ownProject("carol");
      for (const name of ["../../../secret.key", "..\\..\\evil.png", "..", "a/../../b.txt"]) {
        const link = await me.uploads.create({ id: project.id, file: received(dataDir, name, name) });
        expect(link.url).toMatch(/^\/uploads\/[0-9a-f]{32}\/[^/\\]+$/);
        expect(link.url).not.toContain("..");
      }
      const root = projectUploadsDir(dataDir, project.id);
      expect(
        filesUnder(root)
          .map((path) => path.split(sep)[1])
          .sort(),
      ).toEqual(["b.txt", "evil.png", "file", "secret.key"]);
      // Nothing but the project's uploads and its repository was written under the data dir.
      const written = filesUnder(dataDir).filter((path) => !path.startsWith(`repositories${sep}`));
      expect(written.every((path) => path.startsWith(`uploads${sep}`))).toBe(true);
    });

    it("refuses a file over max_attachment_size with 413, keeping nothing", async () => {
      const { project, me, disk } = await ownProject("dan");
      await disk.system.settings.update({ max_attachment_size: 1 });
      const tooBig = received(dataDir, "big.bin", Buffer.alloc(1024 * 1024 + 1));
      await expect(me.uploads.create({ id: project.id, file: tooBig })).rejects.toMatchObject({
        code: "PAYLOAD_TOO_LARGE",
        cause: { failure: { kind: "too_large" } },
      });
      expect(filesUnder(projectUploadsDir(dataDir, project.id))).toEqual([]);
      expect(await h().runtime.stores.uploads.countForProject(project.id)).toBe(0);
      const justFits = received(dataDir, "fits.bin", Buffer.alloc(1024 * 1024));
      expect((await me.uploads.create({ id: project.id, file: justFits })).url).toMatch(/fits\.bin$/);
    });

    it("moves only files received into the temp dir, never another path", async () => {
      const { project, me } = await ownProject("erin");
      const key = join(dataDir, "secret.key");
      writeFileSync(key, "KEY");
      const forged = new UploadedFile({
        tempPath: key,
        filename: "key.txt",
        size: 3,
        mimeType: "text/plain",
      });
      await expect(me.uploads.create({ id: project.id, file: forged })).rejects.toThrow(
        /temp dir of the data dir/,
      );
      const sneaky = new UploadedFile({
        tempPath: `${uploadTempDir(dataDir)}/../../secret.key`,
        filename: "key.txt",
        size: 3,
        mimeType: "text/plain",
      });
      await expect(me.uploads.create({ id: project.id, file: sneaky })).rejects.toThrow(
        /temp dir of the data dir/,
      );
      expect(readFileSync(key, "utf8")).toBe("KEY");
      expect(await h().runtime.stores.uploads.countForProject(project.id)).toBe(0);
    });

    it("lets whoever may upload_file upload: members, outsiders on public projects; not on archived ones", async () => {
      const { project, me, disk } = await ownProject("frank");
      const pub = (await me.projects.create({ name: "open", visibility_level: 20 })).project;
      const guest = await h().user("guest");
      const outsider = await h().user("outsider");
      await me.projectMembers.add({ id: project.id, user_id: guest.id, access_level: 10 });
      const upload = (caller: Caller, id: number) =>
        caller.uploads.create({ id, file: received(dataDir, "a.txt", "a") });
      await expect(upload(disk.as(guest), project.id)).resolves.toMatchObject({ alt: "a.txt" });
      await expect(upload(disk.as(outsider), project.id)).rejects.toMatchObject({
        cause: { failure: { kind: "not_found", subject: "project" } },
      });
      await expect(upload(disk.as(outsider), pub.id)).resolves.toMatchObject({ alt: "a.txt" });
      await expect(upload(disk.anonymous, pub.id)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
      await me.projects.archive({ id: project.id });
      await expect(upload(disk.as(guest), project.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    });

    it("locates a file for readers only, answering 404 for anything hidden or missing", async () => {
      const { project, me, disk, user } = await ownProject("gina");
      const pub = (await me.projects.create({ name: "open", visibility_level: 20 })).project;
      const outsider = await h().user("hank");
      const secretOf = (url: string) => url.split("/")[2] as string;
      const hidden = await me.uploads.create({ id: project.id, file: received(dataDir, "x.png", "x") });
      const shown = await me.uploads.create({ id: pub.id, file: received(dataDir, "y.txt", "y") });
      const where = (projectPath: string, secret: string, filename: string) => ({
        namespace: user.username,
        project: projectPath,
        secret,
        filename,
      });

      const located = await me.uploads.locate(where("files", secretOf(hidden.url), "x.png"));
      expect(readFileSync(located.path, "utf8")).toBe("x");
      expect(resolve(located.path).startsWith(resolve(projectUploadsDir(dataDir, project.id)))).toBe(true);
      for (const caller of [disk.as(outsider), disk.anonymous]) {
        await expect(
          caller.uploads.locate(where("files", secretOf(hidden.url), "x.png")),
        ).rejects.toMatchObject({
          code: "NOT_FOUND",
          cause: { failure: { kind: "not_found" } },
        });
        expect((await caller.uploads.locate(where("open", secretOf(shown.url), "y.txt"))).upload.size).toBe(
          1,
        );
      }
      for (const wrong of [
        where("open", secretOf(shown.url), "Y.txt"),
        where("open", secretOf(hidden.url), "x.png"),
        where("files", "0".repeat(32), "x.png"),
        where("nothing", secretOf(shown.url), "y.txt"),
      ]) {
        await expect(me.uploads.locate(wrong)).rejects.toMatchObject({ code: "NOT_FOUND" });
      }
      await expect(me.uploads.locate(where("open", "../../secret", "y.txt"))).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
    });

    it("removes a project's files with the project", async () => {
      const { project, me } = await ownProject("ivy");
      await me.uploads.create({ id: project.id, file: received(dataDir, "a.txt", "a") });
      expect(filesUnder(projectUploadsDir(dataDir, project.id))).toHaveLength(1);
      await me.projects.remove({ id: project.id });
      expect(existsSync(projectUploadsDir(dataDir, project.id))).toBe(false);
    });
  });
});
