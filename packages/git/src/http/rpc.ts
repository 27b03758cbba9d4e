import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import { GitError } from "../errors.js";
import { appliedUpdates } from "../push/applied.js";
import type { PushGate, PushSession } from "../push/gate.js";
import { ReportStatusReader } from "../push/report-status.js";
import type { AuthorizePush, PushOutcome } from "../push/types.js";
import { BodyError, decodeBody } from "./body.js";
import { checkGitDir, configArgs } from "./git-args.js";
import { MAX_LISTING_BYTES, refListingCache, refsFingerprint } from "./ref-listings.js";
import { readRequestStart } from "./request-start.js";
import {
  type GitService,
  NO_CACHE_HEADERS,
  requestContentType,
  resultContentType,
  sanitizeGitProtocol,
  serviceCommand,
  wantsProtocolV2,
} from "./service.js";
import {
  type GitHttpFailure,
  type GitHttpResponse,
  type GitHttpResult,
  type StreamGitRun,
  streamGit,
} from "./stream.js";

/** Default time limit of one upload-pack or receive-pack exchange. */
export const DEFAULT_RPC_TIMEOUT_MS = 10 * 60_000;

/** Default cap on a decompressed upload-pack request (wants, haves, filters). */
export const DEFAULT_UPLOAD_BODY_LIMIT = 64 * 1024 * 1024;

/** Default cap on a decompressed receive-pack request (the commands and the pack). */
export const DEFAULT_RECEIVE_BODY_LIMIT = 2 * 1024 * 1024 * 1024;

/** The request side that {@link serviceRpc} reads: a `node:http` `IncomingMessage` is one. */
export interface GitHttpRequest extends Readable {
  readonly headers: IncomingHttpHeaders;
}

/** How a push is authorized: the process's gate and this push's callback (it knows the pusher). */
export interface PushAuthorization {
  gate: PushGate;
  authorize: AuthorizePush;
}

/** Options of {@link serviceRpc}. */
export interface ServiceRpcOptions {
  /** Time limit of the exchange (default {@link DEFAULT_RPC_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Kills git when aborted. */
  signal?: AbortSignal;
  /** Cap on the decompressed request body, in bytes (defaults above, per service). */
  maxBodyBytes?: number;
  /** Server-chosen git settings for this service (`receive.fsckObjects: "true"`…). */
  gitConfig?: Readonly<Record<string, string>>;
  /** Required for `git-receive-pack`: every push goes through the gate. */
  push?: PushAuthorization;
  /**
   * Serve a protocol v2 `ls-refs` request from memory when git answered the same request for
   * the same repository, settings and `Git-Protocol`, and the repository's refs have not changed
   * since (`RefListingCache` in `ref-listings.ts`), instead of starting git: a no-op fetch then
   * starts no git at all. Other requests (`fetch`, protocol v0, receive-pack) always run git.
   */
  cacheRefListings?: boolean;
}

/** How a POST to a service ended; for a receive-pack, with what the push did. */
export interface ServiceRpcResult extends GitHttpResult {
  push?: PushOutcome;
}

/**
 * Answers `POST …/git-upload-pack` or `POST …/git-receive-pack` for the repository at `gitDir`
 * (an absolute path the caller resolved and authorized): streams the request body (gunzipped
 * when `Content-Encoding: gzip`) into `git <service> --stateless-rpc` and its output to `res` as
 * `application/x-<service>-result`. The client's `Git-Protocol` header reaches git as
 * `GIT_PROTOCOL`. A request of another content type answers 415, an unknown encoding 415, a body
 * that is not gzip or not git's protocol (pkt-lines that git could not read, or a request git
 * refuses as malformed) 400, a body over the cap 413; git failing otherwise answers 500. A
 * disconnect, the signal or the time limit kill git's process group. A receive-pack runs the gate's pre-receive hook, which calls
 * `push.authorize`; the result then lists the applied updates. Rejects, before touching the
 * request, only for a relative `gitDir`, bad `gitConfig`, a receive-pack without `push`, or a
 * gate that cannot open (closed, or `gitDir` missing): answer 500 then. Never rejects once started.
 */
export async function serviceRpc(
  gitDir: string,
  service: GitService,
  req: GitHttpRequest,
  res: GitHttpResponse,
  options: ServiceRpcOptions = {},
): Promise<ServiceRpcResult> {
  checkGitDir(gitDir);
  const command = serviceCommand(service);
  if (command === "receive-pack" && !options.push) {
    throw new GitError("invalid", "git-receive-pack needs a push gate and an authorize callback");
  }
  const config = configArgs(options.gitConfig);
  const contentType = req.headers["content-type"];
  if (contentType !== requestContentType(service)) {
    return refuse(res, 415, `expected Content-Type ${requestContentType(service)}`, "bad_request");
  }
  const limit =
    options.maxBodyBytes ??
    (command === "upload-pack" ? DEFAULT_UPLOAD_BODY_LIMIT : DEFAULT_RECEIVE_BODY_LIMIT);
  // Opened first: a gate that cannot open rejects before the request is touched.
  const session = options.push ? await options.push.gate.open(gitDir, options.push.authorize) : undefined;
  const framing = command === "upload-pack" ? "pkt-lines" : "commands";
  const body = decodeBody(req, req.headers["content-encoding"], limit, framing);
  if (body instanceof Error) {
    session?.close();
    return refuse(res, 415, body.message, "bad_request");
  }
  const report = session ? new ReportStatusReader() : undefined;
  const protocol = sanitizeGitProtocol(req.headers["git-protocol"]);
  const strict = command === "upload-pack" ? ["--strict"] : [];
  const run: StreamGitRun = {
    args: [...(session?.gitArgs ?? []), ...config, command, "--stateless-rpc", ...strict, gitDir],
    env: { ...session?.env, GIT_PROTOCOL: protocol },
    timeoutMs: options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS,
    signal: options.signal,
    res,
    headers: { ...NO_CACHE_HEADERS, "Content-Type": resultContentType(service) },
    body,
    onOutput: report ? (chunk) => report.push(chunk) : undefined,
  };
  let result: ServiceRpcResult;
  try {
    result =
      options.cacheRefListings && command === "upload-pack" && wantsProtocolV2(protocol)
        ? await uploadPackV2(gitDir, run, [protocol ?? "", ...config])
        : await streamGit(run);
  } finally {
    session?.close();
    releaseRequest(req, res);
  }
  if (session) result.push = await outcome(gitDir, session, report?.result());
  return result;
}

/**
 * A protocol v2 upload-pack request with {@link ServiceRpcOptions.cacheRefListings}: an
 * `ls-refs` is read whole and answered from the cache when the refs fingerprint, the settings
 * and the request's bytes match, else by git (fed the bytes read), whose answer is then
 * remembered. Anything else streams to git as usual, the bytes read first.
 */
async function uploadPackV2(
  gitDir: string,
  run: StreamGitRun,
  settings: readonly string[],
): Promise<GitHttpResult> {
  const started = Date.now();
  const body = run.body!;
  const start = await readRequestStart(body, { timeoutMs: run.timeoutMs, signal: run.signal, res: run.res });
  if (start.kind === "failed") return failed(run.res, start.failure, start.error?.message);
  if (body.errored) {
    // Failed after the start was read, before git could see it.
    const error =
      body.errored instanceof BodyError ? body.errored : new BodyError("malformed", String(body.errored));
    return failed(run.res, error.reason === "too_large" ? "too_large" : "bad_body", error.message);
  }
  const timeoutMs = Math.max(1, run.timeoutMs - (Date.now() - started));
  if (start.kind === "other") {
    return streamGit({ ...run, timeoutMs, input: start.head, body: start.ended ? undefined : body });
  }
  const { request } = start;
  const fingerprint = await refsFingerprint(gitDir);
  // JSON keeps the settings apart from the request bytes (latin1: one character per byte).
  const key = `${JSON.stringify(settings)}\n${request.toString("latin1")}`;
  const cached = fingerprint && refListingCache.get(gitDir, fingerprint.value, key);
  if (cached) {
    if (run.res.destroyed) return { ok: false, failure: "disconnected", exitCode: null, stderr: "" };
    run.res.writeHead(200, { ...run.headers, "Content-Length": cached.length });
    run.res.end(cached);
    return { ok: true, exitCode: 0, stderr: "" };
  }
  // A request naming its session (transfer.advertiseSID) never comes twice: not worth keeping.
  const remember = fingerprint?.settled === true && !key.includes("session-id=");
  const output: Buffer[] = [];
  let outputBytes = 0;
  const result = await streamGit({
    ...run,
    timeoutMs,
    input: request,
    body: undefined,
    onOutput: remember
      ? (chunk) => {
          outputBytes += chunk.length;
          if (outputBytes <= MAX_LISTING_BYTES) output.push(chunk);
        }
      : undefined,
  });
  if (remember && result.ok && outputBytes <= MAX_LISTING_BYTES) {
    refListingCache.set(gitDir, fingerprint.value, key, Buffer.concat(output, outputBytes));
  }
  return result;
}

/** Answers a request that ended before git started (nothing is written to a client that left). */
function failed(res: GitHttpResponse, failure: GitHttpFailure, message: string | undefined): GitHttpResult {
  if (!res.headersSent && !res.destroyed) {
    const status =
      failure === "too_large" ? 413 : failure === "bad_body" ? 400 : failure === "timeout" ? 504 : 500;
    const text = message ?? (failure === "timeout" ? "request timed out" : "request failed");
    res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
    res.end(`${text}\n`);
  }
  return { ok: false, failure, exitCode: null, stderr: "" };
}

async function outcome(
  gitDir: string,
  session: PushSession,
  report: ReturnType<ReportStatusReader["result"]>,
): Promise<PushOutcome> {
  const { requested, refusals } = session;
  const allowed = session.decided && refusals.length === 0;
  const applied = allowed ? await appliedUpdates(gitDir, requested, report).catch(() => []) : [];
  const ungated = session.decided ? [] : [...(report?.ok ?? [])];
  return { requested, refusals, applied, rejected: report?.rejected ?? new Map(), ungated };
}

// A body git did not read to the end (a failure, or git stopping early) would be left in the
// connection: drop the connection once the answer is out.
function releaseRequest(req: GitHttpRequest, res: GitHttpResponse): void {
  if (req.readableEnded || req.destroyed) return;
  if (res.writableFinished || res.destroyed) req.destroy();
  else res.once("close", () => req.destroy());
}

function refuse(
  res: GitHttpResponse,
  status: number,
  message: string,
  failure: "bad_request",
): ServiceRpcResult {
  if (!res.headersSent) {
    res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
    res.end(`${message}\n`);
  }
  return { ok: false, failure, exitCode: null, stderr: "" };
}
