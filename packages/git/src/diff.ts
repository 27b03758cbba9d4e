import { READ_ENV } from "./commits.js";
import { parseDiffTree } from "./diff-parse.js";
import { GitError } from "./errors.js";
import { mergeBase } from "./merge-base.js";
import { resolveCommits } from "./refs.js";
import { runOnRevisions } from "./revision-read.js";
import type { DiffLimits, DiffResult } from "./types.js";
import { assertRevision } from "./validate.js";

const DIFF_ARGS = [
  "-c",
  "core.quotePath=false",
  "diff-tree",
  "-z",
  "-r",
  "--raw",
  "-p",
  "-M",
  "--no-commit-id",
  "--no-ext-diff",
  "--no-textconv",
  "--no-color",
  "--src-prefix=a/",
  "--dst-prefix=b/",
];

async function diffTree(gitDir: string, args: readonly string[], limits: DiffLimits): Promise<DiffResult> {
  const { stdout } = await runOnRevisions([...DIFF_ARGS, ...args], { gitDir, env: READ_ENV });
  return parseDiffTree(stdout, limits);
}

/**
 * A commit's changes against its first parent (a root commit's against nothing), with rename
 * detection, as GitLab's commit diff. Throws `not_found` (subject `revision`) for an unknown commit.
 */
export async function commitDiff(gitDir: string, rev: string, limits: DiffLimits = {}): Promise<DiffResult> {
  assertRevision(rev);
  return diffTree(
    gitDir,
    ["--root", "--diff-merges=first-parent", "--end-of-options", `${rev}^{commit}`, "--"],
    limits,
  );
}

/** The id of the empty tree, in the hash of `like`. */
function emptyTree(like: string): string {
  return like.length === 64
    ? "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321"
    : "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
}

/** Options of {@link diffBetween}. */
export interface DiffBetweenOptions extends DiffLimits {
  /** Diff `from` against `to` directly instead of from their merge base (`from...to`). */
  straight?: boolean;
}

/**
 * What `to` changes compared to `from`: by default from their merge base (`git diff from...to`,
 * what GitLab's compare and merge request changes show), so changes made on `from` meanwhile do
 * not show. Unrelated histories diff from the empty tree. Throws `not_found` (subject `revision`).
 */
export async function diffBetween(
  gitDir: string,
  from: string,
  to: string,
  options: DiffBetweenOptions = {},
): Promise<DiffResult> {
  const [fromId, toId] = await resolveCommits(gitDir, [from, to]);
  if (!fromId || !toId) throw new GitError("not_found", `no commit ${fromId ? to : from}`, "", "revision");
  return diffCommits(gitDir, fromId, toId, options);
}

/** {@link diffBetween} of two resolved commit ids. */
export async function diffCommits(
  gitDir: string,
  fromId: string,
  toId: string,
  options: DiffBetweenOptions = {},
): Promise<DiffResult> {
  assertRevision(fromId);
  assertRevision(toId);
  const base = options.straight ? fromId : ((await mergeBase(gitDir, fromId, toId)) ?? emptyTree(toId));
  return diffTree(gitDir, ["--end-of-options", base, toId, "--"], options);
}
