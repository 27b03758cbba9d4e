import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The pre-receive hook, run by node for every push. It reads the ref lines git gives it, works
 * out which updates are forced (inside git's quarantine, so it sees the pushed objects), asks
 * the push gate over its Unix socket, prints the gate's messages (the client shows them as
 * `remote: …`) and exits 0 only on an explicit "allow": a missing socket, an unknown push, a
 * malformed answer or a timeout all refuse the push.
 */
const PRE_RECEIVE_SCRIPT = String.raw`"use strict";
const { spawnSync } = require("node:child_process");
const net = require("node:net");

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const REF = /^refs\/[^\s]+$/;
const socketPath = process.env.KILN_PUSH_SOCKET;
const pushId = process.env.KILN_PUSH_ID;
const timeoutMs = Number(process.env.KILN_PUSH_TIMEOUT_MS) || 60000;
let finished = false;

function finish(code, messages) {
  if (finished) return;
  finished = true;
  for (const message of messages) process.stderr.write(message + "\n");
  process.exit(code);
}

function refuse(message) {
  finish(1, [message]);
}

function parse(input) {
  const updates = [];
  for (const line of input.split("\n")) {
    if (line === "") continue;
    const [oldSha, newSha, ref] = line.split(" ");
    if (!SHA.test(oldSha) || !SHA.test(newSha) || !REF.test(ref || "")) return undefined;
    const kind = /^0+$/.test(oldSha) ? "create" : /^0+$/.test(newSha) ? "delete" : "update";
    let forced = false;
    if (kind === "update") {
      const result = spawnSync("git", ["merge-base", "--is-ancestor", oldSha, newSha], { stdio: "ignore" });
      forced = result.status !== 0;
    }
    updates.push({ ref, oldSha, newSha, kind, forced });
  }
  return updates;
}

function ask(request) {
  const socket = net.createConnection(socketPath);
  const timer = setTimeout(() => {
    socket.destroy();
    refuse("kiln: push authorization timed out");
  }, timeoutMs);
  let answer = "";
  socket.setEncoding("utf8");
  socket.on("connect", () => socket.write(JSON.stringify(request) + "\n"));
  socket.on("data", (data) => {
    answer += data;
    if (answer.length > 1048576) socket.destroy();
  });
  socket.on("error", () => undefined);
  socket.on("close", () => {
    clearTimeout(timer);
    let verdict;
    try {
      verdict = JSON.parse(answer);
    } catch {
      return refuse("kiln: push authorization unavailable");
    }
    const messages = Array.isArray(verdict && verdict.messages) ? verdict.messages.map(String) : [];
    if (verdict && verdict.allow === true) finish(0, messages);
    else finish(1, messages.length > 0 ? messages : ["kiln: push refused"]);
  });
}

if (!socketPath || !pushId) refuse("kiln: this push cannot be authorized");
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (data) => {
  input += data;
});
process.stdin.on("end", () => {
  const updates = parse(input);
  if (updates === undefined) return refuse("kiln: unreadable push");
  const env = {};
  for (const name of ["GIT_QUARANTINE_PATH", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES"]) {
    if (process.env[name]) env[name] = process.env[name];
  }
  ask({ id: pushId, gitDir: process.cwd(), updates, env });
});
`;

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * Writes the hook files into `dir`: `dir/hooks/pre-receive` (a `/bin/sh` launcher for
 * `nodePath`) and the script it runs. Answers the directory to give git as `core.hooksPath`.
 */
export async function installHooks(dir: string, nodePath: string = process.execPath): Promise<string> {
  const hooks = join(dir, "hooks");
  const script = join(dir, "pre-receive.cjs");
  await mkdir(hooks, { recursive: true, mode: 0o700 });
  await writeFile(script, PRE_RECEIVE_SCRIPT, { mode: 0o600 });
  const launcher = join(hooks, "pre-receive");
  await writeFile(launcher, `#!/bin/sh\nexec ${shellQuote(nodePath)} ${shellQuote(script)}\n`, {
    mode: 0o700,
  });
  await chmod(launcher, 0o700);
  return hooks;
}
