import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { DEFAULT_RPC_TIMEOUT_MS } from "@kiln/git";
import { API_PREFIX, type RestHandler } from "@kiln/rest-adapter";
import type { GitHttpHandler } from "./git-http/handler.js";
import { isGitRequest } from "./git-http/route.js";
import type { Logger } from "./logger.js";
import { isUploadPath, type UploadsHandler } from "./uploads-handler.js";

const NOT_FOUND = JSON.stringify({ message: "404 Not Found" });

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
 * `POST …/git-receive-pack`) to the git handler (when given); anything else is 404 for now.
 * Logs one line per request.
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
      handler(req, res).then(
        (served) => done(served.status, served.userId),
        (error: unknown) => {
          log.error({ err: error, method: req.method, path }, "request failed");
          if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
          res.end(JSON.stringify({ message: "500 Internal Server Error" }));
          done(500, null);
        },
      );
      return;
    }
    res.writeHead(404, {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(NOT_FOUND),
    });
    res.end(NOT_FOUND);
    req.resume();
    done(404, null);
  });
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  return server;
}
