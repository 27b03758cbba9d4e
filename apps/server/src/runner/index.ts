import { mkdir } from "node:fs/promises";
import { createLogger } from "../logger.js";
import { RunnerApi } from "./api-client.js";
import type { RunnerLog } from "./log.js";
import { parseRunnerOptions, type RunnerOptions, RunnerUsageError } from "./options.js";
import { pollForBuilds } from "./poll-loop.js";
import { untilAvailable } from "./retry.js";
import { readRegistration, saveRegistration } from "./saved-registration.js";

/** Where the command writes its few lines for a person (the rest is the JSON log). */
export interface RunnerIo {
  out(line: string): void;
}

/**
 * `kiln runner`: registers (or reuses the registration saved in the builds dir), then takes and
 * runs builds until SIGINT/SIGTERM (running builds finish; a second signal stops them) or, with
 * `--once`, one build ran. Speaks only the runner API `/ci/api/v1`, so it runs on any machine
 * that reaches the server. Resolves to the exit code.
 */
export async function runnerCommand(args: string[], io: RunnerIo): Promise<number> {
  const options = parseRunnerOptions(args);
  await mkdir(options.buildsDir, { recursive: true, mode: 0o700 });
  const log = createLogger(process.env["LOG_LEVEL"] ?? "info");
  const api = new RunnerApi(options.url);
  const runnerToken = await runnerTokenOf(options, api, log, io);

  const stopPolling = new AbortController();
  const stopBuilds = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stopPolling.signal.aborted) {
      log.info({ signal }, "stopping once the running builds end (signal again to stop them)");
      stopPolling.abort();
    } else {
      log.warn({ signal }, "stopping the running builds");
      stopBuilds.abort();
    }
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  log.info(
    { url: options.url, concurrency: options.concurrency, buildsDir: options.buildsDir },
    "runner started",
  );
  try {
    return await pollForBuilds(
      {
        api,
        runnerToken,
        buildsDir: options.buildsDir,
        description: options.description,
        traceLimit: options.traceLimit,
        log,
        runnerEnv: process.env,
      },
      { concurrency: options.concurrency, once: options.once },
      stopPolling.signal,
      stopBuilds.signal,
    );
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    log.info({}, "runner stopped");
  }
}

/** The runner token: `--token`, else the saved registration for this server, else a new registration. */
async function runnerTokenOf(
  options: RunnerOptions,
  api: RunnerApi,
  log: RunnerLog,
  io: RunnerIo,
): Promise<string> {
  if (options.token) return options.token;
  const saved = await readRegistration(options.buildsDir, options.url);
  if (saved) {
    log.info({ runner: saved.id }, "using the registration saved in the builds dir");
    return saved.token;
  }
  if (!options.registrationToken)
    throw new RunnerUsageError(
      "--registration-token is required to register this runner (or --token with a runner's token; see kiln runner --help)",
    );
  const registrationToken = options.registrationToken;
  const answer = await untilAvailable(
    "registration",
    () => api.register({ token: registrationToken, description: options.description, tags: options.tags }),
    { log },
  );
  if (answer.kind === "forbidden") throw new RunnerUsageError("the server refused the registration token");
  if (answer.kind === "failed")
    throw new RunnerUsageError(`registration failed: ${answer.status} ${answer.message}`.trim());
  const file = await saveRegistration(options.buildsDir, {
    url: options.url,
    id: answer.id,
    token: answer.token,
  });
  io.out(`registered runner ${answer.id}; its token is saved in ${file}`);
  return answer.token;
}
