import { sweepPushRuntimes } from "../push/runtime-sweep.js";
import { joinRegistry, leaveRegistry } from "./registry.js";
import { type SweepReport, sweepRepositories } from "./sweep.js";

/** Options of {@link startHousekeeping}. */
export interface HousekeepingOptions {
  /** The repositories root (`RepositoryStore.root`). */
  root: string;
  /** The push gate's `runtimeDir`, where gates of stopped processes left their directories. */
  pushRuntimeDir?: string;
}

/** This process's part in the housekeeping of a repositories root. */
export interface Housekeeping {
  /** The start-up sweep, which runs in the background; never rejects. */
  readonly swept: Promise<SweepReport>;
  /** Waits for the sweep and leaves the registry: call once the process writes no more. */
  stop(): Promise<void>;
}

/**
 * Starts the housekeeping of the repositories under `root`, before the process writes there:
 * registers the process beside the others sharing the root (so that ref updates can tell a lock a
 * killed process left from one a running process holds, and remove the first on the spot), then
 * sweeps in the background what killed processes left behind: stale ref locks, quarantine
 * directories and temporary packs, half-built repositories, and the push gates' runtime
 * directories.
 */
export async function startHousekeeping(options: HousekeepingOptions): Promise<Housekeeping> {
  const registry = await joinRegistry(options.root);
  const swept = (async () => {
    const [repositories, gates] = await Promise.all([
      sweepRepositories(registry),
      options.pushRuntimeDir === undefined ? undefined : sweepPushRuntimes(options.pushRuntimeDir),
    ]);
    return {
      removed: [...repositories.removed, ...(gates?.removed ?? [])],
      failed: [...repositories.failed, ...(gates?.failed ?? [])],
    };
  })().catch((error: Error) => ({ removed: [], failed: [{ path: registry.root, error: error.message }] }));
  return {
    swept,
    stop: async () => {
      await swept;
      await leaveRegistry(registry);
    },
  };
}
