// Test support: real repositories built with the real git CLI, with fixed identities and dates.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A temp directory removed by {@link Scratch.remove}. */
export interface Scratch {
  root: string;
  remove(): void;
}

/** Makes a temp directory for one test file. */
export function scratch(prefix = "kiln-git-core-"): Scratch {
  const root = mkdtempSync(join(tmpdir(), prefix));
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** The environment of fixture git commands: no user or system config, a fixed identity. */
export function fixtureEnv(date = "2016-01-01T10:00:00+01:00"): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: "/nonexistent",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    LC_ALL: "C",
    TZ: "UTC",
    GIT_AUTHOR_NAME: "Ann Ünïcode",
    GIT_AUTHOR_EMAIL: "ann@example.com",
    GIT_COMMITTER_NAME: "Carl Committer",
    GIT_COMMITTER_EMAIL: "carl@example.com",
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  };
}

/** Runs git in `cwd`; throws on failure; answers stdout without the final newline. */
export function sh(
  cwd: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; input?: string | Buffer } = {},
): string {
  const result = spawnSync("git", args, { cwd, env: options.env ?? fixtureEnv(), input: options.input });
  if (result.status !== 0) {
    throw new Error(
      `git ${args.join(" ")} exited ${result.status}: ${result.stderr?.toString() ?? result.error}`,
    );
  }
  return result.stdout.toString("utf8").replace(/\n$/, "");
}

/** Writes files (creating directories) in a work tree. */
export function write(work: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(work, path)), { recursive: true });
    writeFileSync(join(work, path), content);
  }
}

/** Commits everything in `work` at `date` with `message`; answers the commit id. */
export function commitAll(work: string, message: string, date: string): string {
  const env = fixtureEnv(date);
  sh(work, ["add", "-A"], { env });
  sh(work, ["commit", "-q", "--allow-empty", "--cleanup=verbatim", "-m", message], { env });
  return sh(work, ["rev-parse", "HEAD"], { env });
}

/** The commits and names of {@link sampleRepo}. */
export interface Sample {
  gitDir: string;
  work: string;
  /** Initial commit on master: README.md. */
  c1: string;
  /** Files, a directory tree, a symlink leaving the repository, an executable script. */
  c2: string;
  /** README changed, dir/a.txt renamed, docs/old.txt deleted: the head of master. */
  c3: string;
  /** On branch `conflicting` from c2: README changed otherwise (conflicts with c3). */
  c4: string;
  /** On branch `feature/clean` from c3: a new file (merges cleanly into master). */
  c5: string;
}

/**
 * A bare repository `<root>/sample.git` pushed from a work tree `<root>/work`:
 * master c1-c2-c3, branch `conflicting` (c2-c4), branch `feature/clean` (c3-c5), tags `v1.0`
 * (lightweight, c1) and `v2.0` (annotated "Release 2.0", c3).
 */
export function sampleRepo(root: string): Sample {
  const gitDir = join(root, "sample.git");
  const work = join(root, "work");
  mkdirSync(root, { recursive: true });
  sh(root, ["init", "-q", "--bare", "--initial-branch=master", gitDir]);
  sh(root, ["init", "-q", "--initial-branch=master", work]);
  write(work, { "README.md": "hello\n" });
  const c1 = commitAll(work, "Initial commit\n\nWith a body: ünïcödé ✓\n", "2016-01-01T10:00:00+01:00");
  write(work, {
    "dir/a.txt": "alpha\nbeta\ngamma\ndelta\nepsilon\n",
    "dir/sub/b.txt": "bee\n",
    "docs/old.txt": "old\n",
    "script.sh": "#!/bin/sh\necho hi\n",
    "image.bin": Buffer.from([0, 1, 2, 3, 255, 0, 7]),
  });
  chmodSync(join(work, "script.sh"), 0o755);
  symlinkSync("../../../etc/passwd", join(work, "escape"));
  const c2 = commitAll(work, "Add files", "2016-01-02T10:00:00-05:00");
  write(work, { "README.md": "hello\nworld\n" });
  sh(work, ["mv", "dir/a.txt", "dir/renamed.txt"]);
  sh(work, ["rm", "-q", "docs/old.txt"]);
  const c3 = commitAll(work, "Change README, rename a, delete old", "2016-01-03T10:00:00Z");
  sh(work, ["checkout", "-q", "-b", "conflicting", c2]);
  write(work, { "README.md": "hello\nthere\n" });
  const c4 = commitAll(work, "Conflicting change", "2016-01-04T10:00:00Z");
  sh(work, ["checkout", "-q", "-b", "feature/clean", c3]);
  write(work, { "feature.txt": "feature\n" });
  const c5 = commitAll(work, "Add feature", "2016-01-05T10:00:00Z");
  sh(work, ["checkout", "-q", "master"]);
  sh(work, ["tag", "v1.0", c1]);
  sh(work, ["tag", "-a", "-m", "Release 2.0", "v2.0", c3], { env: fixtureEnv("2016-01-06T10:00:00Z") });
  sh(work, ["push", "-q", gitDir, "master", "conflicting", "feature/clean", "--tags"]);
  return { gitDir, work, c1, c2, c3, c4, c5 };
}

/** Runs git in a bare repository. */
export function bare(gitDir: string, args: readonly string[], input?: string | Buffer): string {
  return sh(gitDir, args, input === undefined ? {} : { input });
}
