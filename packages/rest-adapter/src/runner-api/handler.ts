import type { IncomingMessage } from "node:http";
import { DomainError, notFound } from "@kiln/domain";
import type { UploadedFile } from "@kiln/schemas";
import type { ServiceRuntime } from "@kiln/services";
import { headerValue } from "../credentials.js";
import { errorReply } from "../errors.js";
import { decodeRouteParams, type RestHandler } from "../handler.js";
import { sendRaw } from "../raw-body.js";
import { drainBeforeAnswer, readBodyParams, readRawBody } from "../request/body.js";
import { readBodyWithFile, receivedFiles, removeReceivedFiles } from "../request/files.js";
import { formPairs, mergeParams, type Params, paramsFromPairs } from "../request/params.js";
import type { Reply } from "../route.js";
import { RouteTable } from "../router.js";
import type { RunnerRoute } from "./route.js";
import { runnerRoutes } from "./routes.js";

/** The path the runner API lives under (GitLab 8.x's CI API). */
export const RUNNER_API_PREFIX = "/ci/api/v1";

/** How the runner API is set up. */
export interface RunnerApiOptions {
  runtime: ServiceRuntime;
  baseUrl: string;
  /** The longest a request for a build waits for one, in ms (default 50 s; 0: answer at once as 8.x). */
  buildWaitMs?: number;
  onInternalError?: (error: unknown, req: IncomingMessage) => void;
}

/**
 * Creates the `/ci/api/v1` handler: the runner-facing API of GitLab 8.x (register and delete
 * runners, request builds, report them, append traces, artifacts). Its routes read their own
 * tokens (runner, build, registration) from the parameters or headers; failures answer 8.x's
 * bodies (`{"message": "403 Forbidden"}`), a bug a bare 500.
 */
export function createRunnerApiHandler(options: RunnerApiOptions): RestHandler {
  const table = new RouteTable<RunnerRoute>(runnerRoutes);
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const buildWaitMs = options.buildWaitMs ?? 50_000;

  return async (req, res) => {
    let reply: Reply;
    let received: UploadedFile[] = [];
    const aborted = new AbortController();
    const onClose = () => {
      if (!res.writableEnded) aborted.abort();
    };
    res.once("close", onClose);
    const [pathname, search = ""] = (req.url ?? "/").split("?", 2) as [string, string?];
    try {
      const match = table.match(req.method ?? "GET", pathname.slice(RUNNER_API_PREFIX.length));
      if (match.kind === "none") throw notFound();
      if (match.kind === "wrong_method")
        throw new DomainError({ kind: "not_allowed", reason: "method_not_allowed" });
      const { route, pathParams } = match;
      const query = search === "" ? {} : paramsFromPairs(formPairs(search));
      let body: Buffer = Buffer.alloc(0);
      let bodyParams: Params = {};
      if (route.rawBody !== undefined) body = await readRawBody(req, route.rawBody);
      else if (route.files) bodyParams = await readBodyWithFile(req, route.files, options.runtime);
      else bodyParams = await readBodyParams(req);
      if (route.files) received = receivedFiles(bodyParams);
      const params = mergeParams(query, bodyParams, pathParams);
      reply = await route.run({
        runtime: options.runtime,
        baseUrl,
        params,
        decode: (schema) => decodeRouteParams(schema, params, pathParams),
        header: (name) => headerValue(req, name),
        body,
        signal: aborted.signal,
        buildWaitMs,
      });
    } catch (error) {
      const failure = errorReply(error);
      if (failure.internal !== undefined) options.onInternalError?.(failure.internal, req);
      reply = { status: failure.status, body: failure.body };
    }
    res.off("close", onClose);
    if (received.length > 0) await removeReceivedFiles(received);
    await drainBeforeAnswer(req, res);
    if (reply.raw) await sendRaw(res, reply.status, reply.raw);
    else sendJson(res, reply.status, reply.body);
    return { status: reply.status, userId: null };
  };
}

function sendJson(res: Parameters<RestHandler>[1], status: number, body: unknown): void {
  if (body === undefined) {
    res.writeHead(status, { "Content-Length": 0 });
    res.end();
    return;
  }
  const json = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(json),
    "Cache-Control": "no-cache",
  });
  res.end(json);
}
