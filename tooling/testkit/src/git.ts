import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { KilnProcess } from "./server.js";

/** One commit to write: files to set (path → content; null removes the file), on a branch. */
export interface SeedCommit {
  /** Default `master`. A branch not seen before starts from the previous commit of the seed. */
  branch?: string;
  message: string;
  files: Record<string, string | Buffer | null>;
  /** Default "Seed Author" <seed@example.com>. */
  author?: { name: string; email: string };
  /** ISO 8601; default one minute after the previous commit of the seed, from 2026-01-01. */
  date?: string;
}

/** Environment that keeps the user's and the system's git config out of the seed. */
function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env["PATH"],
    HOME: tmpdir(),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    ...extra,
  };
}

/** Runs git and answers what it printed. */
export function git(args: string[], cwd: string, env: Record<string, string> = {}): string {
  return execFileSync("git", args, {
    cwd,
    env: gitEnv(env),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** The path of a project's bare repository in a test server's data dir. */
export function repositoryPath(server: KilnProcess, projectId: number): string {
  return join(server.dataDir, "repositories", `${projectId}.git`);
}

/**
 * Writes commits straight into a project's repository on disk (`git push` over `file://`, no
 * server in between, so no push rules, events or default branch: set `default_branch` through the
 * API when a test needs it). Answers each commit's sha, in order.
 */
export function seedRepository(server: KilnProcess, projectId: number, commits: SeedCommit[]): string[] {
  const work = mkdtempSync(join(tmpdir(), "kiln-seed-"));
  try {
    git(["init", "--quiet", "--initial-branch=master", work], work);
    const shas: string[] = [];
    const branches = new Set<string>();
    let current = "master";
    let clock = Date.parse("2026-01-01T00:00:00Z");
    for (const commit of commits) {
      const branch = commit.branch ?? "master";
      if (branch !== current) {
        if (shas.length === 0) git(["symbolic-ref", "HEAD", `refs/heads/${branch}`], work);
        else git(["checkout", "--quiet", ...(branches.has(branch) ? [] : ["-b"]), branch], work);
        current = branch;
      }
      branches.add(branch);
      for (const [path, content] of Object.entries(commit.files)) {
        const file = join(work, path);
        if (content === null) rmSync(file, { force: true });
        else {
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, content);
        }
      }
      clock += 60_000;
      const date = commit.date ?? new Date(clock).toISOString();
      const author = commit.author ?? { name: "Seed Author", email: "seed@example.com" };
      git(["add", "--all"], work);
      git(["commit", "--quiet", "--allow-empty", "-m", commit.message], work, {
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_NAME: author.name,
        GIT_COMMITTER_EMAIL: author.email,
        GIT_COMMITTER_DATE: date,
      });
      shas.push(git(["rev-parse", "HEAD"], work).trim());
    }
    git(["push", "--quiet", "--all", "--force", `file://${repositoryPath(server, projectId)}`], work);
    return shas;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
