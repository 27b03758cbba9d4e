/**
 * The larger fuzz run behind `bench/fuzz.mjs`: many requests on fresh servers, a new server after
 * each breakage (the request that broke it found by sending each suspect alone to a fresh server),
 * and a summary of the failures by route and status. Not part of the test suite.
 */
import { v3Routes } from "@kiln/rest-adapter";
import { type KilnProcess, signInAsRoot, startKiln } from "@kiln/testkit";
import { type CampaignResult, type LoggedError, runCampaign } from "./campaign.js";
import { problemOf } from "./checks.js";
import { seedFixture } from "./fixture.js";
import { type FuzzTarget, generateRequest } from "./generate.js";
import { campaignReport, describeFailure, groupFailures } from "./report.js";
import { routeShapes } from "./route-shapes.js";
import { type FuzzServer, fuzzServerOf, liveness } from "./server.js";
import { type FuzzRequest, send } from "./wire.js";

/** What `bench/fuzz.mjs` asks for. */
export interface FuzzBenchOptions {
  /** The bundled server (`dist/main.js`). */
  entry: string;
  seed: number;
  /** Requests per database. */
  requests: number;
  databases: ("sqlite" | "postgres")[];
  /** Trait prefixes not to send (`multipart:unnamed-part`, `git:`…). */
  exclude: string[];
  concurrency: number;
  /** Send only this request (of `seed`) to a fresh server, and show what came back. */
  replay: number | null;
  /** Failures shown in full per group of the summary. */
  examples: number;
  /** Print the answers per route too (what the run reached), not only in total. */
  byRoute: boolean;
  print: (text: string) => void;
}

interface Fresh {
  server: KilnProcess;
  watched: FuzzServer;
  target: FuzzTarget;
}

/** A new server on a fresh data dir (and database) with the fuzz fixture in it. */
async function freshServer(entry: string, database: "sqlite" | "postgres"): Promise<Fresh> {
  const server = await startKiln({ entry, database });
  const watched = fuzzServerOf(server);
  const fixture = await seedFixture(server, await signInAsRoot(server));
  return { server, watched, target: { fixture, routes: routeShapes(v3Routes) } };
}

/** Sends request `index` of `seed` alone to a fresh server; answers how the server took it. */
async function sendAlone(options: FuzzBenchOptions, database: "sqlite" | "postgres", index: number) {
  const fresh = await freshServer(options.entry, database);
  try {
    const request = generateRequest(fresh.target, options.seed, index);
    const outcomes = await send(request, fresh.server.port);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const broken = await liveness(fresh.watched, fresh.target.fixture.adminToken);
    const problems = outcomes
      .map((outcome) => problemOf(request, outcome))
      .filter((problem) => problem !== null);
    return { request, outcomes, problem: problems[0] ?? null, broken, fresh };
  } catch (error) {
    await fresh.server.stop();
    throw error;
  }
}

/** The first suspect that breaks a fresh server on its own, with how it broke it; null when none does. */
async function isolate(options: FuzzBenchOptions, database: "sqlite" | "postgres", suspects: FuzzRequest[]) {
  for (const suspect of suspects.slice(0, 8)) {
    const alone = await sendAlone(options, database, suspect.index);
    const stderr = alone.fresh.watched.stderr();
    await alone.fresh.server.stop();
    if (alone.broken)
      return { request: alone.request, port: alone.fresh.server.port, broken: alone.broken, stderr };
  }
  return null;
}

async function replay(options: FuzzBenchOptions, index: number): Promise<number> {
  const alone = await sendAlone(options, options.databases[0] ?? "sqlite", index);
  const { request, outcomes, fresh } = alone;
  const port = fresh.server.port;
  options.print(describeFailure({ request, problem: alone.problem ?? "answered fine", status: null, port }));
  for (const outcome of outcomes) {
    const shown =
      outcome.kind === "answered"
        ? { ...outcome, body: outcome.body.toString("utf8").slice(0, 1000) }
        : outcome;
    options.print(`answer: ${JSON.stringify(shown)}`);
  }
  options.print(
    alone.broken ? `SERVER BROKEN: ${alone.broken}\n${fresh.watched.stderr()}` : "the server still answers",
  );
  for (const line of fresh.watched.logs.filter((entry) => entry["level"] === "error")) {
    options.print(`log: ${JSON.stringify(line).slice(0, 2000)}`);
  }
  await fresh.server.stop();
  return alone.problem || alone.broken ? 1 : 0;
}

/** Runs the campaign on one database, on as many fresh servers as breakages require. */
async function fuzzDatabase(options: FuzzBenchOptions, database: "sqlite" | "postgres"): Promise<boolean> {
  const results: CampaignResult[] = [];
  let nextIndex = 0;
  let sent = 0;
  const started = performance.now();
  while (sent < options.requests) {
    const fresh = await freshServer(options.entry, database);
    const result = await runCampaign({
      server: fresh.watched,
      target: fresh.target,
      seed: options.seed,
      requests: options.requests - sent,
      firstIndex: nextIndex,
      exclude: options.exclude,
      concurrency: options.concurrency,
      onBatch: (done, failures) => {
        if ((sent + done) % 1000 < 40)
          options.print(`  ${database}: ${sent + done} sent, ${failures} failures so far`);
      },
    }).finally(() => fresh.server.stop());
    results.push(result);
    sent += result.sent;
    nextIndex = result.nextIndex;
    if (result.broken) {
      options.print(campaignReport({ ...result, failures: [] }));
      options.print(
        `isolating the request that broke the server among ${result.broken.suspects.length} suspect(s)…`,
      );
      const culprit = await isolate(options, database, result.broken.suspects);
      options.print(
        culprit
          ? `BREAKS A FRESH SERVER ALONE (${culprit.broken}):\n${describeFailure({ request: culprit.request, problem: culprit.broken, status: null, port: culprit.port })}\n${culprit.stderr.trim().split("\n").slice(-8).join("\n")}`
          : "no suspect breaks a fresh server alone: it took the batch together",
      );
    }
  }
  summarise(options, database, results, performance.now() - started);
  return results.every(
    (result) => !result.broken && result.failures.length === 0 && result.loggedErrors.length === 0,
  );
}

/** `200×12 404×3…` */
const statusList = (counts: Map<string, number>) =>
  [...counts]
    .sort()
    .map(([status, count]) => `${status}×${count}`)
    .join(" ");

function summarise(
  options: FuzzBenchOptions,
  database: string,
  results: CampaignResult[],
  elapsedMs: number,
): void {
  const { print } = options;
  const sent = results.reduce((sum, result) => sum + result.sent, 0);
  const failures = results.flatMap((result) => result.failures);
  const logged = results.flatMap((result) => result.loggedErrors);
  const families = new Map<string, Map<string, number>>();
  const statuses = new Map<string, number>();
  for (const [family, byStatus] of results.flatMap((result) => [...result.statuses])) {
    const merged = families.get(family) ?? new Map<string, number>();
    for (const [status, count] of byStatus) {
      merged.set(status, (merged.get(status) ?? 0) + count);
      statuses.set(status, (statuses.get(status) ?? 0) + count);
    }
    families.set(family, merged);
  }
  print(
    `\n=== ${database}: seed ${options.seed}, ${sent} requests in ${(elapsedMs / 1000).toFixed(0)} s, ${results.length} server(s), ${results.filter((result) => result.broken).length} breakage(s)`,
  );
  if (options.byRoute) {
    for (const [family, byStatus] of [...families].sort()) print(`  ${family}: ${statusList(byStatus)}`);
  }
  print(`answers: ${statusList(statuses)}`);
  print(`${failures.length} failures in ${groupFailures(failures).length} groups (route → status):`);
  for (const [key, group] of groupFailures(failures)) print(`  ${String(group.length).padStart(5)} × ${key}`);
  for (const [key, group] of groupFailures(failures)) {
    print(`\n${group.length} × ${key}:`);
    for (const failure of group.slice(0, options.examples)) print(describeFailure(failure));
  }
  print("\nslowest exchanges:");
  const slowest = results.flatMap((result) => result.slowest).sort((a, b) => b.ms - a.ms);
  for (const { request, ms } of slowest.slice(0, 10)) {
    print(
      `  ${(ms / 1000).toFixed(1)} s [#${request.index}] ${request.method} ${request.target.slice(0, 150)} (${request.traits.join(" ")})`,
    );
  }
  const byMessage = new Map<string, LoggedError[]>();
  for (const error of logged) {
    const err = error.line["err"] as { message?: string } | undefined;
    const key = `${String(error.line["msg"])}: ${err?.message?.split("\n")[0] ?? "?"}`;
    byMessage.set(key, [...(byMessage.get(key) ?? []), error]);
  }
  print(`\n${logged.length} logged errors:`);
  for (const [message, errors] of [...byMessage].sort((a, b) => b[1].length - a[1].length)) {
    print(`  ${String(errors.length).padStart(5)} × ${message}`);
    for (const error of errors.slice(0, options.examples)) {
      const request = error.candidates[0];
      const where = `${String(error.line["method"])} ${String(error.line["path"]).slice(0, 200)}`;
      if (request)
        print(describeFailure({ request, problem: `logged on ${where}`, status: null, port: error.port }));
      else print(`    on ${where} (no request of the run has that method and path)`);
    }
  }
}

/** Runs the bench as asked; resolves with the process's exit code (1 when anything failed). */
export async function runFuzzBench(options: FuzzBenchOptions): Promise<number> {
  options.print(
    `fuzz seed ${options.seed}, ${options.requests} requests per database, excluding [${options.exclude.join(", ")}]`,
  );
  if (options.replay !== null) return replay(options, options.replay);
  let clean = true;
  for (const database of options.databases) clean = (await fuzzDatabase(options, database)) && clean;
  return clean ? 0 : 1;
}
