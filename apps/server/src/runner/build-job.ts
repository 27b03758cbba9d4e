import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RUNNER_NAME, RUNNER_VERSION, type RunnerApi } from "./api-client.js";
import type { BuildDetails } from "./api-schema.js";
import {
  artifactsWanted,
  BuildStepError,
  downloadDependencies,
  type StepContext,
  uploadArtifacts,
} from "./artifacts.js";
import { buildEnvironment, expandVariables } from "./build-env.js";
import { bashScript } from "./build-script.js";
import { BuildCache, cacheKeyOf } from "./cache.js";
import { checkoutCommit, SourceError } from "./git-source.js";
import type { RunnerLog } from "./log.js";
import type { RetryPolicy } from "./retry.js";
import { runScript, type ScriptEnd } from "./shell.js";
import { TraceBuffer } from "./trace-buffer.js";
import { TRACE_TIMING, TraceStream, type TraceTiming } from "./trace-stream.js";
import { ZipRefused } from "./zip-read.js";

/** The build's timeout when the server names none: 8.x's default project `build_timeout`. */
const DEFAULT_TIMEOUT_S = 3600;
/** How long `after_script` may run (GitLab runner's limit for it). */
const AFTER_SCRIPT_TIMEOUT_MS = 5 * 60 * 1000;

/** What the runner gives every build it runs. */
export interface BuildHost {
  api: RunnerApi;
  runnerToken: string;
  buildsDir: string;
  description: string;
  traceLimit: number;
  log: RunnerLog;
  /** The runner's environment, which the build's shell starts from. */
  runnerEnv: NodeJS.ProcessEnv;
  timing?: TraceTiming;
  retry?: RetryPolicy;
  killGraceMs?: number;
}

/** How a build ended, as the server knows it now. */
export type BuildEnd = "success" | "failed" | "canceled";

/**
 * Runs one build the server handed this runner, in slot `slot` (each slot has its own folders, so
 * builds at once never share a checkout): the commit, the cache, the dependencies' artifacts, the
 * script, `after_script`, the cache again, the artifacts; the trace streamed all along; the state
 * reported at the end. `stop` (the runner shutting down hard) kills it as a cancel would.
 */
export async function runBuild(
  build: BuildDetails,
  host: BuildHost,
  slot: number,
  stop?: AbortSignal,
): Promise<BuildEnd> {
  const trace = new TraceBuffer(host.traceLimit);
  const mask = (text: string) => text.split(build.token).join("[MASKED]");
  const say = (line: string) => trace.write(`${mask(line)}\n`);
  const stream = new TraceStream(
    host.api,
    { id: build.id, token: build.token, runnerToken: host.runnerToken },
    trace,
    host.log,
    host.timing ?? TRACE_TIMING,
  );
  const abort = stop ? AbortSignal.any([stream.canceled, stop]) : stream.canceled;
  const projectDir = join(host.buildsDir, "builds", String(slot), `project-${build.project_id}`);
  const tmpDir = join(host.buildsDir, "tmp", `build-${build.id}`);
  const context: StepContext = {
    api: host.api,
    build,
    projectDir,
    tmpDir,
    say,
    log: host.log,
    ...(host.retry ? { retry: host.retry } : {}),
  };
  stream.start();
  say(`Running with ${RUNNER_NAME} ${RUNNER_VERSION} on ${host.description} (shell executor, bash)`);
  let result: "success" | "failed";
  try {
    await rm(tmpDir, { recursive: true, force: true });
    await mkdir(tmpDir, { recursive: true });
    result = await steps(build, host, context, (chunk) => trace.write(chunk), abort);
  } catch (error) {
    if (!isExpected(error))
      host.log.error({ build: build.id, error: (error as Error).stack }, "build step crashed");
    say(`ERROR: Build failed: ${(error as Error).message}`);
    result = "failed";
  } finally {
    await rm(tmpDir, { recursive: true, force: true }).catch(() => undefined);
  }
  if (stop?.aborted && !stream.canceled.aborted) {
    say("ERROR: Build failed: the runner was stopped");
    result = "failed";
  } else if (result === "success") say("Build succeeded");
  const outcome = await stream.finish(result);
  return outcome === "canceled" ? "canceled" : result;
}

async function steps(
  build: BuildDetails,
  host: BuildHost,
  context: StepContext,
  output: (chunk: Buffer) => void,
  abort: AbortSignal,
): Promise<"success" | "failed"> {
  const { say, projectDir } = context;
  const variables = build.variables ?? [];
  const options = build.options ?? {};
  if (options.image || options.services?.length)
    say("WARNING: image and services are not used by the shell executor; the build runs on this machine");
  await checkoutCommit({
    repoUrl: build.repo_url,
    sha: build.sha,
    ref: build.ref,
    projectDir,
    reuse: build.allow_git_fetch !== false,
    say,
  });
  const cache = new BuildCache(host.buildsDir);
  const expand = (text: string) => expandVariables(text, variables);
  const cacheKey = options.cache ? cacheKeyOf(options.cache, expand, build.name, build.ref) : null;
  if (cacheKey !== null) await cache.restore(context, build.project_id, cacheKey);
  await downloadDependencies(context, build.depends_on_builds ?? []);

  const env = buildEnvironment(variables, projectDir, host.runnerEnv);
  const run = async (name: string, commands: string, timeoutMs: number): Promise<ScriptEnd> => {
    const scriptFile = join(context.tmpDir, `${name}.sh`);
    await writeFile(scriptFile, bashScript(commands), { mode: 0o600 });
    return runScript({
      scriptFile,
      cwd: projectDir,
      env,
      onOutput: output,
      timeoutMs,
      signal: abort,
      ...(host.killGraceMs === undefined ? {} : { killGraceMs: host.killGraceMs }),
    });
  };
  const timeout = build.timeout ?? DEFAULT_TIMEOUT_S;
  const end = await run("script", build.commands ?? "", timeout * 1000);
  if (end.kind === "killed" && end.reason === "canceled") return "failed";
  const succeeded = end.kind === "exited" && end.code === 0;
  if (end.kind === "killed") say(`ERROR: Build failed: execution took longer than ${timeout} seconds`);
  else if (!succeeded) say(`ERROR: Build failed: exit code ${end.code}`);

  if (options.after_script?.length) {
    say("Running after script...");
    await run("after_script", options.after_script.join("\n"), AFTER_SCRIPT_TIMEOUT_MS);
  }
  if (abort.aborted) return "failed";
  if (succeeded && cacheKey !== null && options.cache)
    await cache.save(context, build.project_id, cacheKey, options.cache);
  if (options.artifacts && artifactsWanted(options.artifacts, succeeded)) {
    const name = options.artifacts.name ? expand(options.artifacts.name) : "artifacts";
    await uploadArtifacts(context, options.artifacts, name || "artifacts");
  }
  return succeeded ? "success" : "failed";
}

/** Failures the trace explains well enough; anything else is also logged with its stack. */
function isExpected(error: unknown): boolean {
  return error instanceof BuildStepError || error instanceof SourceError || error instanceof ZipRefused;
}
