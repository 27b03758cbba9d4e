// Test support: what a git killed in the middle of its work leaves, made by really killing one.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync, utimesSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fixtureEnv } from "../../__tests__/fixture.js";

/** Waits for `condition` to hold, polling, until the deadline. */
export async function until(condition: () => boolean, what: string, deadlineMs = 15_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function groupGone(child: ChildProcess): boolean {
  try {
    process.kill(-(child.pid as number), 0);
    return false;
  } catch {
    return true;
  }
}

/** SIGKILLs a detached child's whole process group (git and its hook) and waits until it is gone. */
export async function killGroup(child: ChildProcess): Promise<void> {
  try {
    process.kill(-(child.pid as number), "SIGKILL");
  } catch {
    // already gone
  }
  await until(() => groupGone(child), "the killed process group to go");
}

/**
 * A hooks directory whose `reference-transaction` hook stops git once it holds its ref locks
 * ("prepared"): forever, or until the file `release` exists.
 */
export async function stallingHooks(dir: string, release?: string): Promise<string> {
  const hooks = join(dir, `hooks-${Math.random().toString(16).slice(2)}`);
  await mkdir(hooks, { recursive: true });
  const wait = release ? `while [ ! -e '${release}' ]; do sleep 0.05; done` : "exec sleep 600";
  const script = join(hooks, "reference-transaction");
  await writeFile(script, `#!/bin/sh\nif [ "$1" = prepared ]; then ${wait}; fi\n`);
  await chmod(script, 0o755);
  return hooks;
}

/**
 * Runs `git <args>` in `gitDir` and SIGKILLs it (with its hook) while it holds its ref locks, as a
 * crash in the middle of a ref update would: the `locks` it took stay on disk.
 */
export async function killInRefUpdate(gitDir: string, args: readonly string[], locks: readonly string[]) {
  const hooks = await stallingHooks(join(gitDir, ".."));
  const child = spawn("git", [`--git-dir=${gitDir}`, "-c", `core.hooksPath=${hooks}`, ...args], {
    env: fixtureEnv(),
    detached: true,
    stdio: "ignore",
  });
  await until(() => locks.every((lock) => existsSync(join(gitDir, lock))), `git to lock ${locks.join(", ")}`);
  await killGroup(child);
}

/**
 * Starts `git receive-pack` in `gitDir` with a push of `pack` creating `ref` at `commit`, and
 * SIGKILLs it halfway through the pack: its quarantine directory and temporary pack stay.
 */
export async function killInPush(gitDir: string, ref: string, commit: string, pack: Buffer): Promise<void> {
  const child = spawn("git", ["receive-pack", "--stateless-rpc", gitDir], {
    env: fixtureEnv(),
    detached: true,
    stdio: ["pipe", "ignore", "ignore"],
  });
  const command = `${"0".repeat(40)} ${commit} ${ref}\0report-status`;
  child.stdin?.write(`${(command.length + 4).toString(16).padStart(4, "0")}${command}0000`);
  child.stdin?.write(pack.subarray(0, Math.floor(pack.length / 2)));
  const objects = join(gitDir, "objects");
  const quarantined = () =>
    readdirSync(objects).some(
      (name) =>
        name.startsWith("tmp_objdir-incoming-") &&
        existsSync(join(objects, name, "pack")) &&
        readdirSync(join(objects, name, "pack")).some((file) => file.startsWith("tmp_pack_")),
    );
  await until(quarantined, "receive-pack to start its quarantine");
  await killGroup(child);
}

/** Sets the mtime of `path` and everything under it `ms` into the past. */
export function backdate(path: string, ms: number): void {
  const time = new Date(Date.now() - ms);
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path)) backdate(join(path, name), ms);
  }
  utimesSync(path, time, time);
}
