import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { DEFAULT_RPC_TIMEOUT_MS } from "@kiln/git";
import { API_PREFIX, drainBeforeAnswer, type RestHandler, type Served } from "@kiln/rest-adapter";
import type { GitHttpHandler } from "./git-http/handler.js";
import { isGitRequest } from "./git-http/route.js";
import type { Logger } from "./logger.js";
import { isUploadPath, type UploadsHandler } from "./uploads-handler.js";

const NOT_FOUND = JSON.stringify({ message: "404 Not Found" });
const INTERNAL_ERROR = JSON.stringify({ message: "500 Internal Server Error" });

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<Served>;

/** Runs a handler; one that throws instead of rejecting fails its request the same way. */
function serve(handler: Handler, req: IncomingMessage, res: ServerResponse): Promise<Served> {
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

function isApi(url: string): boolean {
  return url.startsWith(`${API_PREFIX}/`) || url === API_PREFIX || url.startsWith(`${API_PREFIX}?`);
}

/**
 * How long a request may take to arrive whole. Node's default (5 minutes) would cut a long push
 * mid-pack; git's own limit (10 minutes per exchange) is the one that counts, with a margin.
 */
export const REQUEST_TIMEOUT_MS = DEFAULT_RPC_TIMEOUT_MS + 60_000;

/**
 * The HTTP front: `/api/v3` goes to the REST adapter, `GET` and `HEAD` of
 * `/<namespace>/<project>/uploads/<secret>/<file name>` to the uploads handler (when given),
 * git's smart HTTP (`/<namespace>/<project>.git/info/refs`, `POST …/git-upload-pack`,
 * `POST …/git-receive-pack`) to the git handler (when given); anything else is 404 for now, once
 * the body sent with it was read. A handler that fails answers 500 for its request alone. Logs one
 * line per request.
 */
export function createHttpServer(
  api: RestHandler,
  log: Logger,
  uploads?: UploadsHandler,
  git?: GitHttpHandler,
): Server {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const url = req.url ?? "/";
    const path = url.split("?", 1)[0];
    const done = (status: number, userId: number | null) =>
      log.info(
        {
          method: req.method,
          path,
          status,
          ms: Math.round((performance.now() - started) * 100) / 100,
          user_id: userId,
        },
        "request",
      );
    const readsUpload = (req.method === "GET" || req.method === "HEAD") && isUploadPath(path ?? "/");
    const handler = isApi(url)
      ? api
      : readsUpload
        ? uploads
        : isGitRequest(req.method, path ?? "/")
          ? git
          : undefined;
    if (handler) {
      serve(handler, req, res).then(
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
