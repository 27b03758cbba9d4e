import { runGit } from "../exec.js";
import type { ReceiveReport } from "./report-status.js";
import type { RefUpdate } from "./types.js";

const BATCH = 200;

/**
 * The updates of a push that git applied. With receive-pack's report, those it reported `ok`;
 * without one (a client that did not ask for it, or a push cut short), those whose ref now
 * holds the pushed value (or is gone, for a delete).
 */
export async function appliedUpdates(
  gitDir: string,
  requested: readonly RefUpdate[],
  report: ReceiveReport | undefined,
): Promise<RefUpdate[]> {
  if (report) return requested.filter((update) => report.ok.has(update.ref));
  if (requested.length === 0) return [];
  const current = await refValues(
    gitDir,
    requested.map((update) => update.ref),
  );
  return requested.filter((update) =>
    update.kind === "delete" ? !current.has(update.ref) : current.get(update.ref) === update.newSha,
  );
}

/** The current values of `refs` that exist (names exactly as given). */
export async function refValues(gitDir: string, refs: readonly string[]): Promise<Map<string, string>> {
  const wanted = new Set(refs);
  const values = new Map<string, string>();
  for (let start = 0; start < refs.length; start += BATCH) {
    // for-each-ref matches prefixes too (refs/heads/a also gives refs/heads/a/b): keep exact names.
    const batch = refs.slice(start, start + BATCH);
    const { stdout } = await runGit(["for-each-ref", "--format=%(objectname) %(refname)", ...batch], {
      gitDir,
    });
    for (const line of stdout.toString("utf8").split("\n")) {
      const space = line.indexOf(" ");
      const ref = line.slice(space + 1);
      if (space > 0 && wanted.has(ref)) values.set(ref, line.slice(0, space));
    }
  }
  return values;
}
