// Child processes of the benchmark (tracked so every exit path kills them), and CPU accounting from /proc.
import { execFileSync, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, rmSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** Clock ticks per second, the unit of the CPU times in /proc (normally 100). */
export const CLK_TCK = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  return text.slice(text.lastIndexOf(")") + 2).split(" ");
}

/** CPU seconds (user + system) a live process has used so far. */
export function processCpuSeconds(pid) {
  const f = statFields(pid); // f[0] is field 3 (state): utime is field 14, stime 15
  return (Number(f[11]) + Number(f[12])) / CLK_TCK;
}

/** CPU seconds used by this process's children once reaped (cutime + cstime): here, wrk. */
export function reapedChildrenCpuSeconds() {
  const f = statFields("self");
  return (Number(f[13]) + Number(f[14])) / CLK_TCK;
}

/** CPU seconds the whole machine has been busy (all cores), from the `cpu` line of /proc/stat. */
export function machineBusySeconds() {
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user + nice + system + irq + softirq + steal) / CLK_TCK;
}

/** Peak resident memory of a live process in MiB (VmHWM). */
export function peakRssMiB(pid) {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Math.round(Number(match[1]) / 1024) : null;
}

const children = new Set();
/** True once a signal asked the benchmark to stop (what fails afterwards is only the teardown). */
export let stopping = false;
const tempDirs = new Set();

/** Removes `dir` (recursively) when the benchmark ends, whichever way it ends. */
export function removeOnExit(dir) {
  tempDirs.add(dir);
}

/**
 * Starts a tracked child. Its stdout goes to `logFile` when given (a busy server must never block
 * on a pipe nobody drains), else to a pipe the caller reads; stderr goes to the log file or is
 * kept (last 4 KB) for error messages.
 *
 * @param {string} name
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv | undefined; logFile?: string | undefined }} [options]
 */
export function startChild(name, command, args, { env, logFile } = {}) {
  const out = logFile ? openSync(logFile, "a") : "pipe";
  const child = spawn(command, args, { env, stdio: ["ignore", out, logFile ? out : "pipe"] });
  if (typeof out === "number") closeSync(out); // the child holds its own copy
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-4096);
  });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const handle = {
    name,
    child,
    pid: child.pid,
    exited,
    running: true,
    stderr: () => stderr,
    /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
    async stop(graceMs = 5000) {
      if (!handle.running) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  // `exited` only ever resolves.
  void exited.then(() => {
    handle.running = false;
    children.delete(handle);
  });
  children.add(handle);
  return handle;
}

/** Waits for a JSON log line matching `test` in a file being written by `handle`; returns it parsed. */
export async function waitForLogLine(handle, logFile, test, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    let text = "";
    try {
      text = readFileSync(logFile, "utf8");
    } catch {}
    for (const line of text.split("\n")) {
      if (!line.startsWith("{")) continue;
      try {
        const record = JSON.parse(line);
        if (test(record)) return record;
      } catch {}
    }
    if (!handle.running) throw new Error(`${handle.name} exited before it was ready:\n${text.slice(-2000)}`);
    await sleep(50);
  }
  throw new Error(`${handle.name} was not ready after ${timeoutMs} ms`);
}

/** Waits for the first JSON line on a piped stdout (the baseline servers announce their port so). */
export function waitForStdoutJson(handle, timeoutMs = 10_000) {
  return new Promise((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(
      () => reject(new Error(`${handle.name} was not ready after ${timeoutMs} ms`)),
      timeoutMs,
    );
    handle.child.stdout.on("data", (chunk) => {
      buffer += chunk;
      const newline = buffer.indexOf("\n");
      if (newline < 0) return;
      clearTimeout(timer);
      handle.child.stdout.removeAllListeners("data");
      handle.child.stdout.resume();
      try {
        resolve(JSON.parse(buffer.slice(0, newline)));
      } catch (error) {
        reject(error);
      }
    });
    handle.exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${handle.name} exited before it was ready: ${handle.stderr()}`));
    });
  });
}

/** Stops every child still running and removes the temp dirs. Safe to call more than once. */
export async function cleanUp() {
  await Promise.all([...children].map((handle) => handle.stop(10_000))); // time to write a --cpu-prof
  cleanUpSync();
}

/** Last resort, from `exit` or a signal: SIGKILL what is left, remove the temp dirs. */
function cleanUpSync() {
  for (const handle of children) {
    try {
      handle.child.kill("SIGKILL");
    } catch {}
  }
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** On SIGINT/SIGTERM/SIGHUP: clean up and exit 130; on any exit: kill leftovers synchronously. */
export function installExitHandlers() {
  process.once("exit", cleanUpSync);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.once(signal, () => {
      stopping = true;
      process.stderr.write(`\nbench: ${signal}, cleaning up\n`);
      // Exits whether or not the clean-up failed: nothing is left to report a rejection to.
      void cleanUp().finally(() => process.exit(130));
    });
  }
}
