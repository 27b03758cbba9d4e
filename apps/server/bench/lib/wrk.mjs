// wrk: make sure it is installed, run it, and parse its --latency report.
import { spawnSync } from "node:child_process";
import { startChild } from "./proc.mjs";

function onPath(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { encoding: "utf8" }).status === 0;
}

/** Installs wrk from the Debian package when missing and running as root; otherwise fails with a clear message. */
export function ensureWrk() {
  if (!onPath("wrk")) {
    const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
    if (!isRoot) {
      throw new Error(
        "wrk is not on PATH. Install it (Debian/Ubuntu: `sudo apt-get install -y wrk`) and run the benchmark again.",
      );
    }
    console.log("bench: wrk not found; installing the Debian package (apt-get install -y wrk)");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const install = () => spawnSync("apt-get", ["install", "-y", "wrk"], { stdio: "inherit", env }).status;
    // A fresh container may have no package lists yet: update once, then retry.
    if (
      install() !== 0 &&
      (spawnSync("apt-get", ["update"], { stdio: "inherit", env }).status !== 0 || install() !== 0)
    ) {
      throw new Error("`apt-get install -y wrk` failed; install wrk by hand and run the benchmark again.");
    }
    if (!onPath("wrk")) throw new Error("wrk was installed but is still not on PATH");
  }
  // `wrk -v` prints its banner and exits 1.
  const banner = spawnSync("wrk", ["-v"], { encoding: "utf8" });
  return ((banner.stdout + banner.stderr).split("\n")[0] ?? "").trim();
}

const TIME_MS = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const SIZE = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };

/** The figures of a `wrk --latency` report; latencies in ms. */
export function parseWrk(text) {
  const percentile = (p) => {
    const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m|h)\\s*$`, "m").exec(text);
    return m ? Number(m[1]) * TIME_MS[m[2]] : null;
  };
  const total = /(\d+) requests in ([\d.]+)(us|ms|s|m|h), ([\d.]+)(B|KB|MB|GB|TB) read/.exec(text);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(text);
  if (!total || !rps) throw new Error(`cannot parse wrk output:\n${text}`);
  const requests = Number(total[1]);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  return {
    requests,
    seconds: (Number(total[2]) * TIME_MS[total[3]]) / 1000,
    rps: Number(rps[1]),
    p50: percentile(50),
    p75: percentile(75),
    p90: percentile(90),
    p99: percentile(99),
    bytesPerRequest: requests > 0 ? Math.round((Number(total[4]) * SIZE[total[5]]) / requests) : null,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0),
    socketErrors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

/**
 * Runs `wrk -t<threads> -c<connections> -d<seconds>s --latency` against `url`, with a Lua `script`
 * when given (POST bodies, random paths); resolves to the parsed report.
 *
 * @param {string} url
 * @param {{ seconds: number; connections?: number; threads?: number; headers?: Record<string, string>;
 *   script?: string | undefined }} options
 */
export async function runWrk(url, { seconds, connections = 50, threads = 1, headers = {}, script }) {
  const args = [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, "--latency", "--timeout", "10s"];
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}: ${value}`);
  if (script) args.push("-s", script);
  args.push(url);
  const wrk = startChild("wrk", "wrk", args);
  let stdout = "";
  // Without a log file, startChild pipes the child's stdout.
  const out = /** @type {import("node:stream").Readable} */ (wrk.child.stdout);
  out.setEncoding("utf8");
  out.on("data", (chunk) => {
    stdout += chunk;
  });
  const { code, signal } = await wrk.exited;
  if (code !== 0) throw new Error(`wrk failed (${signal ?? `exit ${code}`}): ${wrk.stderr() || stdout}`);
  return { ...parseWrk(stdout), raw: stdout };
}
