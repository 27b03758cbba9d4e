import { GitError } from "./errors.js";
import { runGit } from "./exec.js";
import type { CommitDetail, RawCommit } from "./types.js";
import { assertFilePath, assertRevision } from "./validate.js";

/** `git log` fields of a {@link RawCommit}, NUL-separated; with `-z` records end with a NUL too. */
const FIELDS = ["%H", "%P", "%an", "%ae", "%aI", "%cn", "%ce", "%cI", "%B"];
const FORMAT = `--format=${FIELDS.join("%x00")}`;

/** Environment of reads: pathspecs are literal, replace refs (which a push could add) ignored. */
export const READ_ENV = { GIT_LITERAL_PATHSPECS: "1", GIT_NO_REPLACE_OBJECTS: "1" } as const;

function toCommit(fields: readonly string[]): RawCommit {
  const [id = "", parents = "", an = "", ae = "", ad = "", cn = "", ce = "", cd = "", message = ""] = fields;
  return {
    id,
    message,
    parent_ids: parents === "" ? [] : parents.split(" "),
    authored_date: ad,
    author_name: an,
    author_email: ae,
    committed_date: cd,
    committer_name: cn,
    committer_email: ce,
  };
}

/** Parses `git log -z` output of {@link FORMAT}. */
function parseLog(stdout: Buffer): RawCommit[] {
  const tokens = stdout.toString("utf8").split("\0");
  const commits: RawCommit[] = [];
  for (let i = 0; i + FIELDS.length <= tokens.length; i += FIELDS.length) {
    commits.push(toCommit(tokens.slice(i, i + FIELDS.length)));
  }
  return commits;
}

/** Runs `git log`, turning an unknown revision into `not_found` (subject `revision`). */
async function log(gitDir: string, args: readonly string[]): Promise<Buffer> {
  try {
    return (await runGit(["log", "-z", FORMAT, ...args], { gitDir, env: READ_ENV })).stdout;
  } catch (error) {
    if (GitError.is(error, "failed") && /bad revision|unknown revision|bad object/.test(error.stderr)) {
      throw new GitError("not_found", "no such revision", error.stderr, "revision");
    }
    throw error;
  }
}

/** What {@link listCommits} lists. */
export interface ListCommitsOptions {
  /** Where the history starts (a branch, tag or sha). */
  ref: string;
  /** Only commits committed at or after this time. */
  since?: Date;
  /** Only commits committed at or before this time. */
  until?: Date;
  /** Only commits that touch this path (a file or a directory). */
  path?: string;
  /** Commits to leave out first (GitLab's `page * per_page`). */
  skip?: number;
  /** At most this many commits (default 20). */
  limit?: number;
}

function gitTime(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new GitError("invalid", "invalid date");
  return `@${Math.floor(date.getTime() / 1000)}`;
}

/**
 * The history from `ref`, newest first, as GitLab's commit list. Throws `not_found` (subject
 * `revision`) for an unknown ref, `invalid` for a revision or path refused by validation.
 */
export async function listCommits(gitDir: string, options: ListCommitsOptions): Promise<RawCommit[]> {
  assertRevision(options.ref);
  const args = [
    `--max-count=${Math.max(0, Math.floor(options.limit ?? 20))}`,
    `--skip=${Math.max(0, Math.floor(options.skip ?? 0))}`,
  ];
  if (options.since) args.push(`--since=${gitTime(options.since)}`);
  if (options.until) args.push(`--until=${gitTime(options.until)}`);
  args.push("--end-of-options", options.ref, "--");
  if (options.path !== undefined) args.push(assertFilePath(options.path.replace(/\/+$/, "")));
  return parseLog(await log(gitDir, args));
}

/**
 * The commits reachable from `to` but not from `from` (`from..to`), oldest first as GitLab's
 * Compare lists them (`newestFirst` for merge request commit lists). `limit` keeps the newest
 * `limit` commits (in the order asked for).
 */
export async function commitsBetween(
  gitDir: string,
  from: string,
  to: string,
  options: { newestFirst?: boolean; limit?: number } = {},
): Promise<RawCommit[]> {
  assertRevision(from);
  assertRevision(to);
  const args = ["--topo-order"];
  if (!options.newestFirst) args.push("--reverse");
  if (options.limit !== undefined) args.push(`--max-count=${Math.max(0, Math.floor(options.limit))}`);
  args.push("--end-of-options", `${from}..${to}`, "--");
  return parseLog(await log(gitDir, args));
}

/** Parses `--numstat -z` records (`added\tdeleted\tpath`, `-` for binary files) into stats. */
function parseNumstat(text: string): CommitDetail["stats"] {
  let additions = 0;
  let deletions = 0;
  for (const record of text.replace(/^\n/, "").split("\0")) {
    const match = /^(-|\d+)\t(-|\d+)\t/.exec(record);
    if (!match) continue;
    additions += match[1] === "-" ? 0 : Number(match[1]);
    deletions += match[2] === "-" ? 0 : Number(match[2]);
  }
  return { additions, deletions, total: additions + deletions };
}

/**
 * One commit with its stats against its first parent (the root commit against nothing), in one
 * git process. Throws `not_found` (subject `revision`) when `rev` names no commit.
 */
export async function getCommit(gitDir: string, rev: string): Promise<CommitDetail> {
  assertRevision(rev);
  const stdout = await log(gitDir, [
    "--max-count=1",
    "--no-walk",
    "--numstat",
    "--no-renames",
    "--diff-merges=first-parent",
    "--end-of-options",
    `${rev}^{commit}`,
    "--",
  ]);
  const text = stdout.toString("utf8");
  let end = -1;
  for (let i = 0; i < FIELDS.length; i++) {
    end = text.indexOf("\0", end + 1);
    if (end < 0) throw new GitError("not_found", `no commit ${JSON.stringify(rev)}`, "", "revision");
  }
  const commit = toCommit(text.slice(0, end).split("\0"));
  return { ...commit, stats: parseNumstat(text.slice(end + 1)) };
}

/** The newest commit at or before `commit` that changed `path` (GitLab's `last_commit_id`). */
export async function lastCommitFor(gitDir: string, commit: string, path: string): Promise<string | null> {
  assertRevision(commit);
  assertFilePath(path);
  const { stdout } = await runGit(
    ["log", "--max-count=1", "--format=%H", "--end-of-options", commit, "--", path],
    {
      gitDir,
      env: READ_ENV,
    },
  );
  const id = stdout.toString("utf8").trim();
  return id === "" ? null : id;
}
