import type { Readable } from "node:stream";
import type { Page } from "@kiln/domain";
import {
  type Context,
  invoke,
  type Operation,
  type PresentContext,
  type ServiceRuntime,
} from "@kiln/services";
import { z } from "zod";

export type { PresentContext };

/** The HTTP methods of the v3 API. */
export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** A finished response: a status and a JSON body (undefined for none), with extra headers. */
export interface Reply {
  status: number;
  body: unknown;
  /** Present on paginated lists. */
  page?: Page<unknown>;
  /** Present instead of a JSON body on routes that answer bytes (see {@link rawRoute}). */
  raw?: RawBody;
  /** Headers beyond the JSON ones (`Retry-After` on a 429). */
  headers?: Record<string, string> | undefined;
}

/**
 * A body that is not JSON: bytes already in memory (a blob), or a stream written as it comes, at
 * the pace the client reads (an archive).
 */
export interface RawBody {
  /** `Content-Type`, `Content-Disposition` and the like; `Content-Length` is set for bytes. */
  headers: Record<string, string | number>;
  content: Buffer | Readable;
  /**
   * For a stream: settles when its producer is done. A rejection means the bytes are incomplete,
   * and the response is then cut off rather than ended, so that the client cannot take a
   * truncated file for a whole one.
   */
  finished?: Promise<void>;
}

/**
 * How a route takes an uploaded file: the multipart field that carries it and the largest size
 * accepted. Only routes that declare one receive files; every other route skips file parts.
 */
export interface FileField {
  /** The multipart field name (`file`). */
  field: string;
  /** The largest file accepted, in bytes, asked per request (it may follow the settings). */
  maxBytes(runtime: ServiceRuntime): number | Promise<number>;
}

/** A row of the route table, after its types have been checked by {@link route} or {@link listRoute}. */
export interface Route {
  method: Method;
  /**
   * Relative to `/api/v3`, with `:name` segments (one segment) and `*name` ones (one or more, for
   * ref names sent with raw slashes; see `RouteTable`).
   */
  path: string;
  /** Validates and converts the merged parameters. */
  params: z.ZodObject;
  /** True for the few routes that need no token (sign-in). */
  anonymous: boolean;
  /** The file the route takes, or null for routes that take none. */
  files: FileField | null;
  /** Runs the operation as the request's actor and presents its result. */
  run(context: Context, input: unknown, present: PresentContext): Promise<Reply>;
}

/** How a route reaches its use case: an operation (its input schema is the route's), or a function. */
type Target<S extends z.ZodObject, R> =
  | {
      /** The operation to invoke; the route's parameters are its input. */
      operation: Operation<z.ZodType, R>;
      params?: never;
      call?: never;
    }
  | {
      /** The parameters, when they are not simply an operation's input. */
      params: S;
      /** Runs the use case. */
      call: (context: Context, input: z.output<S>) => Promise<R>;
      operation?: never;
    };

type RouteSpec<S extends z.ZodObject, R> = Target<S, R> & {
  method: Method;
  path: string;
  anonymous?: boolean;
  /** Declares the uploaded file the route takes; without it file parts are ignored. */
  files?: FileField;
  /** Defaults to 201 for POST, 200 otherwise. */
  status?: number;
  /** Turns the result into v3 JSON. */
  present: (result: R, context: PresentContext) => unknown;
};

const NO_PARAMS = z.object({});

/** The parts of a route row every kind shares, with the kind's own way of presenting. */
function row<S extends z.ZodObject, R>(
  spec: RouteSpec<S, R>,
  reply: (result: R, present: PresentContext) => Reply,
): Route {
  const { operation } = spec;
  const call = operation
    ? (context: Context, input: z.output<S>) => invoke(operation, context, input)
    : spec.call;
  // An operation without input (NoInput is optional, not an object) takes no parameters.
  const params = operation
    ? operation.input instanceof z.ZodObject
      ? operation.input
      : NO_PARAMS
    : spec.params;
  return {
    method: spec.method,
    path: spec.path,
    params,
    anonymous: spec.anonymous ?? false,
    files: spec.files ?? null,
    run: async (context, input, present) => reply(await call(context, input as z.output<S>), present),
  };
}

/** Declares a route that answers one entity (or any JSON value). */
export function route<S extends z.ZodObject, R>(spec: RouteSpec<S, R>): Route {
  const status = spec.status ?? (spec.method === "POST" ? 201 : 200);
  return row(spec, (result, present) => ({ status, body: spec.present(result, present) }));
}

type ListRouteSpec<S extends z.ZodObject, T> = Omit<RouteSpec<S, Page<T>>, "present" | "status"> & {
  /** Turns one item into v3 JSON. */
  present: (item: T, context: PresentContext) => unknown;
};

/** Declares a paginated list: the use case answers a Page, the reply carries the pagination headers. */
export function listRoute<S extends z.ZodObject, T>(spec: ListRouteSpec<S, T>): Route {
  return row(spec as RouteSpec<S, Page<T>>, (page, present) => ({
    status: 200,
    body: page.items.map((item) => spec.present(item, present)),
    page,
  }));
}

type RawRouteSpec<S extends z.ZodObject, R> = Omit<RouteSpec<S, R>, "present"> & {
  /** Turns the result into the bytes to send and their headers. */
  present: (result: R, context: PresentContext) => RawBody;
};

/**
 * Declares a route that answers bytes instead of JSON (raw blobs, archives). Failures before the
 * result exists still answer v3 JSON errors.
 */
export function rawRoute<S extends z.ZodObject, R>(spec: RawRouteSpec<S, R>): Route {
  const status = spec.status ?? 200;
  return row(spec as RouteSpec<S, R>, (result, present) => ({
    status,
    body: undefined,
    raw: spec.present(result, present),
  }));
}
