import { mkdir, open, readFile, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ServiceRuntime } from "../runtime.js";

/** Where a project's build files live under the data dir: `builds/<project id>/`. */
export function projectBuildsDir(dataDir: string, projectId: number): string {
  return join(dataDir, "builds", String(projectId));
}

/** The file of one build's trace or artifacts archive; made of ids only. */
export function buildFilePath(
  runtime: ServiceRuntime,
  build: { id: number; project_id: number },
  kind: "trace.log" | "artifacts.zip",
): string {
  if (!runtime.dataDir) throw new Error("this runtime keeps no build files: it was given no data dir");
  return join(projectBuildsDir(runtime.dataDir, build.project_id), String(build.id), kind);
}

/**
 * Writes `bytes` at `offset` of a file (made if missing) and cuts it there: a trace append that
 * follows what is recorded, overwriting whatever a failed append left past it.
 */
export async function writeAt(path: string, offset: number, bytes: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  // "a+" makes the file when missing; positioned writes need "r+" (appends ignore the position).
  await (await open(path, "a+")).close();
  const file = await open(path, "r+");
  try {
    await file.write(bytes, 0, bytes.length, offset);
    await file.truncate(offset + bytes.length);
  } finally {
    await file.close();
  }
}

/** The first `size` bytes of a file (what the row records), or empty when it is missing. */
export async function readUpTo(path: string, size: number): Promise<Buffer> {
  try {
    const content = await readFile(path);
    return content.subarray(0, size);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return Buffer.alloc(0);
    throw error;
  }
}

/** Removes a build file if it is there. */
export async function removeFile(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** The size of a file, or null when it is missing. */
export async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}
