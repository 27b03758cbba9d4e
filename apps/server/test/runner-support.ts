import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GitClient } from "./git-client.js";
import { ENTRY } from "./support.js";

// Running `kiln runner` processes against a test server.

/** A `kiln runner` process: its exit, and everything it printed. */
export interface RunnerProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

export function startRunner(args: string[]): RunnerProcess {
  const child = spawn(process.execPath, [ENTRY, "runner", ...args], {
    env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: tmpdir(), LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** Whether a process is alive (a zombie is not). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** The runner's JSON log lines with this message. */
export function eventsOf(runner: RunnerProcess, message: string): Record<string, unknown>[] {
  return runner
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((event) => event["msg"] === message);
}

/** Commits `.gitlab-ci.yml` with `text` in `work` and pushes it to master; answers the commit's sha. */
export async function pushPipeline(
  client: GitClient,
  work: string,
  remote: string,
  text: string,
): Promise<string> {
  writeFileSync(join(work, ".gitlab-ci.yml"), text);
  await client.ok(["add", ".gitlab-ci.yml"], work);
  await client.ok(["commit", "--quiet", "-m", "CI"], work);
  await client.ok(["push", "--quiet", remote, "master"], work);
  return client.ok(["rev-parse", "HEAD"], work);
}
