import type { Readable } from "node:stream";
import { GitError } from "./errors.js";
import { spawnGit } from "./exec.js";
import { resolveCommit } from "./refs.js";
import { hasControlCharacter } from "./validate.js";

/** The archive formats git writes itself (`tar.gz` with its own gzip since git 2.38). */
export type ArchiveFormat = "tar" | "tar.gz" | "zip";

/**
 * GitLab's archive format names (`tgz`, `gz`, `tar.gz`, `tar`, `zip`) as {@link ArchiveFormat};
 * `null` for one git cannot write (the bzip2 family).
 */
export function archiveFormat(name: string | undefined): ArchiveFormat | null {
  switch (name ?? "tar.gz") {
    case "tar.gz":
    case "tgz":
    case "gz":
      return "tar.gz";
    case "tar":
      return "tar";
    case "zip":
      return "zip";
    default:
      return null;
  }
}

/**
 * The top directory inside an archive, as GitLab names it: `<project>-<ref with / as ->-<sha>`,
 * with anything but letters, digits, `.`, `_` and `-` replaced by `-`.
 */
export function archivePrefix(project: string, ref: string, sha: string): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]/g, "-").replace(/^\.+/, "");
  return `${safe(project)}-${safe(ref)}-${safe(sha)}`;
}

/** Options of {@link archive}. */
export interface ArchiveOptions {
  format: ArchiveFormat;
  /** The top directory of every entry (see {@link archivePrefix}); no `..`, no leading `/`. */
  prefix: string;
  /** Stops git (a client that went away). */
  signal?: AbortSignal;
  /** Kills git after this long (default: the runner's default). */
  timeoutMs?: number;
}

/** A running archive: the bytes and how it ended. */
export interface ArchiveStream {
  /** The commit archived. */
  commit: string;
  /** The archive's bytes, streamed as git writes them. */
  stream: Readable;
  /** Resolves when git finished well; rejects (`failed`, `aborted`) otherwise. */
  done: Promise<void>;
}

/**
 * Streams an archive of the commit `rev` names. The revision is resolved first, so an unknown one
 * throws `not_found` (subject `revision`) before any byte is sent.
 */
export async function archive(gitDir: string, rev: string, options: ArchiveOptions): Promise<ArchiveStream> {
  const prefix = options.prefix.replace(/\/+$/, "");
  if (
    prefix === "" ||
    prefix.startsWith("/") ||
    prefix.split("/").includes("..") ||
    hasControlCharacter(prefix)
  ) {
    throw new GitError("invalid", `invalid archive prefix ${JSON.stringify(options.prefix)}`, "", "path");
  }
  const commit = await resolveCommit(gitDir, rev);
  const child = spawnGit(
    ["archive", `--format=${options.format}`, `--prefix=${prefix}/`, "--end-of-options", commit],
    {
      gitDir,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    },
  );
  child.stdin?.end();
  const stderr: Buffer[] = [];
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    child.on("close", (code, signal) => {
      const text = Buffer.concat(stderr).toString("utf8");
      if (code === 0) resolve();
      else if (signal !== null) reject(new GitError("aborted", `git archive was stopped (${signal})`, text));
      else reject(new GitError("failed", `git archive exited with ${code}: ${text.trim()}`, text));
    });
  });
  done.catch(() => undefined); // the caller may only watch the stream
  if (!child.stdout) throw new GitError("failed", "git archive has no output");
  return { commit, stream: child.stdout, done };
}
