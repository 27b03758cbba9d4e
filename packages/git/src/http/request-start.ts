import type { Readable } from "node:stream";
import { BodyError } from "./body.js";
import { pktLine } from "./pkt-line.js";
import type { GitHttpFailure, GitHttpResponse } from "./stream.js";

/** Largest `ls-refs` request read into memory (a few hundred `ref-prefix` lines); larger ones stream. */
export const MAX_LS_REFS_REQUEST_BYTES = 64 * 1024;

// The first pkt-line of a protocol v2 `ls-refs` request (the newline is optional in pkt-lines).
const LS_REFS = [pktLine("command=ls-refs\n"), pktLine("command=ls-refs")];

/** What the start of a protocol v2 upload-pack request turned out to be. */
export type RequestStart =
  /** A whole `ls-refs` request of at most the cap. */
  | { kind: "ls-refs"; request: Buffer }
  /** Anything else (`fetch`, a larger `ls-refs`, garbage): the bytes read, and whether that was all. */
  | { kind: "other"; head: Buffer; ended: boolean }
  /** The body failed (not gzip, over the limit), the client went away, the signal or the time limit. */
  | { kind: "failed"; failure: GitHttpFailure; error?: BodyError };

/** Whether `head` starts with `command=ls-refs`: true, false, or undefined when too short to tell. */
export function startsWithLsRefs(head: Buffer): boolean | undefined {
  let undecided = false;
  for (const line of LS_REFS) {
    const length = Math.min(head.length, line.length);
    if (!head.subarray(0, length).equals(line.subarray(0, length))) continue;
    if (head.length >= line.length) return true;
    undecided = true;
  }
  return undecided ? undefined : false;
}

/** Options of {@link readRequestStart}. */
export interface RequestStartOptions {
  /** An `ls-refs` request longer than this is not read whole (default {@link MAX_LS_REFS_REQUEST_BYTES}). */
  maxBytes?: number;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Its `close` before the end means the client went away. */
  res: GitHttpResponse;
}

/**
 * Reads the start of a decoded upload-pack request body: as far as its first pkt-line when that
 * is not `command=ls-refs`, else to its end or past `maxBytes`. The body is then left paused with
 * the rest unread, for `streamGit` to pipe after the bytes read (`input`). A listener that ignores
 * errors stays on the body, so that one coming before git's pipe is attached cannot crash the
 * process: check `body.errored` before piping. Never rejects.
 */
export function readRequestStart(body: Readable, options: RequestStartOptions): Promise<RequestStart> {
  const { signal, res } = options;
  const maxBytes = options.maxBytes ?? MAX_LS_REFS_REQUEST_BYTES;
  body.on("error", () => undefined);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let lsRefs: boolean | undefined;
    let done = false;
    const head = () => Buffer.concat(chunks, size);
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      lsRefs ??= startsWithLsRefs(head());
      if (lsRefs === false || (lsRefs === true && size > maxBytes)) {
        finish({ kind: "other", head: head(), ended: false });
      }
    };
    const onEnd = () =>
      finish(
        lsRefs === true ? { kind: "ls-refs", request: head() } : { kind: "other", head: head(), ended: true },
      );
    const onError = (error: unknown) => {
      const bodyError = error instanceof BodyError ? error : new BodyError("malformed", String(error));
      finish({
        kind: "failed",
        failure: bodyError.reason === "too_large" ? "too_large" : "bad_body",
        error: bodyError,
      });
    };
    const onAbort = () => finish({ kind: "failed", failure: "aborted" });
    const onClose = () => finish({ kind: "failed", failure: "disconnected" });
    const timer = setTimeout(() => finish({ kind: "failed", failure: "timeout" }), options.timeoutMs);
    function finish(start: RequestStart): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      res.off("close", onClose);
      body.off("data", onData);
      body.off("end", onEnd);
      body.off("error", onError);
      body.pause();
      resolve(start);
    }
    body.on("data", onData);
    body.once("end", onEnd);
    body.on("error", onError);
    res.once("close", onClose);
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted) onAbort();
  });
}
