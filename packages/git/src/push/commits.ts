import { GitError } from "../errors.js";
import { runGit } from "../exec.js";
import type { RefUpdate } from "./types.js";

/** A commit as GitLab's push data (`commits` of a push event or hook) shows it. */
export interface PushCommit {
  id: string;
  /** The full commit message. */
  message: string;
  /** Commit date, ISO 8601 with the committer's offset (GitLab's `committed_date.xmlschema`). */
  timestamp: string;
  /** Present when the caller gave `urlFor`. */
  url?: string;
  author: { name: string; email: string };
}

/** The commits a ref update brought: the newest first, at most `limit`, with the total count. */
export interface PushCommits {
  total: number;
  commits: PushCommit[];
}

/** Options of {@link pushCommits}. */
export interface PushCommitsOptions {
  /** How many commits to list (default 20, as GitLab's push data). The total counts them all. */
  limit?: number;
  /** The web URL of a commit, for the `url` field. */
  urlFor?: (id: string) => string;
  /**
   * For a created ref, the revisions whose history is not new (object ids or full ref names).
   * Default: every branch other than the created ref, so a new branch lists what no branch had.
   */
  exclude?: readonly string[];
  /** Environment for git (the quarantine environment, while a push is being authorized). */
  env?: Readonly<Record<string, string>>;
}

const REVISION = /^(?:[0-9a-f]{40}|[0-9a-f]{64}|refs\/[^\s\0]+)$/;

/**
 * The commits of one ref update, as push data lists them: `old..new` for an update (for a forced
 * one, what the new history has that the old had not), everything new that the `exclude`
 * revisions lack for a create, none for a delete.
 */
export async function pushCommits(
  gitDir: string,
  update: Pick<RefUpdate, "ref" | "oldSha" | "newSha" | "kind">,
  options: PushCommitsOptions = {},
): Promise<PushCommits> {
  if (update.kind === "delete") return { total: 0, commits: [] };
  const range = rangeArgs(update, options.exclude);
  const limit = Math.max(0, Math.floor(options.limit ?? 20));
  const git = { gitDir, env: { ...options.env } };
  const format = "--format=%H%x1f%an%x1f%ae%x1f%cI%x1f%B";
  const [count, log] = await Promise.all([
    runGit(["rev-list", "--count", ...range], git),
    limit === 0 ? undefined : runGit(["log", "-z", `--max-count=${limit}`, format, ...range], git),
  ]);
  const total = Number.parseInt(count.stdout.toString("utf8").trim(), 10);
  const commits: PushCommit[] = [];
  for (const record of log?.stdout.toString("utf8").split("\0") ?? []) {
    if (record === "") continue;
    const [id = "", name = "", email = "", timestamp = "", ...message] = record.split("\x1f");
    const commit: PushCommit = { id, message: message.join("\x1f"), timestamp, author: { name, email } };
    if (options.urlFor) commit.url = options.urlFor(id);
    commits.push(commit);
  }
  return { total, commits };
}

function rangeArgs(
  update: Pick<RefUpdate, "ref" | "oldSha" | "newSha" | "kind">,
  exclude: readonly string[] | undefined,
): string[] {
  const revisions = [update.newSha, update.oldSha, update.ref, ...(exclude ?? [])];
  for (const revision of revisions) {
    if (!REVISION.test(revision)) throw new GitError("invalid", `not an object id or ref: ${revision}`);
  }
  if (update.kind === "update") return [update.newSha, `^${update.oldSha}`, "--"];
  if (exclude) return [update.newSha, "--not", ...exclude, "--"];
  // Git matches --exclude against the full name or, in some versions, the short name: give both.
  const short = update.ref.startsWith("refs/heads/") ? [`--exclude=${update.ref.slice(11)}`] : [];
  return [update.newSha, "--not", `--exclude=${update.ref}`, ...short, "--branches", "--"];
}
