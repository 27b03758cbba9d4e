import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { checkObjects } from "./cat-file.js";
import { READ_ENV } from "./commits.js";
import { GitError } from "./errors.js";
import { runGit } from "./exec.js";
import { identityEnv } from "./identity.js";
import { updateRef } from "./ref-update.js";
import { isEmptyRepository, readRef, setDefaultBranch } from "./refs.js";
import type { GitIdentity } from "./types.js";
import { assertFilePath, assertRevision, branchRef } from "./validate.js";

/** One change of {@link commitFiles}; contents are bytes (the caller decodes text or base64). */
export type FileAction =
  | { action: "create"; path: string; content: Buffer; executable?: boolean }
  | { action: "update"; path: string; content: Buffer }
  | { action: "delete"; path: string }
  /** Renames `previousPath` to `path`, with new content when given. */
  | { action: "move"; path: string; previousPath: string; content?: Buffer };

/** What {@link commitFiles} commits. */
export interface CommitFilesOptions {
  /** The branch the commit goes onto. */
  branch: string;
  /** The commit message, stored as given. */
  message: string;
  author: GitIdentity;
  /** Default: the author. */
  committer?: GitIdentity;
  /** The changes, applied in order. */
  actions: readonly FileAction[];
  /** The branch head the caller based the change on: `ref_moved` when the branch is elsewhere. */
  expectedHead?: string;
  /**
   * Where a branch that does not exist yet starts (a revision). Without it a missing branch is
   * `not_found`, except in an empty repository, where the commit is the first one.
   */
  startPoint?: string;
}

/** The commit {@link commitFiles} made. */
export interface CommitFilesResult {
  commit: string;
  /** Its parent; `null` for the first commit of an empty repository. */
  parent: string | null;
  branch: string;
}

interface Entry {
  mode: string;
  type: string;
  id: string;
}

/** A tree being edited: the parent's entries on the paths involved, and the changes so far. */
class Draft {
  /** Path → the new file (mode, blob id), or null for a deleted one. */
  readonly changes = new Map<string, { mode: string; id: string } | null>();
  private readonly createdDirs = new Set<string>();

  constructor(private readonly original: ReadonlyMap<string, Entry>) {}

  kind(path: string): string | null {
    const changed = this.changes.get(path);
    if (changed !== undefined) return changed === null ? null : "blob";
    if (this.createdDirs.has(path)) return "tree";
    return this.original.get(path)?.type ?? null;
  }

  file(path: string): { mode: string; id: string } | null {
    const changed = this.changes.get(path);
    if (changed !== undefined) return changed;
    const entry = this.original.get(path);
    return entry?.type === "blob" ? { mode: entry.mode, id: entry.id } : null;
  }

  /** Throws unless `path` can be created: `invalid` below a file, `exists` when taken. */
  checkFree(path: string): void {
    for (const dir of parents(path)) {
      const kind = this.kind(dir);
      if (kind !== null && kind !== "tree") {
        throw new GitError("invalid", `${dir} is a file, not a directory`, "", "path");
      }
    }
    if (this.kind(path) !== null) throw new GitError("exists", `${path} already exists`, "", "path");
  }

  put(path: string, mode: string, id: string): void {
    this.changes.set(path, { mode, id });
    for (const dir of parents(path)) this.createdDirs.add(dir);
  }

  existingFile(path: string): { mode: string; id: string } {
    const file = this.file(path);
    if (!file) throw new GitError("not_found", `${path} does not exist`, "", "path");
    return file;
  }
}

/** `a`, `a/b` for `a/b/c`. */
function parents(path: string): string[] {
  const parts = path.split("/");
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/"));
}

function actionPaths(actions: readonly FileAction[]): string[] {
  const paths = new Set<string>();
  for (const action of actions) {
    for (const path of action.action === "move" ? [action.path, action.previousPath] : [action.path]) {
      paths.add(assertFilePath(path));
      for (const dir of parents(path)) paths.add(dir);
    }
  }
  return [...paths];
}

/** The parent commit's entries on `paths` (and whatever ls-tree shows on the way), in one process. */
async function readEntries(
  gitDir: string,
  parent: string | null,
  paths: string[],
): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  if (parent === null) return entries;
  const { stdout } = await runGit(
    ["ls-tree", "-z", "-t", "--full-tree", "--end-of-options", parent, "--", ...paths],
    {
      gitDir,
      env: READ_ENV,
    },
  );
  for (const line of stdout.toString("utf8").split("\0")) {
    const match = /^(\d{6}) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(line);
    if (match) entries.set(match[4]!, { mode: match[1]!, type: match[2]!, id: match[3]! });
  }
  return entries;
}

/** Applies the actions in order; `blobs[i]` is the blob id of action i's new content, if any. */
function applyActions(draft: Draft, actions: readonly FileAction[], blobs: readonly (string | null)[]): void {
  actions.forEach((action, i) => {
    const blob = blobs[i] ?? null;
    switch (action.action) {
      case "create":
        draft.checkFree(action.path);
        draft.put(action.path, action.executable ? "100755" : "100644", blob!);
        break;
      case "update":
        draft.put(action.path, draft.existingFile(action.path).mode, blob!);
        break;
      case "delete":
        draft.existingFile(action.path);
        draft.changes.set(action.path, null);
        break;
      case "move": {
        const previous = draft.existingFile(action.previousPath);
        draft.changes.set(action.previousPath, null);
        draft.checkFree(action.path);
        draft.put(action.path, previous.mode, blob ?? previous.id);
        break;
      }
    }
  });
}

/** Where the commit goes: its parent, and the value the branch must still have. */
async function base(
  gitDir: string,
  options: CommitFilesOptions,
): Promise<{ parent: string | null; old: string | null; first: boolean }> {
  const ref = branchRef(options.branch);
  const { startPoint } = options;
  if (startPoint !== undefined) assertRevision(startPoint);
  const [head, [start]] = await Promise.all([
    readRef(gitDir, ref),
    startPoint === undefined ? [null] : checkObjects(gitDir, [`${startPoint}^{commit}`]),
  ]);
  if (head) {
    if (options.expectedHead !== undefined && options.expectedHead !== head) {
      throw new GitError("ref_moved", `${options.branch} is at ${head}, not ${options.expectedHead}`);
    }
    return { parent: head, old: head, first: false };
  }
  if (options.expectedHead !== undefined)
    throw new GitError("ref_moved", `${options.branch} no longer exists`);
  if (options.startPoint !== undefined) {
    if (!start) throw new GitError("not_found", `no commit ${options.startPoint}`, "", "revision");
    return { parent: start.id, old: null, first: false };
  }
  if (await isEmptyRepository(gitDir)) return { parent: null, old: null, first: true };
  throw new GitError("not_found", `no branch ${options.branch}`, "", "branch");
}

/** Writes a blob (`hash-object -w`) and answers its id. */
async function hashBlob(gitDir: string, content: Buffer): Promise<string> {
  const { stdout } = await runGit(["hash-object", "-w", "-t", "blob", "--no-filters", "--stdin"], {
    gitDir,
    input: content,
  });
  return stdout.toString("utf8").trim();
}

/** How many `hash-object` processes one change set runs at once. */
const HASH_CONCURRENCY = 4;

/** Writes each action's new content as a blob; answers the ids by action (null: no content). */
async function hashContents(gitDir: string, actions: readonly FileAction[]): Promise<(string | null)[]> {
  const ids: (string | null)[] = actions.map(() => null);
  const pending = actions.flatMap((action, i) =>
    "content" in action && action.content ? [{ i, content: action.content }] : [],
  );
  const worker = async () => {
    for (let job = pending.shift(); job; job = pending.shift())
      ids[job.i] = await hashBlob(gitDir, job.content);
  };
  await Promise.all(Array.from({ length: Math.min(HASH_CONCURRENCY, pending.length) }, worker));
  return ids;
}

/** Like `Promise.all`, but waits for every promise to settle before rejecting with the first error. */
async function settleAll<T extends readonly unknown[]>(
  promises: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((result) => (result as PromiseFulfilledResult<unknown>).value) as {
    [K in keyof T]: Awaited<T[K]>;
  };
}

/** A temporary index file inside the repository, for building one tree. */
function temporaryIndex(gitDir: string): string {
  return join(gitDir, `kiln-index-${randomBytes(8).toString("hex")}`);
}

/** Writes the tree of the index (`parent`'s tree, read beforehand) plus the draft's changes. */
async function writeTree(gitDir: string, index: string, draft: Draft): Promise<string> {
  const env = { GIT_INDEX_FILE: index };
  const records = [...draft.changes].map(([path, change]) =>
    change === null ? `0 ${"0".repeat(40)}\t${path}\0` : `${change.mode} ${change.id}\t${path}\0`,
  );
  await runGit(["update-index", "-z", "--index-info"], { gitDir, env, input: records.join("") });
  return (await runGit(["write-tree"], { gitDir, env })).stdout.toString("utf8").trim();
}

/**
 * Commits a change set onto a branch without a work tree (temporary index, `hash-object`,
 * `update-index`, `write-tree`, `commit-tree`) and moves the branch with a compare-and-swap.
 * In an empty repository the commit is the first one and HEAD points to its branch.
 * Throws: `exists` (subject `path`) creating a file that exists; `not_found` (subject `path`)
 * updating, deleting or moving one that does not; `invalid` (subject `path`) for a refused path or
 * one below a file; `not_found` (subject `branch`) for a missing branch; `ref_moved` when the branch
 * moved meanwhile (or is not at `expectedHead`); `invalid` for a refused branch name or identity.
 */
export async function commitFiles(gitDir: string, options: CommitFilesOptions): Promise<CommitFilesResult> {
  const ref = branchRef(options.branch);
  const env = identityEnv(options.author, options.committer);
  if (options.actions.length === 0) throw new GitError("invalid", "nothing to commit");
  if (options.message.includes("\0")) throw new GitError("invalid", "NUL in the commit message");
  const paths = actionPaths(options.actions);
  // Independent steps run side by side: where the commit goes and writing the new contents' blobs
  // (a blob left over by a refused change is unreferenced and goes with the next gc), then the
  // parent's entries on the paths and its tree in the temporary index.
  const [{ parent, old, first }, blobs] = await Promise.all([
    base(gitDir, options),
    hashContents(gitDir, options.actions),
  ]);
  const index = temporaryIndex(gitDir);
  let tree: string;
  try {
    // Both settle before the index is removed, so read-tree cannot write it after the cleanup.
    const [entries] = await settleAll([
      readEntries(gitDir, parent, paths),
      parent === null
        ? undefined
        : runGit(["read-tree", "--end-of-options", parent], { gitDir, env: { GIT_INDEX_FILE: index } }),
    ] as const);
    const draft = new Draft(entries);
    applyActions(draft, options.actions, blobs);
    tree = await writeTree(gitDir, index, draft);
  } finally {
    await rm(index, { force: true });
  }
  const parentArgs = parent === null ? [] : ["-p", parent];
  const { stdout } = await runGit(["commit-tree", tree, ...parentArgs, "-F", "-"], {
    gitDir,
    env,
    input: options.message,
  });
  const commit = stdout.toString("utf8").trim();
  try {
    await updateRef(gitDir, ref, commit, old);
  } catch (error) {
    // A branch that had to be new and now exists was created meanwhile: the same lost race.
    if (GitError.is(error, "exists"))
      throw new GitError("ref_moved", `${options.branch} moved`, error.stderr);
    throw error;
  }
  if (first) await setDefaultBranch(gitDir, options.branch);
  return { commit, parent, branch: options.branch };
}
