import { mkdir, rename } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { forbidden, notFound } from "@kiln/domain";
import type { UploadedFile } from "@kiln/schemas";
import type { CiBuild } from "@kiln/storage-kysely";
import type { ServiceRuntime } from "../runtime.js";
import { requireBuildByToken } from "./build-auth.js";
import { buildFilePath, removeFile } from "./files.js";
import { checkArtifactsArchive } from "./zip-check.js";

/** The largest artifacts archive a runner may upload, in bytes: the `max_artifacts_size` setting (MB). */
export async function artifactsLimitBytes(runtime: ServiceRuntime): Promise<number> {
  return (await runtime.settings()).max_artifacts_size * 1024 * 1024;
}

/** `expire_in` as 8.x reads it (`1 week`, `3 mins 4 sec`, `2h`): seconds, or null when unreadable. */
export function durationSeconds(text: string): number | null {
  const units: Record<string, number> = {
    s: 1,
    m: 60,
    h: 3600,
    d: 86400,
    w: 604800,
    mo: 2592000,
    y: 31536000,
  };
  const unitOf = (word: string): number | undefined => {
    if (/^mo(n(th)?s?)?$/.test(word)) return units["mo"];
    if (/^mi?n?(ute)?s?$/.test(word) || word === "mins") return units["m"];
    return units[word[0] ?? ""];
  };
  let total = 0;
  let matched = false;
  for (const [, amount, unit] of text.toLowerCase().matchAll(/(\d+)\s*([a-z]+)?/g)) {
    const factor = unit === undefined ? 1 : unitOf(unit);
    if (factor === undefined) return null;
    total += Number(amount) * factor;
    matched = true;
  }
  return matched ? total : null;
}

/**
 * Keeps a running build's artifacts archive (`POST /ci/api/v1/builds/:id/artifacts`): the build
 * token is required; the file must be a zip whose entries stay inside the build's folder and
 * whose content is not a bomb (see `zip-check.ts`). The archive replaces any earlier one. 403
 * when the build is not running.
 */
export async function storeArtifacts(
  runtime: ServiceRuntime,
  buildId: number,
  token: string | undefined,
  file: UploadedFile,
  expireIn: string | undefined,
): Promise<CiBuild> {
  const build = await requireBuildByToken(runtime, buildId, token);
  if (build.status !== "running") throw forbidden();
  await checkArtifactsArchive(file.tempPath, file.size);
  const target = buildFilePath(runtime, build, "artifacts.zip");
  await mkdir(dirname(target), { recursive: true });
  await rename(file.tempPath, target);
  const seconds = expireIn === undefined ? null : durationSeconds(expireIn);
  const updated = await runtime.stores.ciBuilds.update(build.id, {
    artifacts_file: basename(file.filename.replaceAll("\\", "/")) || "artifacts.zip",
    artifacts_size: file.size,
    artifacts_expire_at: seconds === null ? null : new Date(Date.now() + seconds * 1000).toISOString(),
  });
  return updated ?? build;
}

/** Where a build's artifacts archive is; 404 when it has none. */
export function artifactsPath(runtime: ServiceRuntime, build: CiBuild): string {
  if (build.artifacts_file === null || build.erased_at !== null) throw notFound();
  return buildFilePath(runtime, build, "artifacts.zip");
}

/** Removes a build's artifacts (the file, then the row's facts). */
export async function removeArtifacts(runtime: ServiceRuntime, build: CiBuild): Promise<CiBuild> {
  const updated = await runtime.stores.ciBuilds.update(build.id, {
    artifacts_file: null,
    artifacts_size: null,
    artifacts_expire_at: null,
  });
  await removeFile(buildFilePath(runtime, build, "artifacts.zip"));
  return updated ?? build;
}

/** The artifacts of a build, for a runner holding a token of it or of a running build of its project. */
export async function runnerArtifacts(
  runtime: ServiceRuntime,
  buildId: number,
  token: string | undefined,
): Promise<{ build: CiBuild; path: string }> {
  const build = await requireBuildByToken(runtime, buildId, token, { sameProject: true });
  return { build, path: artifactsPath(runtime, build) };
}

/** Removes a build's artifacts at its runner's request (build token). */
export async function removeRunnerArtifacts(
  runtime: ServiceRuntime,
  buildId: number,
  token: string | undefined,
): Promise<void> {
  const build = await requireBuildByToken(runtime, buildId, token);
  await removeArtifacts(runtime, build);
}
