import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";

/**
 * Who a process is, precisely enough to tell later whether it still runs: its pid, and what makes
 * that pid mean the same process (the machine's boot, the pid namespace, and the process's start
 * time in the kernel's ticks, which a recycled pid does not share).
 */
export interface ProcessIdentity {
  pid: number;
  host: string;
  /** `/proc/sys/kernel/random/boot_id`; empty where there is no /proc. */
  boot: string;
  /** The pid namespace (`/proc/self/ns/pid`); empty where there is no /proc. */
  pidNamespace: string;
  /** Field 22 of `/proc/<pid>/stat`; empty where there is no /proc. */
  processStart: string;
}

function readOr(read: () => string): string {
  try {
    return read().trim();
  } catch {
    return "";
  }
}

/** Field 22 (starttime) of `/proc/<pid>/stat`, or "" when there is no such process or no /proc. */
function processStart(pid: number): string {
  const stat = readOr(() => readFileSync(`/proc/${pid}/stat`, "utf8"));
  // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields[19] ?? "";
}

let self: ProcessIdentity | undefined;

/** This process's identity (read once). */
export function thisProcess(): ProcessIdentity {
  self ??= {
    pid: process.pid,
    host: hostname(),
    boot: readOr(() => readFileSync("/proc/sys/kernel/random/boot_id", "utf8")),
    pidNamespace: readOr(() => readlinkSync("/proc/self/ns/pid")),
    processStart: processStart(process.pid),
  };
  return self;
}

/** True when `other` runs beside this process, where its pid can be checked. */
export function isLocal(other: ProcessIdentity): boolean {
  const me = thisProcess();
  return (
    me.boot !== "" &&
    other.host === me.host &&
    other.boot === me.boot &&
    other.pidNamespace === me.pidNamespace
  );
}

/**
 * Whether a process of this machine still runs: false only when its pid is gone or now names a
 * process that started at another time. Call for local identities only ({@link isLocal}).
 */
export function isRunning(other: ProcessIdentity): boolean {
  try {
    process.kill(other.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return other.processStart === "" || processStart(other.pid) === other.processStart;
}
