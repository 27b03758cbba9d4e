import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runScript } from "./shell.js";

const dir = mkdtempSync(join(tmpdir(), "kiln-shell-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether a process with this pid is alive (and not a zombie waiting to be reaped). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

function script(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** The pids a script wrote to `file`, one a line, once it has written `count` of them. */
async function pidsIn(file: string, count: number): Promise<number[]> {
  await expect
    .poll(
      () => readFileSync(file, { encoding: "utf8", flag: "a+" }).trim().split("\n").filter(Boolean).length,
    )
    .toBe(count);
  return readFileSync(file, "utf8").trim().split("\n").map(Number);
}

describe("runScript", () => {
  it("hands over the output and the exit code, with the environment given", async () => {
    let output = "";
    const end = await runScript({
      scriptFile: script("env.sh", 'echo "value=$GREETING"\nexit 7\n'),
      cwd: dir,
      env: { PATH: process.env["PATH"], GREETING: "hello" },
      onOutput: (chunk) => {
        output += chunk.toString();
      },
      timeoutMs: 60_000,
    });
    expect(end).toEqual({ kind: "exited", code: 7 });
    expect(output).toBe("value=hello\n");
  });

  it("a cancel kills the build's whole process group: the shell, its children and grandchildren", async () => {
    const pids = join(dir, "cancel.pids");
    const cancel = new AbortController();
    const running = runScript({
      scriptFile: script(
        "cancel.sh",
        `echo $$ >> ${pids}\nbash -c 'sleep 300 & echo $! >> ${pids}; wait' &\nsleep 300 &\necho $! >> ${pids}\nwait\n`,
      ),
      cwd: dir,
      env: { PATH: process.env["PATH"] },
      onOutput: () => {},
      timeoutMs: 60_000,
      signal: cancel.signal,
    });
    const started = await pidsIn(pids, 3);
    expect(started.every(alive)).toBe(true);
    cancel.abort();
    expect(await running).toEqual({ kind: "killed", reason: "canceled" });
    await expect.poll(() => started.filter(alive)).toEqual([]);
  });

  it("a build past its timeout is killed, even one that ignores SIGTERM", async () => {
    const pids = join(dir, "timeout.pids");
    const end = await runScript({
      scriptFile: script("timeout.sh", `trap '' TERM\necho $$ >> ${pids}\nwhile true; do sleep 0.1; done\n`),
      cwd: dir,
      env: { PATH: process.env["PATH"] },
      onOutput: () => {},
      timeoutMs: 300,
      killGraceMs: 200,
    });
    expect(end).toEqual({ kind: "killed", reason: "timeout" });
    const [shell] = await pidsIn(pids, 1);
    await expect.poll(() => alive(shell as number)).toBe(false);
  });

  it("what a finished script left running in the background is ended with it", async () => {
    const pids = join(dir, "leftover.pids");
    const end = await runScript({
      scriptFile: script("leftover.sh", `sleep 300 &\necho $! >> ${pids}\necho done\n`),
      cwd: dir,
      env: { PATH: process.env["PATH"] },
      onOutput: () => {},
      timeoutMs: 60_000,
    });
    expect(end).toEqual({ kind: "exited", code: 0 });
    const [sleeper] = await pidsIn(pids, 1);
    await expect.poll(() => alive(sleeper as number)).toBe(false);
  });
});
