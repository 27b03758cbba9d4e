import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { GitError } from "./errors.js";

/** How long a git command may run unless the caller says otherwise. */
export const DEFAULT_GIT_TIMEOUT_MS = 60_000;

/** Options of one git invocation. */
export interface GitOptions {
  /** The repository (`--git-dir`); omitted for commands that take no repository. */
  gitDir?: string;
  /** Written to the process's stdin, which is then closed. */
  input?: string | Buffer;
  /** Extra environment (on top of the isolated one git always gets). */
  env?: Record<string, string | undefined>;
  /** Kills the process after this many milliseconds (default {@link DEFAULT_GIT_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Kills the process when aborted (a client that disconnected, say). */
  signal?: AbortSignal;
  /** Exit codes that are answers rather than failures (default: only 0). */
  okCodes?: readonly number[];
  /**
   * Starts git in a process group of its own and kills the whole group (git and the helpers it
   * started: pack-objects, index-pack, hooks) on timeout or abort, so nothing outlives a request.
   */
  processGroup?: boolean;
}

/** What a finished git command printed. */
export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/**
 * The environment every git process gets: the caller's PATH and nothing of the user's or the
 * system's git configuration, so that a server's behaviour cannot change with what happens to
 * be in `~/.gitconfig`, and git never prompts.
 */
export function gitEnvironment(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: "/nonexistent",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    LC_ALL: "C",
    TZ: "UTC",
  };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return env;
}

function argsWithDir(args: readonly string[], gitDir: string | undefined): string[] {
  return gitDir === undefined ? [...args] : [`--git-dir=${gitDir}`, ...args];
}

/**
 * Starts git for streaming (smart HTTP, archives): no shell, isolated environment, killed on
 * timeout or abort. The caller owns the streams and must wait for `close`.
 */
export function spawnGit(args: readonly string[], options: GitOptions = {}): ChildProcess {
  if (options.processGroup && process.platform !== "win32") return spawnGroup(args, options);
  const child = spawn("git", argsWithDir(args, options.gitDir), {
    env: gitEnvironment(options.env),
    stdio: ["pipe", "pipe", "pipe"],
    signal: options.signal,
    timeout: options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
    killSignal: "SIGKILL",
  });
  // An abort or a kill surfaces as an 'error' event; without a listener it would crash the process.
  child.on("error", () => undefined);
  return child;
}

/** {@link spawnGit} in a new process group, which a timeout or an abort kills as a whole. */
function spawnGroup(args: readonly string[], options: GitOptions): ChildProcess {
  const child = spawn("git", argsWithDir(args, options.gitDir), {
    env: gitEnvironment(options.env),
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  const { signal } = options;
  const kill = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // The group is already gone.
    }
  };
  const timer = setTimeout(kill, options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS);
  const settle = () => {
    clearTimeout(timer);
    signal?.removeEventListener("abort", kill);
  };
  signal?.addEventListener("abort", kill, { once: true });
  child.on("exit", settle);
  child.on("error", settle); // and, as in spawnGit, keeps a failed spawn from crashing the process
  if (signal?.aborted) kill();
  return child;
}

/**
 * Runs git to completion and collects its output. Resolves for exit codes in `okCodes`; rejects
 * with a {@link GitError} of kind `aborted` on timeout or abort, `not_found` about the
 * `repository` when `gitDir` is gone by the time git fails (removed meanwhile), `failed` otherwise.
 */
export function runGit(args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  const okCodes = options.okCodes ?? [0];
  return new Promise((resolve, reject) => {
    const child = spawnGit(args, options);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let failure: Error | undefined;
    child.stdout?.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => {
      failure = error;
    });
    child.stdin?.on("error", () => undefined); // git may exit before reading all its input
    child.stdin?.end(options.input);
    child.on("close", (code, signal) => {
      const stderr = Buffer.concat(err).toString("utf8");
      if (signal !== null || (failure && code === null)) {
        reject(new GitError("aborted", `git ${args[0]} was stopped (${signal ?? failure?.message})`, stderr));
      } else if (code !== null && okCodes.includes(code)) {
        resolve({ code, stdout: Buffer.concat(out), stderr });
      } else if (options.gitDir !== undefined && !existsSync(options.gitDir)) {
        // Whatever git said ("not a git repository", "not a tree object" when the directory went
        // mid-read), the cause is that the repository was removed (with its project) meanwhile.
        reject(new GitError("not_found", `git ${args[0]}: the repository is gone`, stderr, "repository"));
      } else {
        reject(new GitError("failed", `git ${args[0]} exited with ${code}: ${stderr.trim()}`, stderr));
      }
    });
  });
}

/** Runs git and answers its standard output as text without the final newline. */
export async function gitText(args: readonly string[], options: GitOptions = {}): Promise<string> {
  const { stdout } = await runGit(args, options);
  return stdout.toString("utf8").replace(/\n$/, "");
}
