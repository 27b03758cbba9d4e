import { realpathSync } from "node:fs";
import { resolve } from "node:path";

/** A write of this process into a repository that may hold git's locks there while it runs. */
export interface RepositoryWrite {
  /** When it began (ms since the epoch). */
  readonly started: number;
  /** Call once it is over: git no longer runs for it. */
  end(): void;
}

const inFlight = new Map<string, Set<RepositoryWrite>>();

/** The key of a repository: its real path, so that two spellings of one directory meet. */
function key(gitDir: string): string {
  try {
    return realpathSync.native(gitDir);
  } catch {
    return resolve(gitDir);
  }
}

/**
 * Records a write of this process into `gitDir` (a ref update, a push): until it ends, a lock
 * file written in that repository after it began may be its own, and is left alone.
 */
export function beginWrite(gitDir: string): RepositoryWrite {
  const dir = key(gitDir);
  const writes = inFlight.get(dir) ?? new Set();
  inFlight.set(dir, writes);
  const write: RepositoryWrite = {
    started: Date.now(),
    end: () => {
      writes.delete(write);
      if (writes.size === 0 && inFlight.get(dir) === writes) inFlight.delete(dir);
    },
  };
  writes.add(write);
  return write;
}

/** Runs `work` as a write into `gitDir` ({@link beginWrite}), ending it however `work` ends. */
export async function asWrite<T>(gitDir: string, work: (write: RepositoryWrite) => Promise<T>): Promise<T> {
  const write = beginWrite(gitDir);
  try {
    return await work(write);
  } finally {
    write.end();
  }
}

/** True when a write of this process into `gitDir` other than `except` was running at `time`. */
export function writingAt(gitDir: string, time: number, except?: RepositoryWrite): boolean {
  for (const write of inFlight.get(key(gitDir)) ?? []) {
    if (write !== except && write.started <= time) return true;
  }
  return false;
}
