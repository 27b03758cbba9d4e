import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitError } from "../errors.js";
import { PushGate } from "./gate.js";
import { installHooks } from "./hook-script.js";

let root: string;
let gitDir: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "kiln-gate-")));
  gitDir = join(root, "repo.git");
  await mkdir(gitDir);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const NEW = "1".repeat(40);
const CREATE = `${"0".repeat(40)} ${NEW} refs/heads/main\n`;

/** Runs the pre-receive launcher as git would: in the repository, ref lines on stdin. */
function runHook(hooks: string, env: Record<string, string>, input = CREATE, cwd = gitDir) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(join(hooks, "pre-receive"), [], {
      cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.stdin.end(input);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("the pre-receive hook fails closed", () => {
  it("refuses without a gate to ask, or with a dead socket", async () => {
    const hooks = await installHooks(join(root, "standalone"));
    const none = await runHook(hooks, {});
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("kiln: this push cannot be authorized");
    const dead = await runHook(hooks, { KILN_PUSH_SOCKET: join(root, "nothing.sock"), KILN_PUSH_ID: "x" });
    expect(dead.code).toBe(1);
    expect(dead.stderr).toContain("kiln: push authorization unavailable");
  });

  it("refuses unreadable ref lines", async () => {
    const hooks = await installHooks(join(root, "standalone"));
    const run = await runHook(hooks, { KILN_PUSH_SOCKET: "/x", KILN_PUSH_ID: "x" }, "garbage\n");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("kiln: unreadable push");
  });
});

describe("the push gate", () => {
  it("answers a registered push once, from its repository, while it is open", async () => {
    const gate = new PushGate({ runtimeDir: root });
    try {
      const seen: string[] = [];
      const session = await gate.open(gitDir, (updates) => {
        seen.push(...updates.map((update) => `${update.kind} ${update.ref}`));
        return [];
      });
      const hooks = session.gitArgs[1]!.replace("core.hooksPath=", "");
      const env = { ...session.env };

      const wrongId = await runHook(hooks, { ...env, KILN_PUSH_ID: "forged" });
      expect(wrongId.code).toBe(1);
      expect(wrongId.stderr).toContain("kiln: this push is unknown or has expired");

      const wrongRepo = await runHook(hooks, env, CREATE, root);
      expect(wrongRepo.code).toBe(1);

      const ok = await runHook(hooks, env);
      expect(ok).toEqual({ code: 0, stderr: "" });
      expect(seen).toEqual(["create refs/heads/main"]);
      expect(session.decided).toBe(true);
      expect(session.requested.map((update) => update.newSha)).toEqual([NEW]);

      const replay = await runHook(hooks, env);
      expect(replay.code).toBe(1);

      const later = await gate.open(gitDir, () => []);
      later.close();
      const expired = await runHook(hooks, { ...later.env });
      expect(expired.code).toBe(1);
      expect(expired.stderr).toContain("unknown or has expired");
      session.close();
    } finally {
      await gate.close();
    }
  });

  it("refuses when the callback takes too long, and when the gate is closed", async () => {
    const gate = new PushGate({ runtimeDir: root, authorizeTimeoutMs: 100 });
    const session = await gate.open(gitDir, () => new Promise(() => undefined));
    const hooks = session.gitArgs[1]!.replace("core.hooksPath=", "");
    const slow = await runHook(hooks, { ...session.env });
    expect(slow.code).toBe(1);
    expect(slow.stderr).toContain("kiln: push authorization timed out");

    const pending = await gate.open(gitDir, () => []);
    await gate.close();
    // A push still in flight keeps finding the hook, which finds no socket and refuses.
    const closed = await runHook(hooks, { ...pending.env });
    expect(closed.code).toBe(1);
    expect(closed.stderr).toContain("kiln: push authorization unavailable");
    await expect(gate.open(gitDir, () => [])).rejects.toBeInstanceOf(GitError);
    session.close();
    pending.close();
    // The last session closed removes the hook files in the background: wait for that, up to 5 s.
    for (let waited = 0; existsSync(hooks) && waited < 5000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(existsSync(hooks)).toBe(false);
  });

  it("writes its hook again when something removed it", async () => {
    const gate = new PushGate({ runtimeDir: root });
    try {
      const first = await gate.open(gitDir, () => []);
      const hooks = first.gitArgs[1]!.replace("core.hooksPath=", "");
      first.close();
      await rm(join(hooks, "pre-receive"));
      const second = await gate.open(gitDir, () => []);
      expect((await runHook(hooks, { ...second.env })).code).toBe(0);
      second.close();
    } finally {
      await gate.close();
    }
  });

  it("refuses a runtime directory that makes the socket path too long", async () => {
    const deep = join(root, "d".repeat(100));
    await mkdir(deep);
    const gate = new PushGate({ runtimeDir: deep });
    await expect(gate.open(gitDir, () => [])).rejects.toMatchObject({ kind: "invalid" });
    await gate.close();
  });
});
