import type { Page } from "@kiln/domain";
import type { Actor, Context } from "@kiln/services";
import type { z } from "zod";

/** What every presenter may use: where the server lives and who is asking. */
export interface PresentContext {
  /** `KILN_BASE_URL` without a trailing slash. */
  baseUrl: string;
  actor: Actor | null;
}

/** The HTTP methods of the v3 API. */
export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** A finished response: a status and a JSON body (undefined for none), with extra headers. */
export interface Reply {
  status: number;
  body: unknown;
  /** Present on paginated lists. */
  page?: Page<unknown>;
}

/** A row of the route table, after its types have been checked by {@link route} or {@link listRoute}. */
export interface Route {
  method: Method;
  /** Relative to `/api/v3`, with `:name` segments. */
  path: string;
  /** Validates and converts the merged parameters. */
  params: z.ZodObject;
  /** True for the few routes that need no token (sign-in). */
  anonymous: boolean;
  /** Runs the operation as the request's actor and presents its result. */
  run(context: Context, input: unknown, present: PresentContext): Promise<Reply>;
}

interface RouteSpec<S extends z.ZodObject, R> {
  method: Method;
  path: string;
  params: S;
  anonymous?: boolean;
  /** Runs the operation (usually `invoke(operation, context, input)`). */
  call: (context: Context, input: z.output<S>) => Promise<R>;
  /** Defaults to 201 for POST, 200 otherwise. */
  status?: number;
  /** Turns the procedure's result into v3 JSON. */
  present: (result: R, context: PresentContext) => unknown;
}

/** The parts of a route row every kind shares, with the kind's own way of running it. */
function row<S extends z.ZodObject>(
  spec: Omit<RouteSpec<S, never>, "call" | "present">,
  run: Route["run"],
): Route {
  return {
    method: spec.method,
    path: spec.path,
    params: spec.params,
    anonymous: spec.anonymous ?? false,
    run,
  };
}

/** Declares a route that answers one entity (or any JSON value). */
export function route<S extends z.ZodObject, R>(spec: RouteSpec<S, R>): Route {
  const status = spec.status ?? (spec.method === "POST" ? 201 : 200);
  return row(spec, async (context, input, present) => {
    const result = await spec.call(context, input as z.output<S>);
    return { status, body: spec.present(result, present) };
  });
}

interface ListRouteSpec<S extends z.ZodObject, T> extends Omit<RouteSpec<S, Page<T>>, "present" | "status"> {
  /** Turns one item into v3 JSON. */
  present: (item: T, context: PresentContext) => unknown;
}

/** Declares a paginated list: the procedure answers a Page, the reply carries the pagination headers. */
export function listRoute<S extends z.ZodObject, T>(spec: ListRouteSpec<S, T>): Route {
  return row(spec, async (context, input, present) => {
    const page = await spec.call(context, input as z.output<S>);
    return { status: 200, body: page.items.map((item) => spec.present(item, present)), page };
  });
}
