import { GitError } from "./errors.js";
import { gitText } from "./exec.js";

/** The oldest git this package works with (`git merge-tree --write-tree` came in 2.38). */
export const MIN_GIT_VERSION = "2.38.0";

/** `[major, minor, patch]` of a `git --version` line, or `null` when it has no version. */
export function parseGitVersion(text: string): [number, number, number] | null {
  const match = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : null;
}

function atLeast(version: readonly number[], minimum: readonly number[]): boolean {
  for (let i = 0; i < minimum.length; i++) {
    const a = version[i] ?? 0;
    const b = minimum[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

/**
 * Checks that the system `git` can serve Kiln: answers its version (`2.39.5`), or throws a
 * {@link GitError} `failed` saying what is missing (no git on PATH, or one older than 2.38).
 */
export async function checkGitVersion(): Promise<string> {
  let text: string;
  try {
    text = await gitText(["--version"]);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new GitError(
      "failed",
      `Kiln needs git ${MIN_GIT_VERSION} or newer on PATH; running git failed: ${reason}`,
    );
  }
  const version = parseGitVersion(text);
  const minimum = parseGitVersion(MIN_GIT_VERSION) ?? [2, 38, 0];
  if (!version || !atLeast(version, minimum)) {
    throw new GitError("failed", `Kiln needs git ${MIN_GIT_VERSION} or newer; found "${text.trim()}"`);
  }
  return version.join(".");
}
