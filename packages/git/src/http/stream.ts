import type { OutgoingHttpHeaders } from "node:http";
import type { Readable, Writable } from "node:stream";
import { spawnGit } from "../exec.js";
import { BodyError } from "./body.js";
import { clientProtocolError } from "./client-errors.js";

/**
 * The part of a `node:http` `ServerResponse` the git services write to. A `ServerResponse`
 * is one; so is an `http2` compatibility response.
 */
export interface GitHttpResponse extends Writable {
  readonly headersSent: boolean;
  writeHead(statusCode: number, headers?: OutgoingHttpHeaders): this;
}

/**
 * Why a git HTTP exchange ended early: the client went away, the caller's signal, the time
 * limit, a request of the wrong content type or encoding, a body that was not gzip, not git's
 * protocol (bad pkt-lines, or a request git refused as malformed) or too large once decompressed,
 * or git failing for another reason (the server's fault).
 */
export type GitHttpFailure =
  | "disconnected"
  | "aborted"
  | "timeout"
  | "bad_request"
  | "bad_body"
  | "too_large"
  | "git_failed";

/** How a git HTTP exchange ended. */
export interface GitHttpResult {
  /** False when it ended early or git failed; `failure` then says why. */
  ok: boolean;
  failure?: GitHttpFailure;
  /** Git's exit code, or null when it was killed. */
  exitCode: number | null;
  /** The git process id (its process group is killed as a whole on failure). */
  pid?: number;
  /** The first 64 KiB of git's standard error, for logs. */
  stderr: string;
}

/** What {@link streamGit} runs and where it writes. */
export interface StreamGitRun {
  args: readonly string[];
  env: Record<string, string | undefined>;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  res: GitHttpResponse;
  /** Headers of the 200 answer, written when git starts answering. */
  headers: OutgoingHttpHeaders;
  /** Bytes to send before git's own output. */
  prefix?: Buffer | undefined;
  /** Bytes of the request body already read, written to git's standard input first. */
  input?: Buffer | undefined;
  /**
   * The (rest of the) decoded request body, piped to git's standard input after `input`; without
   * it, stdin is closed once `input` is written.
   */
  body?: Readable | undefined;
  /** Sees every chunk of git's output as it streams (report-status parsing). */
  onOutput?: ((chunk: Buffer) => void) | undefined;
}

const STDERR_LIMIT = 64 * 1024;

/**
 * Runs one git service process and streams it to an HTTP response: headers on the first byte of
 * output, backpressure through `pipe`, no buffering of the pack. The process group is killed on
 * client disconnect, abort, timeout or a bad body; the response is then destroyed when it was
 * already under way (ended, for a malformed body), or answered 400/413 when nothing was sent yet.
 * Git failing on a malformed request before answering is the client's error, answered 400 with
 * git's words; failing otherwise is answered 500. Never rejects.
 */
export function streamGit(run: StreamGitRun): Promise<GitHttpResult> {
  const { res } = run;
  const controller = new AbortController();
  const child = spawnGit(run.args, {
    env: run.env,
    timeoutMs: run.timeoutMs + 5_000,
    signal: controller.signal,
    processGroup: true,
  });
  const stdout = child.stdout!;
  const start = () => {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(200, run.headers);
    if (run.prefix) res.write(run.prefix);
  };
  let failure: GitHttpFailure | undefined;
  let bodyError: BodyError | undefined;
  const fail = (why: GitHttpFailure) => {
    if (failure !== undefined) return;
    failure = why;
    controller.abort();
    run.body?.unpipe();
    stdout.off("data", start);
    stdout.unpipe(res);
    stdout.resume(); // let the killed process's output drain so that 'close' comes
  };

  const timer = setTimeout(() => fail("timeout"), run.timeoutMs);
  const onAbort = () => fail("aborted");
  if (run.signal?.aborted) onAbort();
  run.signal?.addEventListener("abort", onAbort, { once: true });
  const onClose = () => {
    if (!res.writableFinished) fail("disconnected");
  };
  res.once("close", onClose);
  res.on("error", () => fail("disconnected"));

  const stderr: Buffer[] = [];
  let stderrSize = 0;
  child.stderr?.on("data", (chunk: Buffer) => {
    if (stderrSize < STDERR_LIMIT) stderr.push(chunk.subarray(0, STDERR_LIMIT - stderrSize));
    stderrSize += chunk.length;
  });

  const stdin = child.stdin!;
  stdin.on("error", () => undefined); // git may stop reading early (EPIPE): its exit code decides
  if (run.input && run.input.length > 0) stdin.write(run.input);
  if (run.body) {
    run.body.on("error", (error) => {
      bodyError = error instanceof BodyError ? error : new BodyError("malformed", String(error));
      fail(bodyError.reason === "too_large" ? "too_large" : "bad_body");
    });
    run.body.pipe(stdin);
  } else stdin.end();

  stdout.once("data", start);
  if (run.onOutput) stdout.on("data", run.onOutput);
  stdout.pipe(res, { end: false });

  return new Promise((resolve) => {
    child.once("close", (code) => {
      clearTimeout(timer);
      run.signal?.removeEventListener("abort", onAbort);
      res.off("close", onClose);
      const errors = Buffer.concat(stderr).toString("utf8");
      const refused =
        failure === undefined && code !== 0 && !res.headersSent ? clientProtocolError(errors) : undefined;
      if (refused !== undefined) {
        failure = "bad_body";
        bodyError = new BodyError("malformed", refused);
      } else if (failure === undefined && code !== 0) failure = "git_failed";
      finishResponse(res, failure, code, bodyError, start);
      const result: GitHttpResult = { ok: failure === undefined, exitCode: code, stderr: errors };
      if (failure !== undefined) result.failure = failure;
      if (child.pid !== undefined) result.pid = child.pid;
      resolve(result);
    });
  });
}

function finishResponse(
  res: GitHttpResponse,
  failure: GitHttpFailure | undefined,
  code: number | null,
  bodyError: BodyError | undefined,
  start: () => void,
): void {
  if (res.destroyed || res.writableEnded) return;
  if (res.headersSent) {
    // Git's own error output (an ERR packet, say) is meaningful to the client; a cut stream is not.
    // A request that turned out malformed ends as git ends it when it dies on one.
    if (failure === undefined || failure === "git_failed" || failure === "bad_body") res.end();
    else res.destroy();
    return;
  }
  if (failure === undefined && code === 0) {
    start();
    res.end();
    return;
  }
  const status =
    failure === "too_large" ? 413 : failure === "bad_body" ? 400 : failure === "timeout" ? 504 : 500;
  const message = bodyError?.message ?? (failure === "timeout" ? "git timed out" : "git failed");
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
  res.end(`${message}\n`);
}
