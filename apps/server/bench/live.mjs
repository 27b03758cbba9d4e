// Live stream bench (issue "The VS Code extension"): what 1,000 open `live.events` streams cost the
// server in memory, and how soon a change reaches a stream.
//   node bench/live.mjs [--streams N] [--changes N] [--warm-up N]    (after corepack pnpm build; ~1 min; bench/README.md)
import { mkdtempSync, readFileSync } from "node:fs";
import { Agent, get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { cleanUp, installExitHandlers, removeOnExit } from "./lib/proc.mjs";
import { signIn, startKiln, v3Client } from "./lib/servers.mjs";

const { values } = parseArgs({
  options: {
    streams: { type: "string", default: "1000" },
    changes: { type: "string", default: "20" },
    "warm-up": { type: "string", default: "2000" },
  },
});
const STREAMS = Number(values.streams);
const WARM_UP = Number(values["warm-up"]);
const CHANGES = Number(values.changes);
const PASSWORD = "bench-root-password";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The resident memory of a process, in MiB. */
const rssMiB = (pid) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;

/**
 * Opens one `live.events` stream (tRPC over server-sent events) and calls `onData` with the text
 * of each `data:` line; answers once the server answered, with a function that closes it.
 */
function openStream(url, token, agent, onData) {
  return new Promise((resolve, reject) => {
    const req = get(
      `${url}/api/trpc/live.events`,
      { agent, headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" } },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`live.events answered ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding("utf8");
        let buffer = "";
        // One server-sent event's fields until the blank line that ends it; tRPC's own events
        // (`connected`, `ping` every 15 s) are not changes and are not passed on.
        let event = "message";
        let data = null;
        res.on("data", (chunk) => {
          buffer += chunk;
          const lines = buffer.split("\n");
          buffer = lines.pop() ?? "";
          for (const line of lines) {
            if (line.startsWith("event:")) event = line.slice(6).trim();
            else if (line.startsWith("data:")) data = line.slice(5);
            else if (line === "") {
              if (event === "message" && data !== null) onData(data);
              event = "message";
              data = null;
            }
          }
        });
        res.on("error", () => {});
        resolve(() => req.destroy());
      },
    );
    req.on("error", (error) => reject(error));
  });
}

async function main() {
  installExitHandlers();
  const tmp = mkdtempSync(join(tmpdir(), "kiln-bench-live-"));
  removeOnExit(tmp);
  const kiln = await startKiln({
    label: "live",
    dataDir: join(tmp, "data"),
    logDir: tmp,
    logLevel: "warn",
    rootPassword: PASSWORD,
  });
  const pid = kiln.handle.pid;
  const token = await signIn(kiln.url, "root", PASSWORD);
  const api = v3Client(kiln.url, token);
  const { id } = await api("POST", "/projects", { name: "live" });
  const file = (branch, content) =>
    api("POST", `/projects/${id}/repository/files`, {
      file_path: `${branch}.txt`,
      branch_name: branch,
      content,
      commit_message: branch,
    });
  await file("master", "a\n");
  await api("POST", `/projects/${id}/repository/branches`, { branch_name: "topic", ref: "master" });
  await file("topic", "b\n");
  const mr = await api("POST", `/projects/${id}/merge_requests`, {
    source_branch: "topic",
    target_branch: "master",
    title: "Live",
  });
  // The streams of other users, whom the merge request does not concern: each looks at the
  // change and passes on, as the editors of a team's other members do.
  await api("POST", "/users", {
    email: "watcher@example.com",
    username: "watcher",
    name: "Watcher",
    password: PASSWORD,
  });
  const watcher = await signIn(kiln.url, "watcher", PASSWORD);
  console.log(`bench: live stream, ${STREAMS} streams, ${CHANGES} changes`);

  // 1. Memory: the server's resident size before and after the streams open. A server at work has
  // grown V8's young generation already (some 20 MiB, once); an idle one grows it for the first
  // traffic it sees, whatever that is. So the size is read idle, then after some ordinary API
  // traffic, and the streams' cost is given from both.
  await sleep(1000);
  const idle = rssMiB(pid);
  for (let i = 0; i < WARM_UP; i += 20)
    await Promise.all(
      Array.from({ length: 20 }, () => api("GET", `/projects/${id}/merge_requests/${mr.id}`)),
    );
  await sleep(1000);
  const before = rssMiB(pid);
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const closers = [];
  let received = 0;
  for (let i = 0; i < STREAMS; i += 50) {
    const batch = Array.from({ length: Math.min(50, STREAMS - i) }, () =>
      openStream(kiln.url, watcher, agent, () => {
        received += 1;
      }),
    );
    closers.push(...(await Promise.all(batch)));
  }
  await sleep(2000);
  const opened = rssMiB(pid);
  const perStream = (from) =>
    `+${(opened - from).toFixed(1)} MiB, ${(((opened - from) * 1024) / STREAMS).toFixed(1)} KiB a stream`;
  console.log(
    `bench: ${STREAMS} open streams: server RSS idle ${idle.toFixed(0)} MiB, after ${WARM_UP} API requests ` +
      `${before.toFixed(0)} MiB, with the streams ${opened.toFixed(0)} MiB (${perStream(before)}; from idle ${perStream(idle)})`,
  );

  // 2. Latency: a change to the merge request until its author's stream hears of it, with all open.
  const waiting = [];
  const close = await openStream(kiln.url, token, agent, (data) => {
    for (const w of waiting.splice(0)) w(data);
  });
  await sleep(500);
  const latencies = [];
  for (let i = 0; i < CHANGES; i++) {
    const heard = new Promise((resolve) => waiting.push(resolve));
    const started = performance.now();
    await api("PUT", `/projects/${id}/merge_requests/${mr.id}`, { title: `Live ${i}` });
    await heard;
    latencies.push(performance.now() - started);
    await sleep(100);
  }
  const after = rssMiB(pid);
  console.log(
    `bench: change → stream: median ${median(latencies).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms ` +
      `(${CHANGES} changes, the PUT included; ${received} changes reached the ${STREAMS} other streams, which they do not concern; RSS then ${after.toFixed(0)} MiB)`,
  );
  close();
  for (const closeOne of closers) closeOne();
  agent.destroy();
  await kiln.handle.stop();
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanUp);
