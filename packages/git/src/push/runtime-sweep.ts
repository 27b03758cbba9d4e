import { lstat, readdir, readFile, rm } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { GRACE_MS, SETTLE_MS } from "../housekeeping/abandoned.js";
import { newestWrite } from "../housekeeping/leftovers.js";
import type { SweepReport } from "../housekeeping/sweep.js";

/** The prefix of a push gate's runtime directory (`mkdtemp` adds six characters). */
export const RUNTIME_PREFIX = "kiln-push-";

/** How the gate's socket answers: a gate listens, nobody does, or it cannot be told. */
function probe(socket: string): Promise<"listening" | "nobody" | "unknown"> {
  return new Promise((resolve) => {
    const connection = connect(socket);
    const done = (answer: "listening" | "nobody" | "unknown") => {
      connection.destroy();
      resolve(answer);
    };
    connection.setTimeout(1_000, () => done("unknown"));
    connection.once("connect", () => done("listening"));
    connection.once("error", (error: NodeJS.ErrnoException) =>
      done(error.code === "ECONNREFUSED" || error.code === "ENOENT" ? "nobody" : "unknown"),
    );
  });
}

/**
 * The processes whose command line names `dir` (a receive-pack run with the gate's
 * `core.hooksPath`, its hook), or null where there is no /proc to ask.
 */
async function processesUsing(dir: string): Promise<number[] | null> {
  const pids = await readdir("/proc").catch(() => null);
  if (!pids) return null;
  const using: number[] = [];
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, "latin1").catch(() => "");
    if (cmdline.includes(dir)) using.push(Number(pid));
  }
  return using;
}

/**
 * Whether the gate directory `dir` is of a gate that stopped: nobody listens on its socket, and
 * no process still uses its hook (git runs no hook at all when the hook file is gone, so a
 * receive-pack that outlived its server must still find it, and be refused by it).
 */
async function abandonedGate(dir: string): Promise<boolean> {
  const age = Date.now() - (await newestWrite(dir));
  if (age < SETTLE_MS) return false; // a gate starting: it listens once its hook is written
  if ((await probe(join(dir, "s"))) !== "nobody") return false;
  const using = await processesUsing(dir);
  return using === null ? age >= GRACE_MS : using.length === 0;
}

/**
 * Removes the runtime directories (socket and hook) that push gates of stopped processes left in
 * `runtimeDir`, the directory given to every `PushGate` of the machine. Only this user's
 * directories are considered. Never rejects.
 */
export async function sweepPushRuntimes(runtimeDir: string): Promise<SweepReport> {
  const report: SweepReport = { removed: [], failed: [] };
  const names = await readdir(runtimeDir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(RUNTIME_PREFIX)) continue;
    const dir = join(runtimeDir, name);
    try {
      const info = await lstat(dir);
      if (!info.isDirectory() || info.uid !== process.getuid?.()) continue;
      if (!(await abandonedGate(dir))) continue;
      await rm(dir, { recursive: true, force: true });
      report.removed.push(dir);
    } catch (error) {
      report.failed.push({ path: dir, error: (error as Error).message });
    }
  }
  return report;
}
