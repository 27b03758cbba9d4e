import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { registrationToken, type ServiceRuntime } from "@kiln/services";
import type { Logger } from "./logger.js";

/** Waits after the runner exited before starting it again, doubling up to a minute. */
const RESTART_MS = { first: 1_000, max: 60_000 };

/** The server's own runner, while it runs. */
export interface EmbeddedRunner {
  /** Lets its builds finish (up to `graceMs`), then kills what is left. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * `KILN_EMBEDDED_RUNNER=on`: a `kiln runner` child of this server (this same program), talking to
 * it over loopback, registered with the instance's registration token and keeping its builds under
 * `<data dir>/embedded-runner`. Its builds run as the server's OS user: for a machine of one user.
 * Started again with backoff when it exits on its own.
 */
export async function startEmbeddedRunner(
  runtime: ServiceRuntime,
  options: { port: number; dataDir: string; log: Logger },
): Promise<EmbeddedRunner> {
  const token = await registrationToken(runtime);
  const args = [
    ...process.execArgv,
    process.argv[1] ?? "",
    "runner",
    "--url",
    `http://127.0.0.1:${options.port}`,
    "--builds-dir",
    join(options.dataDir, "embedded-runner"),
    "--description",
    "embedded",
  ];
  let child: ChildProcess | null = null;
  let stopping = false;
  let waitMs = RESTART_MS.first;
  let restart: NodeJS.Timeout | undefined;
  const launch = () => {
    // The token travels in the environment, not the command line other users can read.
    const started = spawn(process.execPath, args, {
      env: { ...process.env, KILN_RUNNER_REGISTRATION_TOKEN: token },
      stdio: ["ignore", "inherit", "inherit"],
    });
    child = started;
    const since = Date.now();
    started.once("exit", (code, signal) => {
      child = null;
      if (stopping) return;
      if (Date.now() - since > RESTART_MS.max) waitMs = RESTART_MS.first;
      options.log.warn(
        { code, signal, restart_in_ms: waitMs },
        "the embedded runner exited; starting it again",
      );
      restart = setTimeout(launch, waitMs);
      waitMs = Math.min(waitMs * 2, RESTART_MS.max);
    });
  };
  launch();
  options.log.info({ builds_dir: join(options.dataDir, "embedded-runner") }, "started the embedded runner");
  return {
    async stop(graceMs = 10_000) {
      stopping = true;
      clearTimeout(restart);
      const running: ChildProcess | null = child;
      if (!running) return;
      const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
      running.kill("SIGTERM");
      const timer = setTimeout(() => running.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
