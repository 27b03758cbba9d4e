// One measured rep of a case: wrk's figures plus CPU accounting from /proc.
import { machineBusySeconds, processCpuSeconds, reapedChildrenCpuSeconds } from "./proc.mjs";
import { runWrk } from "./wrk.mjs";

/** One wrk rep with CPU accounting: the server's, wrk's, and everything else's on the machine. */
async function measure(kase, config) {
  const pid = kase.server.handle.pid;
  const server0 = processCpuSeconds(pid);
  const wrk0 = reapedChildrenCpuSeconds();
  const busy0 = machineBusySeconds();
  const self0 = process.cpuUsage();
  const result = await runWrk(kase.url, {
    seconds: config.seconds,
    connections: config.connections,
    headers: kase.headers,
    script: kase.script,
  });
  const serverCpuS = processCpuSeconds(pid) - server0;
  const wrkCpuS = reapedChildrenCpuSeconds() - wrk0;
  const self = process.cpuUsage(self0);
  const selfCpuS = (self.user + self.system) / 1e6;
  const foreignCpuS = Math.max(0, machineBusySeconds() - busy0 - serverCpuS - wrkCpuS - selfCpuS);
  const { raw, ...figures } = result;
  return {
    ...figures,
    serverCpuS,
    wrkCpuS,
    foreignCpuS,
    cpuUsPerReq: result.requests > 0 ? (serverCpuS * 1e6) / result.requests : null,
  };
}

/** A rep, retried while other processes were busy (keeps the cleanest attempt), as performance.md does. */
export async function measureClean(kase, config) {
  const limit = (config.maxForeign * config.seconds) / 10;
  let best = null;
  for (let attempt = 0; attempt <= config.retries; attempt++) {
    const rep = { ...(await measure(kase, config)), attempt: attempt + 1 };
    if (!best || rep.foreignCpuS < best.foreignCpuS) best = rep;
    if (rep.foreignCpuS <= limit) break;
    console.log(`  ${kase.id}: other processes used ${rep.foreignCpuS.toFixed(2)} CPU-s; retrying the rep`);
  }
  return /** @type {NonNullable<typeof best>} */ (best); // the loop ran at least once
}
