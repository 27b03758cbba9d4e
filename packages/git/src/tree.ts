import { checkObjects } from "./cat-file.js";
import { GitError } from "./errors.js";
import { runGit } from "./exec.js";
import { assertRevision, normalizeTreePath } from "./validate.js";

/** One entry of a tree listing, as GitLab's RepoTreeObject. */
export interface RepoTreeObject {
  id: string;
  name: string;
  type: "tree" | "blob" | "commit";
  /** The path from the repository root. */
  path: string;
  /** Octal mode padded to six digits: `"040000"`, `"100644"`, `"100755"`, `"120000"`, `"160000"`. */
  mode: string;
}

/** One `ls-tree -z` line of tree `id` (listed at `base`), or null for a line it cannot read. */
export function parseLsTreeLine(line: string, base: string): RepoTreeObject | null {
  const match = /^(\d{6}) (tree|blob|commit) ([0-9a-f]{40,64})\t(.*)$/s.exec(line);
  if (!match) return null;
  const relative = match[4]!;
  const path = base === "" ? relative : `${base}/${relative}`;
  return {
    id: match[3]!,
    name: relative.slice(relative.lastIndexOf("/") + 1),
    type: match[2] as RepoTreeObject["type"],
    path,
    mode: match[1]!,
  };
}

const ORDER = { tree: 0, blob: 1, commit: 2 } as const;

/**
 * The entries of directory `path` (default the root) at revision `rev`: directories first, then
 * files, then submodules, each group in git's order; with `recursive`, every entry below it too
 * (directories included). As GitLab 8.x: an unknown revision throws `not_found` (subject
 * `revision`); a path that is missing or not a directory answers `[]`.
 */
export async function listTree(
  gitDir: string,
  rev: string,
  options: { path?: string; recursive?: boolean } = {},
): Promise<RepoTreeObject[]> {
  assertRevision(rev);
  const path = normalizeTreePath(options.path);
  const [commit, tree] = await checkObjects(gitDir, [`${rev}^{commit}`, `${rev}^{commit}:${path}`]);
  if (!commit) throw new GitError("not_found", `no commit ${JSON.stringify(rev)}`, "", "revision");
  if (tree?.type !== "tree") return [];
  const args = ["ls-tree", "-z", ...(options.recursive ? ["-r", "-t"] : []), "--end-of-options", tree.id];
  const { stdout } = await runGit(args, { gitDir });
  const entries: RepoTreeObject[] = [];
  for (const line of stdout.toString("utf8").split("\0")) {
    const entry = parseLsTreeLine(line, path);
    if (entry) entries.push(entry);
  }
  // Array.prototype.sort is stable: within a group, git's order stays.
  return entries.sort((a, b) => ORDER[a.type] - ORDER[b.type]);
}
