// Starting the servers under test: Kiln itself (dist/main.js serve) and the baselines.
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { startChild, waitForStdoutJson } from "./proc.mjs";

const BENCH_DIR = fileURLToPath(new URL("..", import.meta.url));
/**
 * The Kiln bundle under test: `dist/main.js`, or `BENCH_KILN_MAIN` (e.g. a bundle of another commit
 * copied next to it, to compare two versions under the same harness).
 */
export const MAIN_JS = process.env.BENCH_KILN_MAIN
  ? resolve(process.env.BENCH_KILN_MAIN)
  : join(BENCH_DIR, "..", "dist", "main.js");

/** A port that was free a moment ago (Kiln logs its port only at info level, so we choose it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

/** The environment of a child: ours, minus anything that would point Kiln elsewhere, plus `extra`. */
function childEnv(extra) {
  const env = { ...process.env, ...extra };
  for (const name of ["DATABASE_URL", "KILN_BASE_URL", "NODE_OPTIONS"]) delete env[name];
  return env;
}

/**
 * Starts `node dist/main.js serve` on `dataDir`, its log (stdout and stderr) going to a file, and
 * waits until it answers HTTP (`readyMs`: from spawn to that answer). `nodeArgs` are passed to node
 * (e.g. --cpu-prof); `extraEnv` is added to its environment.
 *
 * @param {{ label: string; dataDir: string; logDir: string; logLevel: string; rootPassword: string;
 *   nodeArgs?: string[]; extraEnv?: Record<string, string> }} options
 */
export async function startKiln({
  label,
  dataDir,
  logDir,
  logLevel,
  rootPassword,
  nodeArgs = [],
  extraEnv = {},
}) {
  const port = await freePort();
  const logFile = join(logDir, `kiln-${label}.log`);
  const env = childEnv({
    PORT: String(port),
    KILN_DATA_DIR: dataDir,
    KILN_ROOT_PASSWORD: rootPassword,
    LOG_LEVEL: logLevel,
    ...extraEnv,
  });
  const handle = startChild(`kiln (${label})`, process.execPath, [...nodeArgs, MAIN_JS, "serve"], {
    env,
    logFile,
  });
  const url = `http://127.0.0.1:${port}`;
  const spawned = performance.now();
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (!handle.running) throw new Error(`${handle.name} exited at start; see its log ${logFile}`);
    try {
      const res = await fetch(`${url}/api/v3/user`); // 401 without a token: the server is up
      await res.arrayBuffer();
      return { handle, url, logFile, readyMs: Math.round(performance.now() - spawned) };
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`${handle.name} did not answer on ${url} within 30 s`);
}

/**
 * Starts one of the baseline servers in bench/servers/; it prints its port on stdout.
 * @param {string} label
 * @param {string} script
 * @param {string[]} [args]
 * @param {Record<string, string>} [extraEnv]
 */
export async function startBaseline(label, script, args = [], extraEnv = {}) {
  const handle = startChild(label, process.execPath, [join(BENCH_DIR, "servers", script), ...args], {
    env: childEnv({ PORT: "0", ...extraEnv }),
  });
  const { port } = await waitForStdoutJson(handle);
  return { handle, url: `http://127.0.0.1:${port}` };
}

/** `POST /api/v3/session`; resolves to the private token. */
export async function signIn(url, login, password) {
  const res = await fetch(`${url}/api/v3/session`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ login, password }),
  });
  const body = /** @type {{ private_token: string }} */ (await res.json());
  if (res.status !== 201 && res.status !== 200) {
    throw new Error(`sign-in as ${login} failed: ${res.status} ${JSON.stringify(body)}`);
  }
  return body.private_token;
}

/**
 * A v3 client for the bench's own setup: `api(method, path, json?)` answers the parsed body, and
 * throws on a status of 300 or more.
 * @param {string} url
 * @param {string} token
 * @returns {(method: string, path: string, json?: unknown) => Promise<any>}
 */
export function v3Client(url, token) {
  return async (method, path, json) => {
    const res = await fetch(`${url}/api/v3${path}`, {
      method,
      headers: { "PRIVATE-TOKEN": token, "Content-Type": "application/json" },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const body = await res.json();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
}

/** One GET, for checking a case before loading it: status, selected headers, body bytes and parsed body. */
export async function probe(url, headers = {}) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {}
  return {
    status: res.status,
    total: res.headers.get("x-total"),
    bytes: Buffer.byteLength(text),
    body,
    text,
  };
}
