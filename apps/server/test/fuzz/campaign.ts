import { outcomeLabel, problemOf } from "./checks.js";
import { type FuzzTarget, generateRequest } from "./generate.js";
import { type FuzzServer, liveness } from "./server.js";
import { type FuzzRequest, send } from "./wire.js";

/** A request the server answered wrongly: a 5xx, a malformed answer, or none. */
export interface Failure {
  request: FuzzRequest;
  /** What was wrong: `500 {"message":…}`, `no answer (ECONNRESET)`… */
  problem: string;
  status: number | null;
  /** The port of the server it was sent to (for the commands that send it again). */
  port: number;
}

/** How the server broke (died, or stopped answering) during a batch, and the requests that may have done it. */
export interface Breakage {
  detail: string;
  /** The end of the server's stderr. */
  stderr: string;
  /**
   * The batch's requests that got no answer, those without a reason to go unanswered first; the
   * whole batch when each got one.
   */
  suspects: FuzzRequest[];
  port: number;
}

/** An error the server logged while the campaign ran, with the requests of the same method and path. */
export interface LoggedError {
  line: Record<string, unknown>;
  candidates: FuzzRequest[];
  port: number;
}

/** What a campaign found. */
export interface CampaignResult {
  seed: number;
  sent: number;
  /** The index after the last request generated. */
  nextIndex: number;
  /** Generated but not sent: their traits were excluded. */
  skipped: number;
  failures: Failure[];
  /** Set when the server died or stopped answering: the campaign stops there. */
  broken: Breakage | null;
  /** Count of answers per request family and status (or outcome: `no-answer`, `timeout`…). */
  statuses: Map<string, Map<string, number>>;
  /** "internal error" and "request failed" lines of the server's log. */
  loggedErrors: LoggedError[];
  /** The slowest exchanges, slowest first (a request that ties the server up is worth a look). */
  slowest: { request: FuzzRequest; ms: number }[];
  elapsedMs: number;
}

/** How a campaign runs. */
export interface CampaignOptions {
  server: FuzzServer;
  target: FuzzTarget;
  seed: number;
  /** Requests to send. */
  requests: number;
  /** The index of the first request (default 0): a campaign may go on where another stopped. */
  firstIndex?: number;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** Requests between two checks that the server still answers (default 40). */
  batchSize?: number;
  /** Trait prefixes whose requests are skipped (known bugs a larger run should look past). */
  exclude?: readonly string[];
  /** Called after each batch. */
  onBatch?: (sent: number, failures: number) => void;
}

/** Log lines that mean a request reached a 500 path. */
function errorLines(lines: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return lines.filter((line) => line["msg"] === "internal error" || line["msg"] === "request failed");
}

/**
 * Sends `requests` generated requests in batches, checks every answer ({@link problemOf}) and,
 * after each batch, that the server still answers; stops at the first batch after which it does
 * not. Then reads the server's log for 500 paths.
 */
export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const { server, target, seed } = options;
  const concurrency = options.concurrency ?? 4;
  const batchSize = options.batchSize ?? 40;
  const exclude = options.exclude ?? [];
  const started = performance.now();
  const logsBefore = server.logs.length;
  const result: CampaignResult = {
    seed,
    sent: 0,
    nextIndex: options.firstIndex ?? 0,
    skipped: 0,
    failures: [],
    broken: null,
    statuses: new Map(),
    loggedErrors: [],
    slowest: [],
    elapsedMs: 0,
  };
  const sent: FuzzRequest[] = [];
  // Requests answered 5xx or not at all: the likelier causes of an error logged on their path.
  const suspicious = new Set<FuzzRequest>();
  const before = await liveness(server, target.fixture.adminToken);
  if (before) {
    result.broken = {
      detail: `before the campaign, ${before}`,
      stderr: server.stderr(),
      suspects: [],
      port: server.port,
    };
  }
  while (result.broken === null && result.sent < options.requests) {
    const batch: FuzzRequest[] = [];
    while (batch.length < Math.min(batchSize, options.requests - result.sent)) {
      const request = generateRequest(target, seed, result.nextIndex++);
      if (request.traits.some((trait) => exclude.some((prefix) => trait.startsWith(prefix))))
        result.skipped++;
      else batch.push(request);
    }
    const unanswered: FuzzRequest[] = [];
    await inParallel(batch, concurrency, async (request) => {
      const sentAt = performance.now();
      const outcomes = await send(request, server.port);
      keepSlowest(result.slowest, { request, ms: performance.now() - sentAt });
      for (const outcome of outcomes) {
        count(result.statuses, request.family, outcomeLabel(outcome));
        if (outcome.kind !== "answered" && outcome.kind !== "refused") unanswered.push(request);
        const problem = problemOf(request, outcome);
        if (problem || outcome.kind !== "answered") suspicious.add(request);
        if (problem) {
          const status = outcome.kind === "answered" ? outcome.status : null;
          result.failures.push({ request, problem, status, port: server.port });
        }
      }
    });
    result.sent += batch.length;
    sent.push(...batch);
    const broken = await liveness(server, target.fixture.adminToken);
    if (broken) {
      // Those left unanswered for no good reason first (a CONNECT goes unanswered anyway).
      const unexplained = (request: FuzzRequest) =>
        result.failures.some((failure) => failure.request === request && failure.status === null);
      const suspects = [...new Set(unanswered.length > 0 ? unanswered : batch)].sort(
        (a, b) => Number(unexplained(b)) - Number(unexplained(a)) || a.index - b.index,
      );
      result.broken = { detail: broken, stderr: server.stderr(), suspects, port: server.port };
      // What went unanswered in that batch is reported once, as suspects of the breakage.
      result.failures = result.failures.filter((failure) => !suspects.includes(failure.request));
    }
    options.onBatch?.(result.sent, result.failures.length);
  }
  // The server writes its log every 200 ms: wait for the lines of the last requests.
  await new Promise((resolve) => setTimeout(resolve, 500));
  result.loggedErrors = errorLines(server.logs.slice(logsBefore)).map((line) => ({
    line,
    candidates: sent
      .filter(
        (request) =>
          request.method.toUpperCase() === line["method"] && request.target.split("?", 1)[0] === line["path"],
      )
      .sort((a, b) => Number(suspicious.has(b)) - Number(suspicious.has(a))),
    port: server.port,
  }));
  result.elapsedMs = performance.now() - started;
  return result;
}

/** How many of the slowest exchanges a campaign keeps. */
const SLOWEST_KEPT = 10;

function keepSlowest(slowest: CampaignResult["slowest"], entry: CampaignResult["slowest"][number]): void {
  if (slowest.length === SLOWEST_KEPT && (slowest[SLOWEST_KEPT - 1]?.ms ?? 0) >= entry.ms) return;
  slowest.push(entry);
  slowest.sort((a, b) => b.ms - a.ms);
  slowest.length = Math.min(slowest.length, SLOWEST_KEPT);
}

function count(statuses: Map<string, Map<string, number>>, family: string, label: string): void {
  const byStatus = statuses.get(family) ?? new Map<string, number>();
  byStatus.set(label, (byStatus.get(label) ?? 0) + 1);
  statuses.set(family, byStatus);
}

async function inParallel<T>(
  items: readonly T[],
  width: number,
  run: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}
