import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";

/** Getting the build's commit failed; the message is safe to show in the trace (no token in it). */
export class SourceError extends Error {}

/**
 * Puts commit `sha` into `projectDir` with the real `git`, over HTTP with the build's `repo_url`
 * (which carries `gitlab-ci-token:<build token>@`): fetches into the repository a previous build
 * left there (or a new one), checks the commit out and removes every untracked file, so each
 * build starts from the commit alone. The URL is given on the command line only: the token is
 * never written into `.git/config`. A repository that cannot be brought up to date (left broken
 * by a killed build) is made anew once.
 */
export async function checkoutCommit(input: {
  repoUrl: string;
  sha: string;
  ref: string;
  projectDir: string;
  reuse: boolean;
  say: (line: string) => void;
}): Promise<void> {
  const secrets = secretsOf(input.repoUrl);
  const reuse = input.reuse && existsSync(join(input.projectDir, ".git"));
  try {
    await fetchAndCheckout(input, reuse, secrets);
  } catch (error) {
    if (!reuse) throw error;
    input.say("Fetching into the previous repository failed; cloning it anew...");
    await fetchAndCheckout(input, false, secrets);
  }
  input.say(`Checking out ${input.sha.slice(0, 8)} as ${input.ref}...`);
}

async function fetchAndCheckout(
  input: { repoUrl: string; sha: string; projectDir: string; say: (line: string) => void },
  reuse: boolean,
  secrets: string[],
): Promise<void> {
  const dir = input.projectDir;
  if (reuse) {
    input.say("Fetching changes...");
    // A build killed mid-git leaves its locks; nothing else uses this repository now.
    for (const lock of ["index.lock", "shallow.lock", "HEAD.lock"])
      await rm(join(dir, ".git", lock), { force: true });
  } else {
    input.say(`Cloning repository...`);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await git(["init", "-q"], dir, secrets);
  }
  await git(
    [
      "fetch",
      "-q",
      "--prune",
      "--no-tags",
      input.repoUrl,
      "+refs/heads/*:refs/remotes/origin/*",
      "+refs/tags/*:refs/tags/*",
    ],
    dir,
    secrets,
  );
  await git(["checkout", "-f", "-q", input.sha], dir, secrets);
  await git(["clean", "-ffdxq"], dir, secrets);
}

/** The password (and the whole user part) of a URL, to be masked wherever git echoes it. */
function secretsOf(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [parsed.password, decodeURIComponent(parsed.password)].filter((secret) => secret.length > 0);
  } catch {
    return [];
  }
}

/** Runs git in `cwd`; throws {@link SourceError} with git's own words (secrets masked) when it fails. */
function git(args: string[], cwd: string, secrets: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, {
      cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "", SSH_ASKPASS: "", LC_ALL: "C" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 8192) stderr += chunk.toString();
    });
    child.on("error", (error) => reject(new SourceError(`git could not start: ${error.message}`)));
    child.on("close", (code) => {
      if (code === 0) return resolve();
      const said = secrets.reduce((text, secret) => text.split(secret).join("[MASKED]"), stderr.trim());
      reject(new SourceError(`git ${args[0]} failed (exit ${code}): ${said}`));
    });
  });
}
