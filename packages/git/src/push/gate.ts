import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { access, mkdtemp, realpath, rm } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { GitError } from "../errors.js";
import { releaseAbandonedLocks } from "../housekeeping/locks.js";
import { beginWrite, type RepositoryWrite } from "../housekeeping/writes.js";
import { quarantineEnv, readHookRequest } from "./hook-request.js";
import { installHooks } from "./hook-script.js";
import { RUNTIME_PREFIX } from "./runtime-sweep.js";
import type { AuthorizePush, PushRefusal, RefUpdate } from "./types.js";

/** Options of a {@link PushGate}. */
export interface PushGateOptions {
  /**
   * A private, local directory for the gate's socket and hook script (the server's tmp dir, say).
   * Keep it short: a Unix socket path may not exceed 107 bytes.
   */
  runtimeDir: string;
  /** How long the authorization callback may take before the push is refused (default 30 s). */
  authorizeTimeoutMs?: number;
}

/** One push in flight, as {@link PushGate.open} answers it. */
export interface PushSession {
  /** Arguments to put before `receive-pack` so that git runs the gate's hook. */
  readonly gitArgs: readonly string[];
  /** Environment for receive-pack, passed on to the hook: the socket and the push id. */
  readonly env: Readonly<Record<string, string>>;
  /** The updates the hook reported (empty until git ran the hook, and when it never did). */
  readonly requested: readonly RefUpdate[];
  /** The refusals the callback gave. */
  readonly refusals: readonly PushRefusal[];
  /** True once the hook asked and got an answer. */
  readonly decided: boolean;
  /** Forgets the push id (call when receive-pack exited); a hook still asking is refused. */
  close(): void;
}

interface Entry {
  gitDir: string;
  authorize: AuthorizePush;
  requested: RefUpdate[];
  refusals: PushRefusal[];
  decided: boolean;
  asked: boolean;
  sockets: Set<Socket>;
  /** The push as a write into the repository, from open to close. */
  write: RepositoryWrite;
}

interface Runtime {
  server: Server;
  dir: string;
  socket: string;
  hooks: string;
}

const MAX_SOCKET_PATH = 107;

/**
 * Push authorization inside `git receive-pack`: a Unix-socket server that answers the pre-receive
 * hook it installs. One gate serves a whole process; it starts listening on the first push and
 * stops on {@link PushGate.close}. It answers only push ids it registered, each once, and only
 * while the push's request is running; everything else, a dead gate included, refuses the push.
 *
 * Git runs no hook at all when the hook file is missing, so the gate checks its hook files
 * before every push (and writes them again if a tmp cleaner took them), and keeps them after
 * {@link PushGate.close} until the last push in flight ended: those pushes then find the hook,
 * which finds no socket and refuses.
 */
export class PushGate {
  private readonly sessions = new Map<string, Entry>();
  private starting: Promise<Runtime> | undefined;
  private closed = false;

  constructor(private readonly options: PushGateOptions) {}

  /**
   * Registers a push into `gitDir` decided by `authorize`, and answers what receive-pack must be
   * started with. Close the session when receive-pack exited.
   */
  async open(gitDir: string, authorize: AuthorizePush): Promise<PushSession> {
    const runtime = await this.start();
    await ensureHooks(runtime);
    if (this.closed) throw new GitError("failed", "the push gate is closed");
    const id = randomBytes(24).toString("base64url");
    const entry: Entry = {
      gitDir: await realpath(gitDir),
      authorize,
      requested: [],
      refusals: [],
      decided: false,
      asked: false,
      sockets: new Set(),
      write: beginWrite(gitDir),
    };
    this.sessions.set(id, entry);
    const timeoutMs = (this.options.authorizeTimeoutMs ?? 30_000) + 5_000;
    const end = () => this.end(id, entry, runtime);
    return {
      gitArgs: ["-c", `core.hooksPath=${runtime.hooks}`],
      env: { KILN_PUSH_SOCKET: runtime.socket, KILN_PUSH_ID: id, KILN_PUSH_TIMEOUT_MS: String(timeoutMs) },
      get requested() {
        return entry.requested;
      },
      get refusals() {
        return entry.refusals;
      },
      get decided() {
        return entry.decided;
      },
      close: end,
    };
  }

  /**
   * Stops answering: the pushes in flight are refused, new ones cannot open. The socket goes at
   * once, the hook files once the last push in flight closed its session.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const runtime = await this.starting?.catch(() => undefined);
    if (!runtime) return;
    for (const entry of this.sessions.values()) for (const open of entry.sockets) open.destroy();
    await new Promise<void>((resolve) => runtime.server.close(() => resolve()));
    if (this.sessions.size === 0) await rm(runtime.dir, { recursive: true, force: true });
  }

  private end(id: string, entry: Entry, runtime: Runtime): void {
    if (!this.sessions.delete(id)) return;
    entry.write.end();
    for (const open of entry.sockets) open.destroy();
    if (this.closed && this.sessions.size === 0)
      rm(runtime.dir, { recursive: true, force: true }).catch(() => undefined);
  }

  private start(): Promise<Runtime> {
    if (this.closed) return Promise.reject(new GitError("failed", "the push gate is closed"));
    this.starting ??= this.listen();
    return this.starting;
  }

  private async listen(): Promise<Runtime> {
    const dir = await mkdtemp(join(this.options.runtimeDir, RUNTIME_PREFIX));
    const socket = join(dir, "s");
    if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) {
      await rm(dir, { recursive: true, force: true });
      throw new GitError("invalid", `push gate socket path too long (${socket}); use a shorter runtimeDir`);
    }
    const hooks = await installHooks(dir);
    const server = createServer((connection) => this.serve(connection));
    server.on("error", () => undefined);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socket, () => {
        server.off("error", reject);
        resolve();
      });
    });
    server.unref();
    return { server, dir, socket, hooks };
  }

  private serve(connection: Socket): void {
    connection.on("error", () => undefined);
    connection.setTimeout(10_000, () => connection.destroy());
    readHookRequest(connection)
      .then(async (request) => {
        connection.setTimeout(0);
        const entry = request && !this.closed ? this.sessions.get(request.id) : undefined;
        if (!request || !entry || entry.asked || request.gitDir !== entry.gitDir) {
          return answer(connection, false, ["kiln: this push is unknown or has expired"]);
        }
        entry.asked = true;
        entry.sockets.add(connection);
        connection.on("close", () => entry.sockets.delete(connection));
        entry.requested = request.updates;
        const env = quarantineEnv(request.env, entry.gitDir);
        entry.refusals = await this.decide(entry, env);
        if (entry.refusals.length === 0) await releaseLocksOf(entry);
        entry.decided = true;
        const messages = [...new Set(entry.refusals.map((refusal) => clean(refusal.message)))];
        answer(connection, entry.refusals.length === 0, messages);
      })
      .catch(() => connection.destroy());
  }

  private async decide(entry: Entry, env: Record<string, string>): Promise<PushRefusal[]> {
    const limit = this.options.authorizeTimeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<PushRefusal[]>((resolve) => {
      timer = setTimeout(() => resolve([{ message: "kiln: push authorization timed out" }]), limit);
    });
    const decided = (async () => {
      const refusals = await entry.authorize(entry.requested, { gitDir: entry.gitDir, env });
      return [...(refusals ?? [])];
    })().catch(() => [{ message: "kiln: push authorization failed" }]);
    try {
      return await Promise.race([decided, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Removes the locks that a killed process left and nobody holds in the way of an allowed push:
 * its refs', `HEAD.lock` (taken with the branch HEAD names), `packed-refs.lock` and
 * `packed-refs.new` (for a deletion). Git takes them once the hook exits, and would refuse to update those refs. Locks a
 * running writer may hold stay, and git reports them.
 */
async function releaseLocksOf(entry: Entry): Promise<void> {
  const paths = entry.requested.map((update) => join(entry.gitDir, `${update.ref}.lock`));
  for (const name of ["HEAD.lock", "packed-refs.lock", "packed-refs.new"])
    paths.push(join(entry.gitDir, name));
  await releaseAbandonedLocks(entry.gitDir, paths, entry.write).catch(() => false);
}

// Writes the hook files again when they are gone: without them git would skip the hook.
async function ensureHooks(runtime: Runtime): Promise<void> {
  const present = await Promise.all([
    access(join(runtime.hooks, "pre-receive"), constants.X_OK),
    access(join(runtime.dir, "pre-receive.cjs"), constants.R_OK),
  ]).then(
    () => true,
    () => false,
  );
  if (!present) await installHooks(runtime.dir);
}

function answer(connection: Socket, allow: boolean, messages: readonly string[]): void {
  if (!connection.destroyed) connection.end(`${JSON.stringify({ allow, messages })}\n`);
}

// Control characters would let a message rewrite the client's terminal.
function clean(message: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  return message.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "").slice(0, 4000) || "kiln: push refused";
}
