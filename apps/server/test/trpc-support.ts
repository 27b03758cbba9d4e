import type { Failure } from "@kiln/domain";
import type { ApiResponse } from "@kiln/testkit";
import type { Served } from "./support.js";

/** A tRPC answer: the procedure's data, or its error with the domain failure. */
export type TrpcBody<T> =
  | { result: { data: T }; error?: never }
  | {
      result?: never;
      error: {
        message: string;
        code: number;
        data: { code: string; httpStatus: number; failure: Failure | null };
      };
    };

/** How a call names its caller: the `PRIVATE-TOKEN` header (default) or `Authorization: Bearer`. */
export interface TrpcAuth {
  token?: string;
  bearer?: string;
}

/**
 * Calls one procedure of `/api/trpc` as tRPC's HTTP link does, without a client: a query is a GET
 * with `input` as JSON in the query string, a mutation a POST with the input as the JSON body.
 */
export function trpcCall<T = unknown>(
  served: Served,
  kind: "query" | "mutation",
  path: string,
  input: unknown,
  auth: TrpcAuth = {},
): Promise<ApiResponse<TrpcBody<T>>> {
  const headers: Record<string, string> = auth.bearer ? { Authorization: `Bearer ${auth.bearer}` } : {};
  const common = { path: `/api/trpc/${path}`, headers, ...(auth.token ? { token: auth.token } : {}) };
  if (kind === "mutation") return served.api({ ...common, method: "POST", json: input });
  const query = input === undefined ? {} : { input: JSON.stringify(input) };
  return served.api({ ...common, query });
}

/** The data of a successful call; fails with the error otherwise. */
export function dataOf<T>(res: ApiResponse<TrpcBody<T>>): T {
  if (res.body.error) throw new Error(`tRPC error ${res.status}: ${JSON.stringify(res.body.error)}`);
  return res.body.result.data;
}
