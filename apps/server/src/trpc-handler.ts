import type { IncomingMessage } from "node:http";
import { DomainError } from "@kiln/domain";
import { clientAddress, DEFAULT_BODY_LIMIT, identifyCaller, TRPC_CREDENTIALS } from "@kiln/rest-adapter";
import { type Context, publicRouter, type ServiceRuntime, trpcErrorOf } from "@kiln/services";
import { nodeHTTPRequestHandler } from "@trpc/server/adapters/node-http";
import type { MountHandler } from "./http-server.js";

/** Where the services' public tRPC router is served. */
export const TRPC_PREFIX = "/api/trpc";

/** The most procedures one batched request may call: a sidebar's refresh is a handful. */
export const MAX_BATCH_SIZE = 32;

/** How the tRPC surface is set up. */
export interface TrpcOptions {
  runtime: ServiceRuntime;
  /** Receives failures that are bugs (answered as a bare `INTERNAL_SERVER_ERROR`). */
  onInternalError?: (error: unknown, req: IncomingMessage) => void;
}

/**
 * The `/api/trpc` handler: `@kiln/services`' {@link publicRouter} through tRPC's own node adapter,
 * batching on. The caller is named by the `PRIVATE-TOKEN` header or `Authorization: Bearer`
 * ({@link TRPC_CREDENTIALS}), once per request, whatever the batch holds; credentials that name
 * nobody fail every call as `UNAUTHORIZED` with the domain failure, as v3 answers 401. Bodies are
 * bounded as the API's are; a refused one closes the connection after the answer.
 */
export function createTrpcHandler(options: TrpcOptions): MountHandler {
  const { runtime } = options;
  return async (req, res) => {
    let userId: number | null = null;
    const pathname = (req.url ?? "/").split("?", 1)[0] ?? "/";
    await nodeHTTPRequestHandler({
      router: publicRouter,
      req,
      res,
      path: pathname.slice(TRPC_PREFIX.length + 1),
      allowBatching: true,
      maxBatchSize: MAX_BATCH_SIZE,
      maxBodySize: DEFAULT_BODY_LIMIT,
      createContext: async (): Promise<Context> => {
        try {
          const actor = await identifyCaller(req, TRPC_CREDENTIALS, runtime);
          userId = actor?.user.id ?? null;
          return { runtime, actor, system: false, address: clientAddress(req) };
        } catch (error) {
          throw DomainError.is(error) ? trpcErrorOf(error) : error;
        }
      },
      responseMeta: ({ errors }) =>
        errors.some((error) => error.code === "PAYLOAD_TOO_LARGE")
          ? { headers: { connection: "close" } }
          : {},
      onError: ({ error }) => {
        if (error.code === "INTERNAL_SERVER_ERROR") options.onInternalError?.(error.cause ?? error, req);
      },
    });
    return { status: res.statusCode, userId };
  };
}
