import type { Dirent } from "node:fs";
import { lstat, readdir, rm, rmdir } from "node:fs/promises";
import { join } from "node:path";
import type { ServiceRuntime } from "../runtime.js";
import { projectUploadsDir, uploadTempDir } from "../storage-files.js";

/**
 * How old a leftover must be before it is reclaimed. Another process sharing the data dir (on
 * PostgreSQL) may be in the middle of an upload: its temp file grows while the request arrives
 * (which the server cuts off after 11 minutes) and its file waits in place only until its row is
 * committed, an instant later. Anything untouched for an hour belongs to no upload in progress.
 */
export const LEFTOVER_AGE_MS = 60 * 60_000;

/** What {@link reclaimUploadLeftovers} removed. */
export interface ReclaimedUploads {
  /** Received files never moved into place. */
  tempFiles: number;
  /** Files moved into place whose upload was never recorded (or whose project was deleted). */
  files: number;
}

// The names uploads are stored under: `uploads/<project id>/<secret>/` (ids within a 32-bit integer
// column's range, so that no odd name can fail the row lookup).
const PROJECT_DIR = /^[1-9][0-9]{0,8}$/;
const SECRET_DIR = /^[0-9a-f]{32}$/;

/**
 * Removes what interrupted uploads left on disk: received files still in the temp dir, and files
 * in place under the uploads dir without an upload row (a process killed between moving the file
 * and recording it, or between deleting a project and its files). Only leftovers older than
 * {@link LEFTOVER_AGE_MS} go, so an upload in progress in another process is never touched, and a
 * file whose row exists never is. Meant to run at start.
 */
export async function reclaimUploadLeftovers(runtime: ServiceRuntime): Promise<ReclaimedUploads> {
  const dataDir = runtime.dataDir;
  if (!dataDir) return { tempFiles: 0, files: 0 };
  const before = Date.now() - LEFTOVER_AGE_MS;
  const tempFiles = await removeOldFiles(uploadTempDir(dataDir), before);
  let files = 0;
  for (const entry of await entriesOf(join(dataDir, "uploads"))) {
    if (!entry.isDirectory() || !PROJECT_DIR.test(entry.name)) continue;
    files += await reclaimProjectUploads(runtime, dataDir, Number(entry.name), before);
  }
  return { tempFiles, files };
}

/** Removes a project's upload dirs that have no row and were last changed before `before`. */
async function reclaimProjectUploads(
  runtime: ServiceRuntime,
  dataDir: string,
  projectId: number,
  before: number,
): Promise<number> {
  const dir = projectUploadsDir(dataDir, projectId);
  // Rows first, then the disk: an upload recorded meanwhile has a dir changed just now.
  const recorded = await runtime.stores.uploads.secretsOf(projectId);
  let removed = 0;
  for (const entry of await entriesOf(dir)) {
    if (!entry.isDirectory() || !SECRET_DIR.test(entry.name) || recorded.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (!(await changedBefore(path, before))) continue;
    await rm(path, { recursive: true, force: true });
    removed++;
  }
  if (recorded.size === 0 && !(await runtime.stores.projects.findById(projectId))) {
    // A deleted project's dir: no upload can be added to it any more.
    await rmdir(dir).catch(() => undefined);
  }
  return removed;
}

/** Removes the regular files directly in `dir` last changed before `before`. */
async function removeOldFiles(dir: string, before: number): Promise<number> {
  let removed = 0;
  for (const entry of await entriesOf(dir)) {
    const path = join(dir, entry.name);
    if (!entry.isFile() || !(await changedBefore(path, before))) continue;
    await rm(path, { force: true });
    removed++;
  }
  return removed;
}

/** The entries of a directory; none when it does not exist (yet, or any more). */
async function entriesOf(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** Whether `path` was last modified before `before`; false when it is gone. */
async function changedBefore(path: string, before: number): Promise<boolean> {
  try {
    return (await lstat(path)).mtimeMs < before;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
