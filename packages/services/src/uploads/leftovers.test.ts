import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { forEachDialect } from "../__tests__/harness.js";
import { ServiceRuntime } from "../runtime.js";
import { projectUploadsDir, uploadFilePath, uploadTempDir } from "../storage-files.js";
import { LEFTOVER_AGE_MS, reclaimUploadLeftovers } from "./leftovers.js";

const newSecret = () => randomBytes(16).toString("hex");

/** Writes a file (and its dirs), as an upload or a kill leaves it. */
function put(path: string, content = "bytes"): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

/** Sets the modification time of each path to just over the leftover age ago. */
function backdate(...paths: string[]): void {
  const then = new Date(Date.now() - LEFTOVER_AGE_MS - 60_000);
  for (const path of paths) utimesSync(path, then, then);
}

forEachDialect((h) => {
  describe("reclaimUploadLeftovers", () => {
    let dataDir: string;
    let runtime: ServiceRuntime;
    beforeEach(() => {
      dataDir = mkdtempSync(join(tmpdir(), "kiln-leftovers-"));
      runtime = new ServiceRuntime({
        stores: h().runtime.stores,
        secretKey: randomBytes(32),
        singleProcess: false,
        dataDir,
      });
    });
    afterEach(() => {
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** A project of alice's, and alice. */
    async function project() {
      const owner = await h().user("alice");
      return { ...(await h().as(owner).projects.create({ name: "files" })).project, owner };
    }

    it("removes old received files and old files in place without a row; keeps recorded files and recent leftovers", async () => {
      const { id } = await project();
      const recorded = { secret: newSecret(), filename: "kept.png" };
      await runtime.stores.uploads.create({ ...recorded, project_id: id, uploader_id: null, size: 5 });
      const kept = put(uploadFilePath(dataDir, id, recorded.secret, recorded.filename));
      const unrecorded = put(uploadFilePath(dataDir, id, newSecret(), "lost.png"));
      const emptyDir = dirname(uploadFilePath(dataDir, id, newSecret(), "never-moved.png"));
      mkdirSync(emptyDir, { recursive: true });
      const recent = put(uploadFilePath(dataDir, id, newSecret(), "in-progress.png"));
      const oldTemp = put(join(uploadTempDir(dataDir), "upload-old"));
      const recentTemp = put(join(uploadTempDir(dataDir), "upload-new"));
      backdate(kept, dirname(kept), unrecorded, dirname(unrecorded), emptyDir, oldTemp);

      expect(await reclaimUploadLeftovers(runtime)).toEqual({ tempFiles: 1, files: 2 });
      expect(existsSync(kept)).toBe(true);
      expect(existsSync(dirname(unrecorded))).toBe(false);
      expect(existsSync(emptyDir)).toBe(false);
      expect(existsSync(recent)).toBe(true);
      expect(existsSync(oldTemp)).toBe(false);
      expect(existsSync(recentTemp)).toBe(true);
      // Nothing else is left to take.
      expect(await reclaimUploadLeftovers(runtime)).toEqual({ tempFiles: 0, files: 0 });
    });

    it("removes the files a deleted project left behind, and their dir", async () => {
      const { id, owner } = await project();
      await h().as(owner).projects.remove({ id });
      const left = put(uploadFilePath(dataDir, id, newSecret(), "a.txt"));
      backdate(left, dirname(left));

      expect(await reclaimUploadLeftovers(runtime)).toEqual({ tempFiles: 0, files: 1 });
      expect(existsSync(projectUploadsDir(dataDir, id))).toBe(false);
    });

    it("does nothing without a data dir, or on one where nothing was ever uploaded", async () => {
      const nowhere = new ServiceRuntime({
        stores: h().runtime.stores,
        secretKey: randomBytes(32),
        singleProcess: false,
        dataDir: null,
      });
      expect(await reclaimUploadLeftovers(nowhere)).toEqual({ tempFiles: 0, files: 0 });
      expect(await reclaimUploadLeftovers(runtime)).toEqual({ tempFiles: 0, files: 0 });
    });
  });
});
