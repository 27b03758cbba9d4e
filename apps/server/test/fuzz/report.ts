import type { CampaignResult, Failure, LoggedError } from "./campaign.js";
import { reproduction } from "./repro.js";

/** One failure, with what it was and how to send it again. */
export function describeFailure(failure: Failure): string {
  const { request, port } = failure;
  return [
    `[seed ${request.seed} #${request.index}] ${request.family}: ${request.method} ${abbreviate(request.target)} → ${failure.problem}`,
    `  traits: ${request.traits.join(" ") || "(none)"}`,
    ...reproduction(request, port).map((line) => `  ${line}`),
  ].join("\n");
}

function describeLoggedError(error: LoggedError): string {
  const { line, port } = error;
  const err = line["err"] as { type?: string; message?: string } | undefined;
  const head = `log: ${String(line["msg"])} on ${String(line["method"])} ${String(line["path"])}: ${err?.type ?? ""} ${err?.message?.split("\n")[0] ?? ""}`;
  const candidate = error.candidates[0];
  if (!candidate) return `${head}\n  (no request of this campaign has that method and path)`;
  return [
    head,
    `  ${error.candidates.length} request(s) of this method and path; the first: [seed ${candidate.seed} #${candidate.index}] ${candidate.traits.join(" ")}`,
    ...reproduction(candidate, port).map((text) => `  ${text}`),
  ].join("\n");
}

const abbreviate = (text: string, max = 200) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;

/** What a failure is, for grouping: its status, or the kind of problem. */
export function problemClass(failure: Failure): string {
  return failure.status !== null ? String(failure.status) : (failure.problem.split(/[:(]/)[0]?.trim() ?? "");
}

/** The failures grouped by request family and problem class, largest groups first. */
export function groupFailures(failures: readonly Failure[]): [string, Failure[]][] {
  const groups = new Map<string, Failure[]>();
  for (const failure of failures) {
    const key = `${failure.request.family} → ${problemClass(failure)}`;
    groups.set(key, [...(groups.get(key) ?? []), failure]);
  }
  return [...groups].sort((a, b) => b[1].length - a[1].length);
}

/**
 * The report of one campaign: seed, counts, the failures grouped by route and status with the
 * first of each group in full (seed, index, traits, curl and raw commands), the log's errors.
 */
export function campaignReport(result: CampaignResult, examplesPerGroup = 1): string {
  const lines = [
    `fuzz seed ${result.seed}: ${result.sent} requests sent (${result.skipped} skipped) in ${(result.elapsedMs / 1000).toFixed(1)} s, ${result.failures.length} failures, ${result.loggedErrors.length} logged errors`,
  ];
  if (result.broken) {
    const { detail, stderr, suspects } = result.broken;
    lines.push(
      `\nSERVER BROKEN: ${detail}; stderr ends:\n${stderr.trim().split("\n").slice(-12).join("\n")}`,
    );
    lines.push(`${suspects.length} suspect request(s) of the last batch (those that got no proper answer):`);
    for (const request of suspects.slice(0, 5)) {
      lines.push(describeFailure({ request, problem: "suspect", status: null, port: result.broken.port }));
    }
  }
  for (const [key, failures] of groupFailures(result.failures)) {
    lines.push(`\n${failures.length} × ${key}`);
    for (const failure of failures.slice(0, examplesPerGroup)) lines.push(describeFailure(failure));
  }
  for (const error of result.loggedErrors.slice(0, 20)) lines.push(`\n${describeLoggedError(error)}`);
  return lines.join("\n");
}
