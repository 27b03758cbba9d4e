import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Scratch, sampleRepo, scratch } from "../__tests__/fixture.js";
import { backdate, killGroup, until } from "../housekeeping/__tests__/killed.js";
import { PushGate } from "./gate.js";
import { RUNTIME_PREFIX, sweepPushRuntimes } from "./runtime-sweep.js";

let dir: Scratch;

beforeAll(() => {
  dir = scratch("kiln-gate-sweep-");
});
afterAll(() => dir.remove());

/** A gate directory whose socket a process listened on until it was SIGKILLed, ten seconds ago. */
async function killedGate(runtimeDir: string): Promise<string> {
  const gateDir = mkdtempSync(join(runtimeDir, RUNTIME_PREFIX));
  const socket = join(gateDir, "s");
  const listener = spawn(
    process.execPath,
    ["-e", `require("node:net").createServer().listen(${JSON.stringify(socket)})`],
    { detached: true, stdio: "ignore" },
  );
  await until(() => existsSync(socket), "the listener's socket");
  await killGroup(listener);
  backdate(gateDir, 10_000);
  return gateDir;
}

describe("sweeping the push gates' runtime directories", () => {
  it("removes those of gates that stopped, and keeps a running gate's and one a git still uses", async () => {
    const runtimeDir = join(dir.root, "run");
    mkdirSync(runtimeDir);
    const stopped = await killedGate(runtimeDir);
    const stillUsed = await killedGate(runtimeDir);
    // A receive-pack that outlived its server names the gate's hooks on its command line.
    const user = spawn("sh", ["-c", "sleep 60", `core.hooksPath=${stillUsed}/hooks`], {
      detached: true,
      stdio: "ignore",
    });
    const running = new PushGate({ runtimeDir });
    const { gitDir } = sampleRepo(join(dir.root, "repo"));
    const session = await running.open(gitDir, () => []);
    backdate(dirname(session.env.KILN_PUSH_SOCKET as string), 10_000); // listening for a while
    try {
      const report = await sweepPushRuntimes(runtimeDir);
      expect(report).toEqual({ removed: [stopped], failed: [] });
      expect(existsSync(stopped)).toBe(false);
      expect(existsSync(stillUsed)).toBe(true);
      expect(existsSync(session.env.KILN_PUSH_SOCKET as string)).toBe(true);
    } finally {
      session.close();
      await running.close();
      await killGroup(user);
    }
    // Once the git is gone, nothing holds the second one.
    expect((await sweepPushRuntimes(runtimeDir)).removed).toEqual([stillUsed]);
  });
});
