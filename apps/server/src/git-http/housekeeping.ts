import { type Housekeeping, startHousekeeping } from "@kiln/git";
import type { ServiceRuntime } from "@kiln/services";
import type { Logger } from "../logger.js";

/** How many removed paths the log line names (the count is always there). */
const LOGGED_PATHS = 20;

/**
 * Starts the housekeeping of the server's repositories (see `startHousekeeping` in `@kiln/git`)
 * and logs what its start-up sweep removed (what killed processes left there). Undefined when the runtime hosts no repositories.
 */
export async function startGitHousekeeping(
  runtime: ServiceRuntime,
  log: Logger,
  pushRuntimeDir: string,
): Promise<Housekeeping | undefined> {
  if (!runtime.repositories) return undefined;
  const housekeeping = await startHousekeeping({ root: runtime.repositories.root, pushRuntimeDir });
  void housekeeping.swept.then(({ removed, failed }) => {
    log.info({ removed: removed.length, paths: removed.slice(0, LOGGED_PATHS) }, "swept the repositories");
    if (failed.length > 0) {
      log.warn({ failed: failed.slice(0, LOGGED_PATHS) }, "could not remove leftovers in the repositories");
    }
  });
  return housekeeping;
}
