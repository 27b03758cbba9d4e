import { rm } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import type { ServiceRuntime } from "./runtime.js";

/** Where a project's uploads live under the data dir: `uploads/<project id>/`. */
export function projectUploadsDir(dataDir: string, projectId: number): string {
  return join(dataDir, "uploads", String(projectId));
}

/**
 * Where request bodies' files are received before an operation moves them into place:
 * `tmp/uploads/` under the data dir, on the same file system, so that the move is a rename.
 */
export function uploadTempDir(dataDir: string): string {
  return join(dataDir, "tmp", "uploads");
}

/**
 * The absolute path of an upload: `uploads/<project id>/<secret>/<file name>`. The secret and the
 * name must each be one path segment (callers pass a generated secret and a sanitised name); the
 * resolved path is checked to be exactly two levels inside the project's uploads dir, so no
 * value can lead anywhere else.
 */
export function uploadFilePath(dataDir: string, projectId: number, secret: string, filename: string): string {
  const root = resolve(projectUploadsDir(dataDir, projectId));
  const path = resolve(root, secret, filename);
  if (!path.startsWith(root + sep) || dirname(dirname(path)) !== root) {
    throw new Error(`upload path outside ${root}: ${JSON.stringify([secret, filename])}`);
  }
  return path;
}

/** True when `path` names a file directly inside the temp dir of received files. */
export function isReceivedFilePath(dataDir: string, path: string): boolean {
  return dirname(resolve(path)) === resolve(uploadTempDir(dataDir));
}

/**
 * Removes everything a project keeps on disk: its uploads and its repository. Paths are built from
 * the project id only, never from names a user chose.
 */
export async function removeProjectFiles(runtime: ServiceRuntime, projectId: number): Promise<void> {
  if (!runtime.dataDir) return;
  await rm(projectUploadsDir(runtime.dataDir, projectId), { recursive: true, force: true });
  await rm(join(runtime.dataDir, "builds", String(projectId)), { recursive: true, force: true });
  await runtime.repositories?.remove(projectId);
}
