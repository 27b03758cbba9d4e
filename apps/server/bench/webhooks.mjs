// Webhook delivery bench (issue "Webhooks delivered"): what the outbox and its deliveries cost a
// request, how fast one server delivers, and whether a hung receiver slows the others.
//   node bench/webhooks.mjs [--issues N]      (after corepack pnpm build; ~1 min; usage: bench/README.md)
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { cleanUp, installExitHandlers, processCpuSeconds, removeOnExit } from "./lib/proc.mjs";
import { signIn, startKiln, v3Client } from "./lib/servers.mjs";

const { values } = parseArgs({ options: { issues: { type: "string", default: "400" } } });
const ISSUES = Number(values.issues);
const PASSWORD = "bench-root-password";
/** Requests in flight at once while issues are created. */
const CONCURRENCY = 8;

/**
 * A receiver on loopback: counts each path's deliveries with the time each came, answers 200 at
 * once, or after `slowMs` on paths starting with `/slow`.
 */
async function startReceiver(slowMs) {
  /** @type {Map<string, number[]>} */
  const arrivals = new Map();
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const path = req.url ?? "/";
      const times = arrivals.get(path) ?? [];
      times.push(performance.now());
      arrivals.set(path, times);
      if (path.startsWith("/slow")) setTimeout(() => res.end("ok"), slowMs).unref();
      else res.end("ok");
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    count: (path) => arrivals.get(path)?.length ?? 0,
    times: (path) => arrivals.get(path) ?? [],
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Creates `count` issues in the project, `CONCURRENCY` requests at a time. */
async function createIssues(api, projectId, count) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      await api("POST", `/projects/${projectId}/issues`, { title: `Issue ${next}` });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** Waits until `done()` holds (deadline `ms`). */
async function until(done, ms = 120_000) {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("bench: deliveries did not arrive in time");
    await sleep(20);
  }
}

/** Waits until the server's CPU time stops growing (its background work is done). */
async function settled(pid) {
  let last = processCpuSeconds(pid);
  for (;;) {
    await sleep(300);
    const now = processCpuSeconds(pid);
    if (now - last < 0.01) return now;
    last = now;
  }
}

/** Deliveries a second between the 10th and the 90th percentile of arrivals (the steady state). */
function steadyRate(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const from = sorted[Math.floor(sorted.length * 0.1)];
  const to = sorted[Math.floor(sorted.length * 0.9)];
  const count = Math.floor(sorted.length * 0.9) - Math.floor(sorted.length * 0.1);
  return (count / (to - from)) * 1000;
}

async function main() {
  installExitHandlers();
  const tmp = mkdtempSync(join(tmpdir(), "kiln-bench-hooks-"));
  removeOnExit(tmp);
  const receiver = await startReceiver(30_000);
  const kiln = await startKiln({
    label: "hooks",
    dataDir: join(tmp, "data"),
    logDir: tmp,
    logLevel: "warn",
    rootPassword: PASSWORD,
    // BENCH_PROFILE=1: a CPU profile of the server, for bench/profile-summary.mjs.
    nodeArgs:
      process.env.BENCH_PROFILE === "1"
        ? ["--cpu-prof", `--cpu-prof-dir=${join(tmp, "..", "kiln-hooks-profile")}`]
        : [],
  });
  const pid = kiln.handle.pid;
  const api = v3Client(kiln.url, await signIn(kiln.url, "root", PASSWORD));
  await api("PUT", "/application/settings", { allow_local_requests_from_hooks: true });
  const project = async (name, hookPaths) => {
    const { id } = await api("POST", "/projects", { name });
    for (const path of hookPaths) {
      await api("POST", `/projects/${id}/hooks`, {
        url: `${receiver.url}${path}`,
        push_events: false,
        issues_events: true,
      });
    }
    return id;
  };
  console.log(`bench: webhooks, ${ISSUES} issues per case, ${CONCURRENCY} requests at once`);

  // 1. CPU of the server per created issue: no hooks, then 3 hooks (their deliveries included).
  const cpuPerIssue = async (name, paths) => {
    const id = await project(name, paths);
    await createIssues(api, id, 50); // warm-up
    await until(() => paths.every((path) => receiver.count(path) >= 50));
    const before = await settled(pid);
    await createIssues(api, id, ISSUES);
    await until(() => paths.every((path) => receiver.count(path) >= 50 + ISSUES));
    return ((await settled(pid)) - before) / ISSUES;
  };
  const bare = await cpuPerIssue("no-hooks", []);
  const hooked = await cpuPerIssue("three-hooks", ["/h1", "/h2", "/h3"]);
  // The same deliveries refused by the address guard before they connect: the outbox's own work
  // (event, payload, queue, claim, record) without the network's.
  const refusedId = await project("three-refused", ["/x1", "/x2", "/x3"]);
  await api("PUT", "/application/settings", { allow_local_requests_from_hooks: false });
  await createIssues(api, refusedId, 50);
  const before = await settled(pid);
  await createIssues(api, refusedId, ISSUES);
  const refused = ((await settled(pid)) - before) / ISSUES;
  await api("PUT", "/application/settings", { allow_local_requests_from_hooks: true });
  const more = (cost) => `+${((cost / bare - 1) * 100).toFixed(1)} %`;
  console.log(
    `bench: CPU per POST /projects/:id/issues: ${(bare * 1000).toFixed(2)} ms without hooks; with 3 hooks ` +
      `${(refused * 1000).toFixed(2)} ms when their deliveries are refused before connecting (${more(refused)}), ` +
      `${(hooked * 1000).toFixed(2)} ms when they are sent (${more(hooked)})`,
  );

  // 2. Deliveries a second from one server: 10 hooks, issues created faster than they are delivered.
  const many = Array.from({ length: 10 }, (_, i) => `/r${i}`);
  const rateId = await project("rate", many);
  await createIssues(api, rateId, ISSUES);
  await until(() => many.every((path) => receiver.count(path) >= ISSUES));
  const rate = steadyRate(many.flatMap((path) => receiver.times(path)));
  console.log(
    `bench: ${rate.toFixed(0)} deliveries/s to a local receiver (10 hooks, ${10 * ISSUES} deliveries)`,
  );

  // 3. One hook's rate alone, then beside a hook whose receiver answers after 30 s.
  const alone = await project("fast-alone", ["/fast-alone"]);
  await createIssues(api, alone, ISSUES);
  await until(() => receiver.count("/fast-alone") >= ISSUES);
  const aloneRate = steadyRate(receiver.times("/fast-alone"));
  const beside = await project("fast-beside", ["/fast-beside", "/slow"]);
  await createIssues(api, beside, ISSUES);
  await until(() => receiver.count("/fast-beside") >= ISSUES);
  const besideRate = steadyRate(receiver.times("/fast-beside"));
  console.log(
    `bench: one hook: ${aloneRate.toFixed(0)} deliveries/s alone, ${besideRate.toFixed(0)} beside a hook ` +
      `answering after 30 s (${receiver.count("/slow")} sent to it meanwhile): ${((besideRate / aloneRate) * 100).toFixed(0)} %`,
  );
  receiver.close();
  await kiln.handle.stop();
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanUp);
