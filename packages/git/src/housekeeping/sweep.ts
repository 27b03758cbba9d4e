import { lstat, rm, unlink } from "node:fs/promises";
import { abandonedAtStart, gcRunning } from "./abandoned.js";
import { type Leftover, repositoryLeftovers, rootContents } from "./leftovers.js";
import { removeLock } from "./locks.js";
import type { ProcessRegistry } from "./registry.js";

/** What a sweep removed, and what it could not. */
export interface SweepReport {
  /** The paths removed. */
  removed: string[];
  /** The paths that could not be removed, with why. */
  failed: { path: string; error: string }[];
}

async function remove(leftover: Leftover): Promise<void> {
  if (leftover.kind === "directory") await rm(leftover.path, { recursive: true, force: true });
  else if (leftover.kind === "file") await unlink(leftover.path).catch(ignoreMissing);
  else {
    const found = await lstat(leftover.path).catch(() => undefined);
    if (found && found.mtimeMs === leftover.written) await removeLock(leftover.path, found);
  }
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== "ENOENT") throw error;
}

/** How many repositories are swept at once. */
const CONCURRENCY = 4;

/**
 * Removes what killed processes left under the repositories root of `registry` (which this
 * process joined before it wrote anything there): stale ref locks and `packed-refs.lock`,
 * `HEAD.lock`, `config.lock`; receive-pack's quarantine directories, temporary objects and packs,
 * and the `.keep` files of packs whose push never finished; Kiln's temporary index files; the
 * directories of repositories being created, forked or removed. Only what no running process
 * can be using goes (see {@link abandonedAtStart}); in a repository where `git gc` runs, nothing
 * younger than the grace period. Never rejects.
 */
export async function sweepRepositories(registry: ProcessRegistry): Promise<SweepReport> {
  const report: SweepReport = { removed: [], failed: [] };
  const others = await registry.others().catch(() => [{ started: 0 }]);
  const sweep = async (leftovers: readonly Leftover[], gc: boolean) => {
    for (const leftover of leftovers) {
      if (!abandonedAtStart(leftover.written, registry.started, others, gc)) continue;
      try {
        await remove(leftover);
        report.removed.push(leftover.path);
      } catch (error) {
        report.failed.push({ path: leftover.path, error: (error as Error).message });
      }
    }
  };
  const root = await rootContents(registry.root);
  await sweep(root.leftovers, false);
  const queue = [...root.repositories];
  const worker = async () => {
    for (let gitDir = queue.shift(); gitDir !== undefined; gitDir = queue.shift()) {
      try {
        const [leftovers, gc] = await Promise.all([repositoryLeftovers(gitDir), gcRunning(gitDir)]);
        await sweep(leftovers, gc);
      } catch (error) {
        report.failed.push({ path: gitDir, error: (error as Error).message });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return report;
}
