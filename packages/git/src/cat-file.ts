import { GitError } from "./errors.js";
import { runGit } from "./exec.js";

/**
 * Several objects in one git process (`cat-file --batch-check` / `--batch`) instead of a process
 * per object. Each request line is an object name (an id, a ref, `rev^{commit}`, `sha:path`); the
 * callers validate them, and none may hold a newline.
 */

/** What `--batch-check` knows of one requested name; `null` when git has no such object. */
export interface ObjectInfo {
  id: string;
  type: string;
  size: number;
}

/** One object read by {@link readObjects}. */
export interface GitObject extends ObjectInfo {
  content: Buffer;
}

function requestLines(names: readonly string[]): string {
  for (const name of names) {
    if (name.includes("\n") || name.includes("\0"))
      throw new GitError("invalid", "newline in an object name");
  }
  return names.map((name) => `${name}\n`).join("");
}

/** Looks up each name (one process): its id, type and size, or `null` when it does not resolve. */
export async function checkObjects(gitDir: string, names: readonly string[]): Promise<(ObjectInfo | null)[]> {
  if (names.length === 0) return [];
  const { stdout } = await runGit(["cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)"], {
    gitDir,
    input: requestLines(names),
  });
  const lines = stdout.toString("utf8").split("\n");
  return names.map((_, i) => parseInfo(lines[i] ?? ""));
}

function parseInfo(line: string): ObjectInfo | null {
  const match = /^([0-9a-f]{40,64}) (\w+) (\d+)$/.exec(line);
  return match ? { id: match[1]!, type: match[2]!, size: Number(match[3]) } : null;
}

/** Reads each name's object with its content (one process), or `null` when it does not resolve. */
export async function readObjects(gitDir: string, names: readonly string[]): Promise<(GitObject | null)[]> {
  if (names.length === 0) return [];
  const { stdout } = await runGit(["cat-file", "--batch=%(objectname) %(objecttype) %(objectsize)"], {
    gitDir,
    input: requestLines(names),
  });
  const objects: (GitObject | null)[] = [];
  let offset = 0;
  for (let i = 0; i < names.length; i++) {
    const newline = stdout.indexOf(10, offset);
    if (newline < 0) throw new GitError("failed", "cat-file --batch answered less than asked");
    const info = parseInfo(stdout.subarray(offset, newline).toString("utf8"));
    offset = newline + 1;
    if (info === null) {
      objects.push(null);
      continue;
    }
    objects.push({ ...info, content: stdout.subarray(offset, offset + info.size) });
    offset += info.size + 1; // the content, then a newline
  }
  return objects;
}
