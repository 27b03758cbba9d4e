import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** How a run of the git client ended. */
export interface GitRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A scratch directory for clones and work trees, and the environment of a git client with no config. */
export interface GitClient {
  root: string;
  /** Runs git in `cwd` (default the root); never throws for a failing git. */
  run(args: readonly string[], cwd?: string): Promise<GitRun>;
  /** Runs git and answers its trimmed stdout; throws with its stderr when it fails. */
  ok(args: readonly string[], cwd?: string): Promise<string>;
  /** Writes `file` in the work tree `dir` and commits it; answers the new commit's sha. */
  commit(dir: string, message: string, file?: string): Promise<string>;
  remove(): void;
}

/**
 * The real git client, isolated from the machine's and the user's configuration, with prompts
 * off (a 401 makes git fail at once instead of waiting for a password) and a fixed identity.
 */
export function gitClient(): GitClient {
  const root = mkdtempSync(join(tmpdir(), "kiln-git-client-"));
  const env = {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    HOME: root,
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "",
    SSH_ASKPASS: "",
    GIT_AUTHOR_NAME: "Client Author",
    GIT_AUTHOR_EMAIL: "client@example.com",
    GIT_COMMITTER_NAME: "Client Author",
    GIT_COMMITTER_EMAIL: "client@example.com",
  };
  const run = (args: readonly string[], cwd = root) =>
    new Promise<GitRun>((resolve, reject) => {
      const child = spawn("git", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  const ok = async (args: readonly string[], cwd = root) => {
    const result = await run(args, cwd);
    if (result.code !== 0) throw new Error(`git ${args.join(" ")} failed (${result.code}): ${result.stderr}`);
    return result.stdout.trim();
  };
  let counter = 0;
  return {
    root,
    run,
    ok,
    commit: async (dir, message, file = "file.txt") => {
      counter += 1;
      writeFileSync(join(dir, file), `${message} ${counter}\n`);
      await ok(["add", file], dir);
      await ok(["commit", "--quiet", "-m", message], dir);
      return ok(["rev-parse", "HEAD"], dir);
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The URL of a project's repository with credentials in it (`user:secret@`), or anonymous. */
export function repoUrl(
  base: string,
  path: string,
  credentials?: { username: string; secret: string },
): string {
  const url = new URL(`${base}/${path}.git`);
  if (credentials) {
    url.username = encodeURIComponent(credentials.username);
    url.password = encodeURIComponent(credentials.secret);
  }
  return url.toString();
}

/** A relay in front of a server: connections to `url` reach the server from another address. */
export interface AddressRelay {
  /** The server's base URL, through the relay. */
  url: string;
  close(): Promise<void>;
}

/**
 * Relays TCP connections from a port on 127.0.0.1 to the server at `base`, connecting to it from
 * `localAddress` (another loopback address, `127.0.0.2`): git cannot choose the address it
 * connects from, and the server sees every client on this machine as 127.0.0.1 otherwise.
 */
export function relayFrom(base: string, localAddress: string): Promise<AddressRelay> {
  const target = new URL(base);
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const upstream = connect({ host: target.hostname, port: Number(target.port), localAddress });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  return new Promise((resolve, reject) => {
    relay.once("error", reject);
    relay.listen(0, "127.0.0.1", () => {
      const { port } = relay.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((closed) => {
            for (const socket of sockets) socket.destroy();
            relay.close(() => closed());
          }),
      });
    });
  });
}
