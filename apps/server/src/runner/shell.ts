import { spawn } from "node:child_process";

/** How a script ended: by itself with a code, or killed by the runner. */
export type ScriptEnd = { kind: "exited"; code: number } | { kind: "killed"; reason: "canceled" | "timeout" };

/** How long a killed build gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 5000;

/**
 * Runs `bash` on a script file in a process group of its own (a new session), its output (stdout
 * and stderr) handed to `onOutput` as it comes. When `signal` aborts or `timeoutMs` passes, the
 * whole group gets SIGTERM, then SIGKILL: a build's children and grandchildren end with it. Once
 * the script exits, whatever it left running in its group is killed too, so nothing of a build
 * outlives it on the runner's machine.
 */
export function runScript(input: {
  scriptFile: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  onOutput: (chunk: Buffer) => void;
  timeoutMs: number;
  signal?: AbortSignal;
  killGraceMs?: number;
}): Promise<ScriptEnd> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["--noprofile", "--norc", input.scriptFile], {
      cwd: input.cwd,
      env: input.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let killedFor: "canceled" | "timeout" | null = null;
    let exitCode = 1;
    const grace = input.killGraceMs ?? KILL_GRACE_MS;
    const kill = (reason: "canceled" | "timeout") => {
      if (killedFor || child.pid === undefined) return;
      killedFor = reason;
      signalGroup(child.pid, "SIGTERM");
      setTimeout(() => signalGroup(child.pid as number, "SIGKILL"), grace).unref();
    };
    const onAbort = () => kill("canceled");
    const timer = setTimeout(() => kill("timeout"), input.timeoutMs);
    if (input.signal?.aborted) onAbort();
    input.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout.on("data", input.onOutput);
    child.stderr.on("data", input.onOutput);
    child.on("error", (error) => {
      clearTimeout(timer);
      input.signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.on("exit", (code, signal) => {
      exitCode = code ?? (signal ? 128 : 1);
      // What the script left behind (a `sleep &`) would hold the output pipes open: end it.
      if (child.pid !== undefined) signalGroup(child.pid, "SIGKILL");
    });
    child.on("close", () => {
      clearTimeout(timer);
      input.signal?.removeEventListener("abort", onAbort);
      resolve(killedFor ? { kind: "killed", reason: killedFor } : { kind: "exited", code: exitCode });
    });
  });
}

/** Sends `signal` to every process of the group led by `pid`; a group already gone is fine. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}
