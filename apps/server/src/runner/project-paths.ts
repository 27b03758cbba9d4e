import { execFile } from "node:child_process";
import { lstat, readdir } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The files, folders and links that paths name, relative to the project folder ("/"-separated). */
export interface CollectedPaths {
  paths: string[];
  /** Why a path gave nothing: outside the project folder, or nothing matches it. */
  warnings: string[];
}

/**
 * What `artifacts:paths` / `cache:paths` (with `untracked`) name in `projectDir`: a path names a
 * file, a link (kept as a link) or a folder with everything below it; `*`, `?`, `**` and `[…]`
 * match as in GitLab runner's globs; `untracked` adds what git does not track. Nothing outside
 * the project folder is ever named, and links are never followed.
 */
export async function collectPaths(
  projectDir: string,
  patterns: readonly string[],
  untracked: boolean,
): Promise<CollectedPaths> {
  const found = new Set<string>();
  const warnings: string[] = [];
  let tree: string[] | null = null;
  for (const pattern of patterns) {
    const path = insideProject(projectDir, pattern);
    if (path === null) {
      warnings.push(`${pattern}: outside the project directory, skipped`);
      continue;
    }
    const before = found.size;
    if (!/[*?[]/.test(path)) {
      await addWithin(projectDir, path, found);
    } else {
      tree ??= await walk(projectDir, "");
      const matcher = globToRegExp(path);
      for (const candidate of tree) {
        if (matcher.test(candidate)) await addWithin(projectDir, candidate, found);
      }
    }
    if (found.size === before) warnings.push(`${pattern}: no matching files`);
  }
  if (untracked) for (const path of await untrackedFiles(projectDir)) found.add(path);
  return { paths: [...found].sort(), warnings };
}

/** `pattern` relative to the project ("/"-separated, no `.` or `..` left), or null when it leaves it. */
function insideProject(projectDir: string, pattern: string): string | null {
  const absolute = resolve(projectDir, pattern);
  const path = relative(projectDir, absolute);
  if (path === "") return ".";
  if (path.split(sep)[0] === ".." || isAbsolute(path)) return null;
  return path.split(sep).join("/");
}

/** Adds `path` and, for a folder (not a link to one), everything below it; nothing reached through a link. */
async function addWithin(projectDir: string, path: string, found: Set<string>): Promise<void> {
  if (await throughLink(projectDir, path)) return;
  const stats = await lstat(join(projectDir, path)).catch(() => null);
  if (!stats) return;
  if (path !== ".") found.add(path);
  if (stats.isDirectory())
    for (const below of await walk(projectDir, path === "." ? "" : path)) found.add(below);
}

/** Whether a folder on the way to `path` is a link (which could lead out of the project). */
export async function throughLink(root: string, path: string): Promise<boolean> {
  const names = path.split("/").slice(0, -1);
  for (let depth = 1; depth <= names.length; depth++) {
    const stats = await lstat(join(root, ...names.slice(0, depth))).catch(() => null);
    if (stats?.isSymbolicLink()) return true;
  }
  return false;
}

/** Every path below `from` (links not followed; the top `.git` left out). */
async function walk(projectDir: string, from: string): Promise<string[]> {
  const paths: string[] = [];
  const entries = await readdir(join(projectDir, from), { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = from === "" ? entry.name : `${from}/${entry.name}`;
    if (path === ".git") continue;
    paths.push(path);
    if (entry.isDirectory()) paths.push(...(await walk(projectDir, path)));
  }
  return paths;
}

/** A glob as a RegExp over "/"-separated paths: `**` any folders, `*` and `?` within one name. */
export function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      source += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end === -1) source += "\\[";
      else {
        const set = glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\");
        source += `[${set}]`;
        i = end;
      }
    } else source += char.replace(/[.+^${}()|\\\]]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/** The files git does not track (ignored ones included, as GitLab runner's `untracked`). */
async function untrackedFiles(projectDir: string): Promise<string[]> {
  const { stdout } = await run("git", ["ls-files", "-o", "-z"], {
    cwd: projectDir,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout.split("\0").filter((path) => path !== "");
}
