import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { DEFAULT_RPC_TIMEOUT_MS } from "@kiln/git";
import { drainBeforeAnswer, type Served } from "@kiln/rest-adapter";
import type { Logger } from "./logger.js";

const NOT_FOUND = JSON.stringify({ message: "404 Not Found" });
const INTERNAL_ERROR = JSON.stringify({ message: "500 Internal Server Error" });

/** Serves one request; resolves with its status and acting user, for the request log. */
export type MountHandler = (req: IncomingMessage, res: ServerResponse) => Promise<Served>;

/** One row of the front door's table: a surface of the server and the requests it serves. */
export interface Mount {
  /** The surface, as the request log names it (`api_v3`, `uploads`, `git`). */
  readonly name: string;
  /** True when this mount serves a request, by its method and path (without the query string). */
  readonly matches: (method: string | undefined, path: string) => boolean;
  readonly handler: MountHandler;
}

/** Matches a path prefix: the prefix itself and every path under it, any method. */
export function under(prefix: string): Mount["matches"] {
  return (_method, path) => path === prefix || path.startsWith(`${prefix}/`);
}

/** Runs a handler; one that throws instead of rejecting fails its request the same way. */
function serve(handler: MountHandler, req: IncomingMessage, res: ServerResponse): Promise<Served> {
  try {
    return handler(req, res);
  } catch (error) {
    return Promise.reject(error);
  }
}

function answer(res: ServerResponse, status: number, json: string): void {
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(json) });
  res.end(json);
}

/**
 * How long a request may take to arrive whole. Node's default (5 minutes) would cut a long push
 * mid-pack; git's own limit (10 minutes per exchange) is the one that counts, with a margin.
 */
export const REQUEST_TIMEOUT_MS = DEFAULT_RPC_TIMEOUT_MS + 60_000;

/**
 * The HTTP front door: each request goes to the first of `mounts` that matches it; anything else
 * is `404 Not Found`, once the body sent with it was read. A handler that fails (rejects or
 * throws) answers 500 for its request alone, or has its half-sent answer cut off. Logs one
 * `request` line per request, with the mount that served it.
 */
export function createHttpServer(mounts: readonly Mount[], log: Logger): Server {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const path = (req.url ?? "/").split("?", 1)[0] ?? "/";
    const mount = mounts.find((candidate) => candidate.matches(req.method, path));
    const done = (status: number, userId: number | null) =>
      log.info(
        {
          method: req.method,
          path,
          status,
          ms: Math.round((performance.now() - started) * 100) / 100,
          user_id: userId,
          mount: mount?.name ?? null,
        },
        "request",
      );
    if (mount) {
      serve(mount.handler, req, res).then(
        (served) => done(served.status, served.userId),
        (error: unknown) => {
          log.error({ err: error, method: req.method, path }, "request failed");
          if (!res.headersSent) answer(res, 500, INTERNAL_ERROR);
          // Half an answer cannot be mended into a 500: cut it off so the client sees it broken.
          else if (!res.writableEnded) res.destroy();
          done(500, null);
        },
      );
      return;
    }
    // Never rejects: an unread body is discarded up to a bound, whatever becomes of it.
    void drainBeforeAnswer(req, res).then(() => {
      answer(res, 404, NOT_FOUND);
      done(404, null);
    });
  });
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  return server;
}
