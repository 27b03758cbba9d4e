import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { ServiceRuntime } from "./runtime.js";

/** Where a project's uploads live under the data dir: `uploads/<project id>/`. */
export function projectUploadsDir(dataDir: string, projectId: number): string {
  return join(dataDir, "uploads", String(projectId));
}

/**
 * Removes everything a project keeps on disk. Paths are built from the project id only, never
 * from names a user chose.
 */
export async function removeProjectFiles(runtime: ServiceRuntime, projectId: number): Promise<void> {
  if (!runtime.dataDir) return;
  await rm(projectUploadsDir(runtime.dataDir, projectId), { recursive: true, force: true });
}
