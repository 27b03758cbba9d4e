import { readFile, stat } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { type ProcessRegistry, type RegisteredProcess, runningAt } from "./registry.js";
import { type RepositoryWrite, writingAt } from "./writes.js";

/**
 * Longer than any git Kiln starts may run (a push is killed after 10 minutes, other commands after
 * one): a file this old is no running git's, whoever wrote it. Gitaly waits an hour for ref locks;
 * Kiln knows how long its own git may live.
 */
export const GRACE_MS = 15 * 60_000;

/**
 * How long a lock may be held by a git whose parent died just before (it finishes its transaction
 * on its own, in milliseconds): a lock younger than this is not taken from anyone.
 */
export const SETTLE_MS = 2_000;

/**
 * How much earlier than the clock a file's mtime may read (coarse timestamps, a file server's own
 * clock): a file is attributed to a writer that began up to this long after its mtime.
 */
export const MTIME_SLACK_MS = 2_000;

/**
 * Whether a `git gc` may be running in the repository: its `gc.pid` names a running process of
 * this host, or one of another host written within the grace period (gc holds `packed-refs.lock`
 * and ref locks while it packs refs, and may run detached from whoever started it).
 */
export async function gcRunning(gitDir: string): Promise<boolean> {
  const path = join(gitDir, "gc.pid");
  const [text, info] = await Promise.all([
    readFile(path, "utf8").catch(() => undefined),
    stat(path).catch(() => undefined),
  ]);
  if (text === undefined || info === undefined) return false;
  const [pid, host] = text.trim().split(" ", 2);
  if (host !== hostname() || !/^\d+$/.test(pid ?? "")) return Date.now() - info.mtimeMs < GRACE_MS;
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** What a lock file found in the way of a write is. */
export type LockVerdict =
  /** Nobody can be holding it: remove it. */
  | { kind: "abandoned" }
  /** A running writer may hold it: leave it. */
  | { kind: "in_use" }
  /** Abandoned unless a git that lost its parent still holds it: ask again at `at`. */
  | { kind: "settling"; at: number };

/**
 * Judges a lock file written at `written` (its mtime) in `gitDir`, which the write `self` of
 * this process found in its way. It may be held by another write of this process into the
 * repository that began before it was written, by another running Kiln process that had started
 * by then (see {@link ProcessRegistry}; a process that joined no registry cannot rule them out),
 * by a `git gc`, or, for {@link SETTLE_MS}, by a git whose parent died. Older than
 * {@link GRACE_MS}, it is nobody's.
 */
export async function judgeLock(
  gitDir: string,
  written: number,
  self: RepositoryWrite,
  registry: ProcessRegistry | undefined,
): Promise<LockVerdict> {
  const now = Date.now();
  if (now - written >= GRACE_MS) return { kind: "abandoned" };
  if (!registry || writingAt(gitDir, written + MTIME_SLACK_MS, self)) return { kind: "in_use" };
  if (runningAt(await registry.others(), written) || (await gcRunning(gitDir))) return { kind: "in_use" };
  return now - written < SETTLE_MS ? { kind: "settling", at: written + SETTLE_MS } : { kind: "abandoned" };
}

/**
 * Whether a leftover (a lock, a temporary object, a quarantine directory) last written at
 * `written` was abandoned by a process that stopped, as the start-up sweep of a process that
 * registered at `started` sees it, with `others` the other processes that may be running and
 * `gc` whether `git gc` may be running in its repository: older than {@link GRACE_MS}, or written
 * before this process started while no other running process had, and gc does not run.
 */
export function abandonedAtStart(
  written: number,
  started: number,
  others: readonly RegisteredProcess[],
  gc: boolean,
): boolean {
  if (Date.now() - written >= GRACE_MS) return true;
  return !gc && written + MTIME_SLACK_MS < started && !runningAt(others, written);
}
