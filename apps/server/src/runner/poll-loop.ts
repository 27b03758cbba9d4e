import type { BuildHost } from "./build-job.js";
import { runBuild } from "./build-job.js";
import { Backoff, SERVER_AWAY, sleep, untilAvailable } from "./retry.js";

/** How the runner asks for work. */
export interface PollSettings {
  /** Builds at once (one request for a build per free slot). */
  concurrency: number;
  /** Run one build, then stop. */
  once: boolean;
  /** Waits after an empty answer that came at once (a server that does not hold the request). */
  idleMinMs?: number;
  idleMaxMs?: number;
}

/** An empty answer that took at least this long came from a server holding the request (long poll). */
const LONG_POLL_MS = 1000;

/**
 * Asks the server for builds and runs them, `concurrency` at a time, until `stopPolling` aborts
 * (then running builds finish) or, with `once`, one build ran. A server that is away is waited for
 * with backoff, for ever; an empty answer is followed by a pause unless the server held the request.
 * Resolves to the exit code: 1 when the server refuses the runner's token.
 */
export async function pollForBuilds(
  host: BuildHost,
  settings: PollSettings,
  stopPolling: AbortSignal,
  stopBuilds?: AbortSignal,
): Promise<number> {
  const done = new AbortController();
  const until = AbortSignal.any([stopPolling, done.signal]);
  let exitCode = 0;
  /** One ask and what follows it: "stop" when the runner must end, else "again" (after a pause). */
  const turn = async (index: number, idle: Backoff): Promise<"again" | "stop"> => {
    const asked = Date.now();
    const answer = await untilAvailable(
      "build request",
      () => host.api.requestBuild(host.runnerToken, until),
      {
        log: host.log,
        policy: SERVER_AWAY,
        signal: until,
      },
    );
    if (answer.kind === "forbidden") {
      host.log.error({}, "the server refused the runner token (was the runner deleted?); register again");
      exitCode = 1;
      return "stop";
    }
    if (answer.kind !== "build") {
      if (answer.kind === "failed") host.log.warn({ answer }, "build request failed");
      if (answer.kind === "failed" || Date.now() - asked < LONG_POLL_MS) await sleep(idle.next(), until);
      return "again";
    }
    idle.reset();
    const build = answer.build;
    host.log.info(
      { build: build.id, project: build.project_id, name: build.name, slot: index },
      "build received",
    );
    const end = await runBuild(build, host, index, stopBuilds);
    host.log.info({ build: build.id, status: end }, "build finished");
    return settings.once ? "stop" : "again";
  };
  const slot = async (index: number) => {
    const idle = new Backoff(settings.idleMinMs ?? 1000, settings.idleMaxMs ?? 5000);
    while (!until.aborted) {
      try {
        if ((await turn(index, idle)) === "stop") done.abort();
      } catch (error) {
        if (until.aborted) return;
        // A bug or an answer not as 8.x's (a build that does not parse): logged, and the runner goes on.
        host.log.error({ error: (error as Error).stack ?? String(error) }, "build request or build failed");
        await sleep(idle.next(), until);
      }
    }
  };
  const slots = settings.once ? 1 : Math.max(1, settings.concurrency);
  await Promise.all(Array.from({ length: slots }, (_, index) => slot(index)));
  return exitCode;
}
