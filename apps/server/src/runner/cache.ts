import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { CacheOptions } from "./api-schema.js";
import type { StepContext } from "./artifacts.js";
import { collectPaths } from "./project-paths.js";
import { extractZip } from "./zip-read.js";
import { writeZip } from "./zip-write.js";

/**
 * The runner's cache: one zip per project and key under `<builds dir>/cache`, restored into the
 * project folder before the script and saved after a script that succeeded (GitLab runner 1.x's
 * rules). A cache that cannot be read or written is a warning, never a failed build.
 */
export class BuildCache {
  constructor(private readonly buildsDir: string) {}

  /** Where the cache of `key` for a project lives (the key cannot name a path of its own). */
  fileOf(projectId: number, key: string): string {
    const readable = encodeURIComponent(key).replace(/\./g, "%2E");
    const name = readable.length <= 120 ? readable : createHash("sha256").update(key).digest("hex");
    return join(this.buildsDir, "cache", `project-${projectId}`, `${name}.zip`);
  }

  async restore(context: StepContext, projectId: number, key: string): Promise<void> {
    const file = this.fileOf(projectId, key);
    context.say(`Checking cache for ${key}...`);
    if (!existsSync(file)) return;
    try {
      await extractZip(file, context.projectDir);
      context.say("Successfully extracted cache");
    } catch (error) {
      context.say(`WARNING: cache ${key} not restored: ${(error as Error).message}`);
    }
  }

  async save(context: StepContext, projectId: number, key: string, options: CacheOptions): Promise<void> {
    const collected = await collectPaths(context.projectDir, options.paths ?? [], options.untracked ?? false);
    for (const warning of collected.warnings) context.say(`WARNING: ${warning}`);
    if (collected.paths.length === 0) return;
    context.say(`Creating cache ${key}...`);
    const file = this.fileOf(projectId, key);
    const partial = join(context.tmpDir, "cache.zip");
    try {
      await writeZip(context.projectDir, collected.paths, partial);
      await mkdir(join(file, ".."), { recursive: true });
      await rename(partial, file); // a build killed mid-write leaves the old cache whole
      context.say("Created cache");
    } catch (error) {
      await rm(partial, { force: true });
      context.say(`WARNING: cache ${key} not saved: ${(error as Error).message}`);
    }
  }
}

/** The key of a job's cache: its `key` with variables expanded, else GitLab runner 1.x's `<job>/<ref>`. */
export function cacheKeyOf(
  options: CacheOptions,
  expand: (text: string) => string,
  job: string,
  ref: string,
): string {
  const key = options.key ? expand(options.key) : `${job}/${ref}`;
  return key === "" ? `${job}/${ref}` : key;
}
