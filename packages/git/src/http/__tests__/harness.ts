// Test support: a loopback node:http git server over temp bare repositories, and the real git client.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readlink, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PushGate } from "../../push/gate.js";
import type { AuthorizePush } from "../../push/types.js";
import { advertiseRefs } from "../advertise.js";
import { type ServiceRpcOptions, type ServiceRpcResult, serviceRpc } from "../rpc.js";
import { parseGitService } from "../service.js";
import type { GitHttpResult } from "../stream.js";

/** A temp directory tree for one test file: repositories, client homes, work trees. */
export interface Sandbox {
  root: string;
  repos: string;
  home: string;
  env: Record<string, string>;
  remove(): Promise<void>;
}

/** Makes a sandbox whose client git has an identity and no system or user configuration. */
export async function sandbox(): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), "kiln-git-http-"));
  const repos = join(root, "repos");
  const home = join(root, "home");
  await mkdir(repos);
  await mkdir(home);
  const globalConfig = join(home, ".gitconfig");
  await writeFile(
    globalConfig,
    "[user]\n\tname = Ada Client\n\temail = ada@example.com\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n",
  );
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: globalConfig,
    GIT_TERMINAL_PROMPT: "0",
    LC_ALL: "C",
  };
  return { root, repos, home, env, remove: () => rm(root, { recursive: true, force: true }) };
}

/** What the client printed and how it exited. */
export interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real git client (not the isolated server runner). */
export function git(
  box: Sandbox,
  args: readonly string[],
  cwd = box.root,
  input?: string,
): Promise<ClientRun> {
  return new Promise((resolve) => {
    const child = spawn("git", args, { cwd, env: box.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.stdin.end(input);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Like {@link git} but fails the test on a non-zero exit; answers stdout trimmed. */
export async function gitOk(box: Sandbox, args: readonly string[], cwd = box.root): Promise<string> {
  const run = await git(box, args, cwd);
  if (run.code !== 0) throw new Error(`git ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
  return run.stdout.trim();
}

/** Creates `<repos>/<name>.git`, bare, empty. */
export async function bareRepo(box: Sandbox, name: string): Promise<string> {
  const dir = join(box.repos, `${name}.git`);
  await gitOk(box, ["init", "--quiet", "--bare", dir]);
  return dir;
}

/** A work tree with `count` commits on main (one file changed each). */
export async function workTree(box: Sandbox, name: string, count: number): Promise<string> {
  const dir = join(box.root, name);
  await gitOk(box, ["init", "--quiet", dir]);
  await commits(box, dir, count, name);
  return dir;
}

/** Adds `count` commits to the work tree, each writing `<prefix>-<i>.txt`. */
export async function commits(box: Sandbox, dir: string, count: number, prefix: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    await writeFile(join(dir, `${prefix}-${i}.txt`), `${prefix} ${i}\n`);
    await gitOk(box, ["add", "."], dir);
    await gitOk(box, ["commit", "--quiet", "-m", `${prefix} commit ${i}`], dir);
  }
}

/** One request the test server saw. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  result?: GitHttpResult | ServiceRpcResult;
}

/** The loopback git server of the tests. */
export interface TestServer {
  url: string;
  gate: PushGate;
  requests: SeenRequest[];
  /** Decides pushes; the default lets everything through. */
  authorize: AuthorizePush;
  /** Extra options for every POST. */
  rpcOptions: Omit<ServiceRpcOptions, "push">;
  /** Resolves once every request seen so far finished. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

// The repository name is validated before it becomes a path.
const ROUTE = /^\/([A-Za-z0-9_-]+)\.git\/(info\/refs|git-upload-pack|git-receive-pack)$/;

/**
 * Starts a node:http server on loopback that routes `/<name>.git/info/refs`, `…/git-upload-pack`
 * and `…/git-receive-pack` for the sandbox's repositories to advertiseRefs and serviceRpc. Every
 * POST gets `defaults` (under the test's `rpcOptions`): Kiln's server turns `cacheRefListings` on.
 */
export async function startServer(
  box: Sandbox,
  defaults: Omit<ServiceRpcOptions, "push"> = {},
): Promise<TestServer> {
  const gate = new PushGate({ runtimeDir: box.root });
  const pending: Promise<unknown>[] = [];
  const state: TestServer = {
    url: "",
    gate,
    requests: [],
    authorize: () => [],
    rpcOptions: {},
    settled: async () => {
      await Promise.all(pending);
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await gate.close();
    },
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const match = ROUTE.exec(url.pathname);
    const gitDir = match ? join(box.repos, `${match[1]}.git`) : "";
    if (!match || !existsSync(gitDir)) {
      res.writeHead(404).end();
      return;
    }
    const seen: SeenRequest = { method: req.method ?? "", path: url.pathname, headers: req.headers };
    state.requests.push(seen);
    const service = parseGitService(match[2] === "info/refs" ? url.searchParams.get("service") : match[2]);
    if (!service) {
      res.writeHead(403).end();
      return;
    }
    const work =
      match[2] === "info/refs"
        ? advertiseRefs(gitDir, service, res, { gitProtocol: req.headers["git-protocol"] })
        : serviceRpc(gitDir, service, req, res, {
            ...defaults,
            ...state.rpcOptions,
            ...(service === "git-receive-pack"
              ? { push: { gate, authorize: (updates, context) => state.authorize(updates, context) } }
              : {}),
          });
    pending.push(
      work.then((result) => {
        seen.result = result;
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** Processes (other than this one) whose working directory is inside `dir`: git left behind. */
export async function processesIn(dir: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => "");
    if (cwd === dir || cwd.startsWith(`${dir}/`)) found.push(Number(entry));
  }
  return found;
}

/**
 * Sends a POST over a raw socket with `Connection: close` and its body in `pieces` (a short pause
 * after each), as a client that writes its whole request before it reads the answer. Resolves
 * with the answer's status line, or with the socket's error code when the connection was reset
 * (the server closed it on bytes it never read, and the answer was lost).
 */
export function postInPieces(
  url: string,
  path: string,
  headers: Record<string, string>,
  pieces: readonly Buffer[],
): Promise<string> {
  const { hostname, port } = new URL(url);
  const length = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    "Connection: close",
    `Content-Length: ${length}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = "";
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)));
    socket.on("end", () => resolve(answer.split("\r\n")[0] ?? ""));
    socket.write(`${head.join("\r\n")}\r\n\r\n`);
    const send = (index: number) => {
      const piece = pieces[index];
      if (piece === undefined) socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
      else socket.write(piece, () => setTimeout(() => send(index + 1), 30));
    };
    send(0);
  });
}
