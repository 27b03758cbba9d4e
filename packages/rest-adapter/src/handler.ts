import type { IncomingMessage, ServerResponse } from "node:http";
import { DomainError, notFound } from "@kiln/domain";
import type { UploadedFile } from "@kiln/schemas";
import type { Actor, ServiceRuntime } from "@kiln/services";
import type { z } from "zod";
import { authenticate } from "./auth.js";
import { clientAddress } from "./client-address.js";
import { errorReply } from "./errors.js";
import { paginationHeaders } from "./pagination.js";
import { sendRaw } from "./raw-body.js";
import { drainBeforeAnswer, readBodyParams } from "./request/body.js";
import { decodeParams } from "./request/decode.js";
import { readBodyWithFile, receivedFiles, removeReceivedFiles } from "./request/files.js";
import { formPairs, mergeParams, paramsFromPairs } from "./request/params.js";
import type { Reply, Route } from "./route.js";
import { RouteTable } from "./router.js";
import { v3Routes } from "./routes/index.js";

/** The path every v3 route lives under. */
export const API_PREFIX = "/api/v3";

/** How the REST adapter is set up. */
export interface RestOptions {
  runtime: ServiceRuntime;
  /** The public URL of the server (`KILN_BASE_URL`), for `web_url` fields and `Link` headers. */
  baseUrl: string;
  /** Receives failures that are bugs (answered as a bare 500). */
  onInternalError?: (error: unknown, req: IncomingMessage) => void;
  /** The routes to serve; default {@link v3Routes}, the whole v3 API. */
  routes?: readonly Route[];
}

/** What the adapter tells its host about a request it served, for the access log. */
export interface Served {
  status: number;
  /** The acting user (after sudo), or null when the request was not authenticated. */
  userId: number | null;
}

/** Serves one HTTP request under `/api/v3`; resolves when the response has been handed to Node. */
export type RestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<Served>;

/**
 * Creates the `/api/v3` handler: finds the route, reads and merges the parameters (query string,
 * then body, then path), authenticates (token, then sudo), decodes the parameters with the
 * route's schema, runs the operation as the actor and writes the v3 JSON answer. Every failure
 * becomes a v3 error body; unexpected ones are a bare 500 whose details go to `onInternalError`.
 * Routes that take a file receive it into a temp file, removed when the request ends unless the
 * operation moved it into place. A request refused before its body was read (no such route, wrong
 * method) has the rest of its body read first, so that the client reads the answer.
 */
export function createRestHandler(options: RestOptions): RestHandler {
  const table = new RouteTable(options.routes ?? v3Routes);
  const baseUrl = options.baseUrl.replace(/\/+$/, "");

  return async (req, res) => {
    let actor: Actor | null = null;
    let reply: Reply | undefined;
    let received: UploadedFile[] = [];
    const [pathname, search = ""] = (req.url ?? "/").split("?", 2) as [string, string?];
    let queryPairs: [string, string][] = [];
    try {
      const match = table.match(req.method ?? "GET", pathname.slice(API_PREFIX.length));
      if (match.kind === "none") throw notFound();
      if (match.kind === "wrong_method")
        throw new DomainError({ kind: "not_allowed", reason: "method_not_allowed" });
      const { route, pathParams } = match;
      if (search !== "") queryPairs = formPairs(search);
      const query = paramsFromPairs(queryPairs);
      const body = route.files ? readBodyWithFile(req, route.files, options.runtime) : readBodyParams(req);
      const bodyParams = body instanceof Promise ? await body : body;
      if (route.files) received = receivedFiles(bodyParams);
      const params = mergeParams(query, bodyParams, pathParams);
      if (!route.anonymous) actor = await authenticate(req, params, options.runtime);
      const input = decodeRouteParams(route.params, params, pathParams);
      const context = { runtime: options.runtime, actor, system: false, address: clientAddress(req) };
      reply = await route.run(context, input, { baseUrl, actor });
    } catch (error) {
      const failure = errorReply(error);
      if (failure.internal !== undefined) options.onInternalError?.(failure.internal, req);
      reply = { status: failure.status, body: failure.body, headers: failure.headers };
    }
    if (received.length > 0) await removeReceivedFiles(received);
    await drainBeforeAnswer(req, res);
    if (reply.status === 413) res.shouldKeepAlive = false;
    const headers: Record<string, string | number> = reply.page
      ? paginationHeaders(reply.page, baseUrl, pathname, queryPairs)
      : { ...reply.headers };
    if (reply.raw) await sendRaw(res, reply.status, reply.raw);
    else send(res, reply.status, reply.body, headers);
    return { status: reply.status, userId: actor?.user.id ?? null };
  };
}

/** Decodes parameters; a path parameter that fails its schema means no such resource (404), as in GitLab. */
export function decodeRouteParams<S extends Parameters<typeof decodeParams>[0]>(
  schema: S,
  params: Record<string, unknown>,
  path: Record<string, string>,
): z.output<S> {
  try {
    return decodeParams(schema, params);
  } catch (error) {
    const fields = DomainError.is(error) ? Object.keys(error.fields ?? {}) : [];
    if (fields.some((field) => field in path)) throw notFound();
    throw error;
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | number>,
): void {
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const json = JSON.stringify(body);
  headers["Content-Type"] = "application/json";
  headers["Content-Length"] = Buffer.byteLength(json);
  headers["Cache-Control"] = "no-cache";
  res.writeHead(status, headers);
  res.end(json);
}
