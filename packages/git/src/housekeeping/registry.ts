import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { isLocal, isRunning, type ProcessIdentity, thisProcess } from "./process-identity.js";

/** Where the processes sharing a repositories root say that they run. */
export const REGISTRY_DIR = ".kiln-processes";

/** How often a registered process touches its record. */
export const HEARTBEAT_MS = 10_000;

/** A record of another machine not touched for this long is of a process that stopped. */
export const HEARTBEAT_TIMEOUT_MS = 60_000;

/**
 * How far the clocks of the machines sharing the storage may disagree: a leftover is attributed to
 * another process that started up to this long after it.
 */
export const CLOCK_SKEW_MS = 5_000;

/** A record: who runs, and since when (ms since the epoch, by its clock). */
interface ProcessRecord extends ProcessIdentity {
  started: number;
}

/** A process that may be running, as a registry lists it. */
export interface RegisteredProcess {
  started: number;
}

function parseRecord(text: string): ProcessRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<ProcessRecord>;
    if (typeof value.pid !== "number" || typeof value.started !== "number") return undefined;
    const strings = [value.host, value.boot, value.pidNamespace, value.processStart];
    if (!strings.every((item) => typeof item === "string")) return undefined;
    return value as ProcessRecord;
  } catch {
    return undefined;
  }
}

/**
 * The Kiln processes that share one repositories root (several servers on one PostgreSQL database
 * and shared storage), each as a small file in `<root>/.kiln-processes/`, touched every
 * {@link HEARTBEAT_MS}. It is how a process tells a file a stopped process left behind (a ref
 * lock, a quarantine directory) from one a running process may still be using: a file can only
 * be in use by a process that was running when the file was written.
 *
 * A process of the same machine runs as long as its pid names the process that wrote the record;
 * one of another machine, as long as it keeps touching its record.
 */
export class ProcessRegistry {
  readonly root: string;
  readonly started = Date.now();
  private readonly file: string;
  private heartbeat: NodeJS.Timeout | undefined;

  private constructor(root: string) {
    this.root = resolve(root);
    this.file = join(this.root, REGISTRY_DIR, `${randomBytes(12).toString("hex")}.json`);
  }

  /** Registers this process under `root` and keeps its record fresh until {@link leave}. */
  static async join(root: string): Promise<ProcessRegistry> {
    const registry = new ProcessRegistry(root);
    await mkdir(join(registry.root, REGISTRY_DIR), { recursive: true });
    const record: ProcessRecord = { ...thisProcess(), started: registry.started };
    // Written aside and renamed: a reader sees the whole record or none.
    await writeFile(`${registry.file}.tmp`, `${JSON.stringify(record)}\n`, { mode: 0o644 });
    await rename(`${registry.file}.tmp`, registry.file);
    registry.heartbeat = setInterval(() => {
      const now = new Date();
      utimes(registry.file, now, now).catch(() => undefined);
    }, HEARTBEAT_MS);
    registry.heartbeat.unref();
    return registry;
  }

  /** Removes this process's record: it writes nothing more. */
  async leave(): Promise<void> {
    clearInterval(this.heartbeat);
    await rm(this.file, { force: true });
  }

  /**
   * The other processes that may be running (this one excluded). Records of processes known to
   * have stopped are removed on the way.
   */
  async others(): Promise<RegisteredProcess[]> {
    const dir = join(this.root, REGISTRY_DIR);
    const names = await readdir(dir).catch(() => [] as string[]);
    const running: RegisteredProcess[] = [];
    for (const name of names) {
      const path = join(dir, name);
      if (path === this.file || !name.endsWith(".json")) continue;
      const [text, info] = await Promise.all([
        readFile(path, "utf8").catch(() => undefined),
        stat(path).catch(() => undefined),
      ]);
      if (text === undefined || info === undefined) continue;
      const record = parseRecord(text);
      const touched = Date.now() - info.mtimeMs < HEARTBEAT_TIMEOUT_MS;
      const alive = record && isLocal(record) ? isRunning(record) : touched;
      // A damaged record says nothing of when its process started: assume it always ran.
      if (alive) running.push({ started: record?.started ?? 0 });
      else await rm(path, { force: true });
    }
    return running;
  }
}

/**
 * True when one of `processes` had started by `time` (give or take {@link CLOCK_SKEW_MS}): it
 * may have written a file whose mtime is `time`, and may still be using it.
 */
export function runningAt(processes: readonly RegisteredProcess[], time: number): boolean {
  return processes.some((other) => other.started <= time + CLOCK_SKEW_MS);
}

const joined = new Map<string, ProcessRegistry>();

/**
 * Joins the registry of the repositories under `root` (see {@link ProcessRegistry}): from then on,
 * a file this process finds in one of them and that no running process can be using counts as
 * abandoned. A process that has not joined cannot rule out other processes, and waits for the
 * grace period instead.
 */
export async function joinRegistry(root: string): Promise<ProcessRegistry> {
  const existing = joined.get(resolve(root));
  if (existing) return existing;
  const registry = await ProcessRegistry.join(root);
  joined.set(registry.root, registry);
  return registry;
}

/** Leaves a registry joined with {@link joinRegistry}. */
export async function leaveRegistry(registry: ProcessRegistry): Promise<void> {
  if (joined.get(registry.root) === registry) joined.delete(registry.root);
  await registry.leave();
}

/** The registry this process joined for the root holding `gitDir`, if any. */
export function registryOf(gitDir: string): ProcessRegistry | undefined {
  return joined.get(resolve(gitDir, ".."));
}
