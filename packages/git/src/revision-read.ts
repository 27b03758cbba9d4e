import { GitError } from "./errors.js";
import { type GitOptions, type GitResult, runGit } from "./exec.js";

/** What git says when a revision it was handed names no object, or none of the type asked for. */
const UNKNOWN_REVISION =
  /bad revision|unknown revision|bad object|ambiguous argument|not a tree object|not a valid (?:object name|commit)/i;

/**
 * Runs git on revisions a caller chose, turning git's refusal of one that names nothing into
 * `not_found` (subject `revision`); any other failure stays `failed`. The arguments must put the
 * revisions after `--end-of-options` and, for commands that also take paths, before `--`, so that
 * git reads them neither as options nor as files (it would stat them in its working directory).
 */
export async function runOnRevisions(args: readonly string[], options: GitOptions): Promise<GitResult> {
  try {
    return await runGit(args, options);
  } catch (error) {
    if (GitError.is(error, "failed") && UNKNOWN_REVISION.test(error.stderr)) {
      throw new GitError("not_found", "no such revision", error.stderr, "revision");
    }
    throw error;
  }
}
