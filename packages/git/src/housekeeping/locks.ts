import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { link, lstat, rename, unlink } from "node:fs/promises";
import { resolve, sep } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { GitError } from "../errors.js";
import { type GitOptions, type GitResult, runGit } from "../exec.js";
import { judgeLock } from "./abandoned.js";
import { registryOf } from "./registry.js";
import { asWrite, type RepositoryWrite } from "./writes.js";

// git: "Unable to create '/srv/repos/1.git/refs/heads/main.lock': File exists.", and for the
// file it writes the new packed refs to while it holds packed-refs.lock, "unable to create file
// /srv/repos/1.git/packed-refs.new: File exists".
const LOCK_EXISTS =
  /Unable to create '([^'\n]+\.lock)': File exists|unable to create file (\S+\/packed-refs\.new): File exists/g;

/** The lock files (and `packed-refs.new`) inside `gitDir` that git's `stderr` says were in its way. */
export function locksInTheWay(stderr: string, gitDir: string): string[] {
  const root = resolve(gitDir) + sep;
  const paths = [...stderr.matchAll(LOCK_EXISTS)].map((match) => resolve((match[1] ?? match[2]) as string));
  return [...new Set(paths.filter((path) => path.startsWith(root)))];
}

async function statOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Removes the lock file at `path` that was judged as `judged`. It is first renamed aside (still
 * ending in `.lock`, which git never reads as a ref): should another process have removed it and
 * a writer taken the lock again meanwhile, the file renamed is not the one judged, and is put
 * back.
 */
export async function removeLock(path: string, judged: Stats): Promise<void> {
  const aside = `${path}.kiln-${randomBytes(6).toString("hex")}.lock`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const taken = await lstat(aside);
  if (taken.ino !== judged.ino || taken.dev !== judged.dev) {
    await link(aside, path).catch(() => undefined);
  }
  await unlink(aside);
}

/**
 * Removes the lock files at `paths` that nobody can be holding (see {@link judgeLock}), on behalf
 * of the write `self`; waits, for a lock that may still be held by a git whose parent died, until
 * it settles. True when none of them is left; false as soon as one may be in use.
 */
export async function releaseAbandonedLocks(
  gitDir: string,
  paths: readonly string[],
  self: RepositoryWrite,
): Promise<boolean> {
  for (const path of paths) {
    for (;;) {
      const found = await statOrNull(path);
      if (!found) break;
      const verdict = await judgeLock(gitDir, found.mtimeMs, self, registryOf(gitDir));
      if (verdict.kind === "in_use") return false;
      if (verdict.kind === "abandoned") {
        await removeLock(path, found);
        break;
      }
      await sleep(Math.min(100, Math.max(1, verdict.at - Date.now())));
    }
  }
  return true;
}

/**
 * How many times a ref update is tried again after removing locks in its way: git stops at the
 * first lock it cannot take, and a killed update may leave four (the ref's, `HEAD.lock` for the
 * branch HEAD names, `packed-refs.lock` and `packed-refs.new` for a deletion).
 */
const LOCK_RETRIES = 4;

/**
 * Runs a git command that updates refs in `gitDir` as a write of this process (see
 * `beginWrite`). When it fails on lock files nobody holds (left by a git or a Kiln process
 * killed in the middle of an update), removes them and runs the command again.
 */
export function runRefWrite(
  gitDir: string,
  args: readonly string[],
  options: Omit<GitOptions, "gitDir"> = {},
): Promise<GitResult> {
  return asWrite(gitDir, async (self) => {
    for (let retries = 0; ; retries++) {
      try {
        return await runGit(args, { ...options, gitDir });
      } catch (error) {
        if (!GitError.is(error, "failed") || retries === LOCK_RETRIES) throw error;
        const locks = locksInTheWay(error.stderr, gitDir);
        if (locks.length === 0 || !(await releaseAbandonedLocks(gitDir, locks, self))) throw error;
      }
    }
  });
}
