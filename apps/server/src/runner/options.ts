import { hostname } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { normalizeServerUrl } from "./api-client.js";
import { DEFAULT_TRACE_LIMIT } from "./trace-buffer.js";

/** A mistake on the `kiln runner` command line, reported as one line. */
export class RunnerUsageError extends Error {}

/** What `kiln runner` was asked to do. */
export interface RunnerOptions {
  url: string;
  registrationToken: string | undefined;
  /** A runner token to use as is (no registration). */
  token: string | undefined;
  concurrency: number;
  buildsDir: string;
  once: boolean;
  description: string;
  tags: string[];
  /** Bytes of trace kept per build. */
  traceLimit: number;
}

/**
 * Reads the options of `kiln runner`; the registration token may also come from
 * `KILN_RUNNER_REGISTRATION_TOKEN`, out of sight of other users' `ps`.
 */
export function parseRunnerOptions(args: string[], env: NodeJS.ProcessEnv = process.env): RunnerOptions {
  const { values } = parseArgs({
    args,
    options: {
      url: { type: "string" },
      "registration-token": { type: "string" },
      token: { type: "string" },
      concurrency: { type: "string", default: "1" },
      "builds-dir": { type: "string", default: "builds" },
      once: { type: "boolean", default: false },
      description: { type: "string" },
      "tag-list": { type: "string", default: "" },
      "output-limit": { type: "string" },
    },
  });
  if (!values.url) throw new RunnerUsageError("--url is required (see kiln runner --help)");
  let url: string;
  try {
    url = normalizeServerUrl(values.url);
  } catch {
    throw new RunnerUsageError(`--url must be the server's http(s) URL, got "${values.url}"`);
  }
  return {
    url,
    registrationToken: values["registration-token"] ?? (env["KILN_RUNNER_REGISTRATION_TOKEN"] || undefined),
    token: values.token,
    concurrency: positiveInteger("--concurrency", values.concurrency, 64),
    buildsDir: resolve(values["builds-dir"]),
    once: values.once,
    description: values.description ?? hostname(),
    tags: values["tag-list"]
      .split(",")
      .map((tag) => tag.trim())
      .filter((tag) => tag !== ""),
    traceLimit: values["output-limit"]
      ? positiveInteger("--output-limit", values["output-limit"], 1024 * 1024) * 1024
      : DEFAULT_TRACE_LIMIT,
  };
}

function positiveInteger(name: string, raw: string, max: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > max)
    throw new RunnerUsageError(`${name} must be a whole number from 1 to ${max}, got "${raw}"`);
  return value;
}
