import { GitError } from "./errors.js";
import { runOnRevisions } from "./revision-read.js";
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

/** Runs `git log` in {@link FORMAT}; an unknown revision is `not_found` (subject `revision`). */
async function log(gitDir: string, args: readonly string[]): Promise<Buffer> {
  return (await runOnRevisions(["log", "-z", FORMAT, ...args], { gitDir, env: READ_ENV })).stdout;
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

/** The largest count git's `--skip` and `--max-count` read; a larger one wraps around. */
const MAX_GIT_COUNT = 2 ** 31 - 1;

/** `value` as a count git reads: a whole number from 0 to {@link MAX_GIT_COUNT}. */
function gitCount(value: number): number {
  return Math.min(MAX_GIT_COUNT, Math.max(0, Math.floor(value)));
}

/** Seconds since the epoch of `date`, made whole by `round`; throws `invalid` for an invalid date. */
function epochSeconds(date: Date, round: (seconds: number) => number): number {
  if (Number.isNaN(date.getTime())) throw new GitError("invalid", "invalid date");
  return round(date.getTime() / 1000);
}

/**
 * A time after the epoch as git's `--since` and `--until` read it: `@<seconds>` only from nine
 * digits on (1973-03-03); fewer digits git would read as part of a date, so those are ISO 8601.
 */
function gitTime(seconds: number): string {
  return seconds >= 1e8 ? `@${seconds}` : new Date(seconds * 1000).toISOString().replace(/\.\d+Z$/, "Z");
}

/**
 * `--since` and `--until` of `options`, or `null` when nothing can match. Git has no time at or
 * before the epoch (it reads one as no time at all, or as now), so such a bound is settled here:
 * every commit git dates is after it.
 */
function dateArgs(options: Pick<ListCommitsOptions, "since" | "until">): string[] | null {
  const args: string[] = [];
  if (options.since) {
    const since = epochSeconds(options.since, Math.ceil);
    if (since > 0) args.push(`--since=${gitTime(since)}`);
  }
  if (options.until) {
    const until = epochSeconds(options.until, Math.floor);
    if (until < 1) return null;
    args.push(`--until=${gitTime(until)}`);
  }
  return args;
}

/**
 * The history from `ref`, newest first, as GitLab's commit list. Throws `not_found` (subject
 * `revision`) for an unknown ref, `invalid` for a revision or path refused by validation.
 */
export async function listCommits(gitDir: string, options: ListCommitsOptions): Promise<RawCommit[]> {
  assertRevision(options.ref);
  const path = options.path === undefined ? undefined : assertFilePath(options.path.replace(/\/+$/, ""));
  const dates = dateArgs(options);
  const skip = Math.max(0, Math.floor(options.skip ?? 0));
  // No history is longer than git can count.
  if (dates === null || skip > MAX_GIT_COUNT) return [];
  const args = [`--max-count=${gitCount(options.limit ?? 20)}`, `--skip=${skip}`, ...dates];
  args.push("--end-of-options", options.ref, "--");
  if (path !== undefined) args.push(path);
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
  if (options.limit !== undefined) args.push(`--max-count=${gitCount(options.limit)}`);
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

/**
 * The newest commit at or before `commit` that changed `path` (GitLab's `last_commit_id`), or
 * `null` when none did. Throws `not_found` (subject `revision`) when `commit` names no commit.
 */
export async function lastCommitFor(gitDir: string, commit: string, path: string): Promise<string | null> {
  assertRevision(commit);
  assertFilePath(path);
  const { stdout } = await runOnRevisions(
    ["log", "--max-count=1", "--format=%H", "--end-of-options", commit, "--", path],
    { gitDir, env: READ_ENV },
  );
  const id = stdout.toString("utf8").trim();
  return id === "" ? null : id;
}
