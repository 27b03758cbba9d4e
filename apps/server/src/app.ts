import type { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { checkGitVersion, PushGate } from "@kiln/git";
import {
  API_PREFIX,
  createRestHandler,
  createRunnerApiHandler,
  type RestHandler,
  RUNNER_API_PREFIX,
} from "@kiln/rest-adapter";
import {
  CiJanitor,
  ciPipelines,
  DeliveryWorker,
  ensureRootUser,
  finishInterruptedMerges,
  GITLAB_SIGN_IN_LIMITS,
  mergeStatusRefresh,
  mergeWhenBuildSucceeds,
  NO_SIGN_IN_LIMITS,
  OutboxDispatcher,
  reclaimUploadLeftovers,
  ServiceRuntime,
  sealImportUrls,
  startLiveHub,
  webhookDeliveries,
} from "@kiln/services";
import {
  listenForOutbox,
  migrateToLatest,
  type OpenDatabase,
  openDatabase,
  Stores,
} from "@kiln/storage-kysely";
import { createWebHandler, isWebRequest, type WebHandler } from "@kiln/web";
import { type Config, ConfigError } from "./config.js";
import { ensureDataDir, loadOrCreateSecretKey } from "./data-dir.js";
import { startEmbeddedRunner } from "./embedded-runner.js";
import { createGitHttpHandler } from "./git-http/handler.js";
import { startGitHousekeeping } from "./git-http/housekeeping.js";
import { isGitRequest } from "./git-http/route.js";
import { createHttpServer, type Mount, type MountHandler, under } from "./http-server.js";
import type { Logger } from "./logger.js";
import { createTrpcHandler, TRPC_PREFIX } from "./trpc-handler.js";
import { createUploadsHandler, isUploadRequest } from "./uploads-handler.js";
import { KILN_VERSION } from "./version.js";

/** A database opened, migrated, and wrapped in the service runtime. */
export interface Backend {
  database: OpenDatabase;
  runtime: ServiceRuntime;
}

/** Opens the configured database, applies pending migrations and builds the service runtime. */
export async function openBackend(config: Config): Promise<Backend> {
  ensureDataDir(config.dataDir);
  try {
    await checkGitVersion();
  } catch (error) {
    throw new ConfigError((error as Error).message, { cause: error });
  }
  const secretKey = loadOrCreateSecretKey(config.dataDir);
  let database: OpenDatabase;
  try {
    database = await openDatabase(config.database);
  } catch (error) {
    throw new ConfigError(`cannot open the database: ${(error as Error).message}`, { cause: error });
  }
  try {
    await migrateToLatest(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  const runtime = new ServiceRuntime({
    stores: new Stores(database.db),
    secretKey,
    singleProcess: database.dialect === "sqlite",
    dataDir: config.dataDir,
    signInLimits: config.signInThrottle ? GITLAB_SIGN_IN_LIMITS : NO_SIGN_IN_LIMITS,
  });
  // Import URLs stored in the clear before they were sealed (the migration has no key).
  await sealImportUrls(runtime);
  return { database, runtime };
}

/** The handlers of the server's surfaces, as {@link mountTable} mounts them. */
export interface Surfaces {
  api: MountHandler;
  trpc: MountHandler;
  runner: MountHandler;
  uploads: MountHandler;
  git: MountHandler;
  web: MountHandler;
}

/**
 * The front door's table, first match wins: the REST API v3 under `/api/v3`; the services'
 * public tRPC router under `/api/trpc`; the runners' API under `/ci/api/v1`; reads of uploads
 * (`GET` and `HEAD` of `/<namespace>/<project>/uploads/<secret>/<file name>`); git's smart HTTP
 * (`GET …/info/refs`, `POST …/git-upload-pack|git-receive-pack`); last, the web surface's exact
 * paths (`/oauth/…`, the sign-in and profile pages). A new surface is one more row; one that
 * claims paths these take goes first.
 */
export function mountTable(surfaces: Surfaces): Mount[] {
  return [
    { name: "api_v3", matches: under(API_PREFIX), handler: surfaces.api },
    { name: "trpc", matches: under(TRPC_PREFIX), handler: surfaces.trpc },
    { name: "runner_api", matches: under(RUNNER_API_PREFIX), handler: surfaces.runner },
    { name: "uploads", matches: isUploadRequest, handler: surfaces.uploads },
    { name: "git", matches: isGitRequest, handler: surfaces.git },
    { name: "web", matches: isWebRequest, handler: surfaces.web },
  ];
}

/** A running server. */
export interface RunningServer {
  port: number;
  baseUrl: string;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), then closes the database. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts Kiln: database, first-start administrator, HTTP server. On a first start without
 * `KILN_ROOT_PASSWORD`, the generated root password is logged once, at warn level.
 */
export async function startServer(config: Config, log: Logger): Promise<RunningServer> {
  const backend = await openBackend(config);
  // What a failed start opened is closed again, so that the process can exit at once (a pg pool
  // would keep it alive until its idle timeout).
  const opened: Closable[] = [backend.database];
  try {
    return await serveBackend(config, log, backend, opened);
  } catch (error) {
    for (const resource of opened.reverse()) await resource.close().catch(() => undefined);
    throw error;
  }
}

interface Closable {
  close(): Promise<void>;
}

async function serveBackend(
  config: Config,
  log: Logger,
  { database, runtime }: Backend,
  opened: Closable[],
): Promise<RunningServer> {
  const root = await ensureRootUser(runtime, config.rootPassword);
  if (root.created && root.generatedPassword) {
    log.warn(
      { username: "root", password: root.generatedPassword },
      "created the administrator; this password is shown once",
    );
  } else if (root.created) {
    log.info({ username: "root" }, "created the administrator with KILN_ROOT_PASSWORD");
  }
  const { tempFiles, files } = await reclaimUploadLeftovers(runtime);
  if (tempFiles + files > 0) log.info({ temp_files: tempFiles, files }, "reclaimed upload leftovers");

  // The handler needs the base URL, which may depend on the port the OS picks: it is created in the
  // listen callback, before any request can be dispatched.
  let api: RestHandler | undefined;
  let runner: RestHandler | undefined;
  let web: WebHandler | undefined;
  // One push gate per process: its socket and hook live in a private dir under the system tmp,
  // which must stay short (a Unix socket path holds at most 107 bytes).
  const runtimeDir = tmpdir().length > 64 ? "/tmp" : tmpdir();
  const gate = new PushGate({ runtimeDir });
  const housekeeping = await startGitHousekeeping(runtime, log, runtimeDir);
  if (housekeeping) opened.push({ close: () => housekeeping.stop() });
  // The live streams' reader of the outbox, woken by other processes' events on PostgreSQL.
  const { database: databaseConfig } = config;
  const live = startLiveHub(
    runtime,
    databaseConfig.kind === "postgres" ? { listen: (wake) => listenForOutbox(databaseConfig.url, wake) } : {},
  );
  await live.ready;
  opened.push({ close: () => live.stop() });
  const logInternalError = (error: unknown, req: IncomingMessage) =>
    log.error({ err: error, method: req.method, path: req.url?.split("?")[0] }, "internal error");
  const mounts = mountTable({
    api: (req, res) => (api as RestHandler)(req, res),
    trpc: createTrpcHandler({ runtime, onInternalError: logInternalError }),
    runner: (req, res) => (runner as RestHandler)(req, res),
    uploads: createUploadsHandler(runtime),
    git: createGitHttpHandler({ runtime, gate, log }),
    web: (req, res) => (web as WebHandler)(req, res),
  });
  const server = createHttpServer(mounts, log);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, () => resolve());
  });
  opened.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = config.baseUrl ?? `http://localhost:${port}`;
  runtime.baseUrl = baseUrl;
  api = createRestHandler({ runtime, baseUrl, onInternalError: logInternalError });
  web = createWebHandler({ runtime, baseUrl });
  runner = createRunnerApiHandler({
    runtime,
    baseUrl,
    buildWaitMs: config.runnerWaitMs,
    onInternalError: logInternalError,
  });
  // Merges a crash cut short between moving their target branch and recording it (push data needs the base URL).
  const merges = await finishInterruptedMerges(runtime);
  if (merges.finished + merges.dropped + merges.failed.length > 0)
    log.warn(merges, "settled interrupted merges");
  const workers = config.workers ? await startWorkers(config, log, runtime) : null;
  if (workers) opened.push(workers);
  const embedded = config.embeddedRunner
    ? await startEmbeddedRunner(runtime, { port, dataDir: config.dataDir, log })
    : null;
  if (embedded) opened.push({ close: () => embedded.stop(0) });
  log.info({ port, base_url: baseUrl, database: database.dialect, workers: config.workers }, "listening");
  log.flush(); // whoever waits for readiness reads this line now, not at the next periodic flush

  return {
    port,
    baseUrl,
    stop: async (graceMs = 10_000) => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Live streams end now, so that their connections close with the others.
      const streamsEnded = live.stop();
      // Keep-alive connections become idle as their last response ends: close them as they do.
      const idle = setInterval(() => server.closeIdleConnections(), 50);
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearInterval(idle);
      clearTimeout(timer);
      await streamsEnded;
      await embedded?.stop(graceMs);
      await workers?.close();
      await gate.close();
      await housekeeping?.stop();
      await database.close();
    },
  };
}

/**
 * Starts the dispatcher of the outbox's events to their durable subscribers (open merge requests
 * checked again whenever a branch they involve moves; webhook deliveries queued; pipelines made
 * from pushes; merge requests merged when their build succeeds, `build_failed` todos), woken by
 * other processes' events on PostgreSQL, the worker that sends the webhook deliveries, and the CI
 * janitor (stuck and timed-out builds failed, expired artifacts removed).
 */
async function startWorkers(config: Config, log: Logger, runtime: ServiceRuntime): Promise<Closable> {
  const { database } = config;
  const deliveries = new DeliveryWorker(runtime, {
    userAgent: `Kiln/${KILN_VERSION}`,
    releaseClaims: database.kind === "sqlite",
    onError: (error) => log.error({ err: error }, "the webhook delivery worker failed; retrying"),
  });
  const dispatcher = new OutboxDispatcher(runtime, {
    ...(database.kind === "postgres" ? { listen: (wake) => listenForOutbox(database.url, wake) } : {}),
    onError: (error, subscriber, event) =>
      log.error({ err: error, subscriber, event: event?.kind }, "an outbox subscriber failed; retrying"),
  });
  dispatcher.subscribe(mergeStatusRefresh(runtime));
  dispatcher.subscribe(ciPipelines(runtime));
  dispatcher.subscribe(mergeWhenBuildSucceeds(runtime));
  dispatcher.subscribe(webhookDeliveries(runtime, () => deliveries.wake()));
  const janitor = new CiJanitor(runtime, {
    ...config.ciJanitor,
    onError: (error) => log.error({ err: error }, "a CI janitor sweep failed; sweeping again later"),
  });
  await deliveries.start();
  try {
    await dispatcher.start();
  } catch (error) {
    await deliveries.stop();
    throw error;
  }
  janitor.start();
  return {
    close: async () => {
      await janitor.stop();
      await dispatcher.stop();
      await deliveries.stop();
    },
  };
}
