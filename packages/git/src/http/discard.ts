import type { Readable } from "node:stream";

/** How much of a refused request body is still read (and thrown away) before answering. */
export const DISCARD_LIMIT = 16 * 1024 * 1024;

/** How long a refused request body is still read before answering. */
export const DISCARD_TIMEOUT_MS = 5_000;

/**
 * Reads what is left of a request body that will not be served, and throws it away, up to
 * {@link DISCARD_LIMIT} bytes or {@link DISCARD_TIMEOUT_MS}: a refusal closes the connection, and
 * a client still sending its body when the server closes gets a reset instead of the answer.
 * Whatever the body was piped to is unpiped first. Past either bound it stops, and the reset may
 * happen. Never rejects.
 */
export function discardBody(req: Readable): Promise<void> {
  if (req.readableEnded || req.destroyed) return Promise.resolve();
  req.unpipe();
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      req.off("data", onData).off("end", done).off("error", done).off("close", done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DISCARD_LIMIT) {
        req.pause();
        done();
      }
    };
    const timer = setTimeout(done, DISCARD_TIMEOUT_MS);
    req.on("data", onData).on("end", done).on("error", done).on("close", done);
    req.resume();
  });
}
