import { DomainError, type ErrorKind, type Failure } from "@kiln/domain";
import {
  initTRPC,
  TRPCError,
  type TRPCMutationProcedure,
  type TRPCQueryProcedure,
  tracked,
} from "@trpc/server";
import type { z } from "zod";
import type { Context } from "./context.js";
import { type Access, checkAccess, invoke, type Operation, type SignedInContext } from "./operation.js";

/**
 * tRPC clients get a domain failure's kind and facts, typed, in `shape.data.failure` (null for
 * anything else): they word it themselves. The message stays the neutral log description.
 */
const t = initTRPC.context<Context>().create({
  // Never a stack trace in an answer, whatever NODE_ENV says (tRPC's default follows it).
  isDev: false,
  // Subscriptions over server-sent events: a comment every 15 s keeps proxies from closing an
  // idle stream, and tells clients to reconnect (with their last event id) after 35 s of silence.
  sse: { ping: { enabled: true, intervalMs: 15_000 }, client: { reconnectAfterInactivityMs: 35_000 } },
  errorFormatter: ({ shape, error }) => ({
    ...shape,
    // A bug's message may name internals (a column, a schema's path): clients get none of it.
    message: error.code === "INTERNAL_SERVER_ERROR" ? "Internal server error" : shape.message,
    data: {
      ...shape.data,
      failure: DomainError.is(error.cause) ? error.cause.failure : (null as Failure | null),
    },
  }),
});

/** tRPC codes for domain error kinds, so a tRPC client sees sensible codes too. */
const TRPC_CODES: Record<ErrorKind, TRPCError["code"]> = {
  unauthenticated: "UNAUTHORIZED",
  forbidden: "FORBIDDEN",
  not_found: "NOT_FOUND",
  conflict: "CONFLICT",
  missing_param: "BAD_REQUEST",
  validation: "BAD_REQUEST",
  bad_request: "BAD_REQUEST",
  not_modified: "BAD_REQUEST",
  not_allowed: "METHOD_NOT_SUPPORTED",
  not_acceptable: "PRECONDITION_FAILED",
  unprocessable: "UNPROCESSABLE_CONTENT",
  too_large: "PAYLOAD_TOO_LARGE",
  rate_limited: "TOO_MANY_REQUESTS",
};

/** Builds routers. */
export const router = t.router;

/** Creates server-side callers of a router. */
export const createCallerFactory = t.createCallerFactory;

/** The tRPC procedure type of an operation. */
type ProcedureOf<Op> =
  Op extends Operation<infer S, infer O, Access, infer K>
    ? K extends "query"
      ? TRPCQueryProcedure<{ input: z.input<S>; output: O; meta: unknown }>
      : TRPCMutationProcedure<{ input: z.input<S>; output: O; meta: unknown }>
    : never;

/** Any operation. */
type AnyOperation = Operation<z.ZodType, unknown, Access, "query" | "mutation">;

/** The TRPCError of a domain failure: the code of its kind, the DomainError as its cause. */
export function trpcErrorOf(error: DomainError): TRPCError {
  return new TRPCError({ code: TRPC_CODES[error.kind], message: error.message, cause: error });
}

/** Runs an operation for tRPC, its DomainErrors re-raised as TRPCErrors (see {@link trpcErrorOf}). */
async function run(operation: AnyOperation, ctx: Context, input: unknown): Promise<unknown> {
  try {
    return await invoke(operation, ctx, input);
  } catch (error) {
    throw DomainError.is(error) ? trpcErrorOf(error) : error;
  }
}

/**
 * tRPC procedures for a record of operations: tRPC parses the input with the operation's schema,
 * then the operation runs through {@link invoke}, its DomainErrors re-raised as TRPCErrors of the
 * matching code (the DomainError stays the cause).
 */
export function proceduresOf<T extends Record<string, AnyOperation>>(
  operations: T,
): { [K in keyof T]: ProcedureOf<T[K]> } {
  const procedures: Record<string, unknown> = {};
  for (const [name, operation] of Object.entries(operations)) {
    const resolve = ({ ctx, input }: { ctx: Context; input: unknown }) => run(operation, ctx, input);
    const withInput = t.procedure.input(operation.input);
    procedures[name] = operation.kind === "query" ? withInput.query(resolve) : withInput.mutation(resolve);
  }
  return procedures as { [K in keyof T]: ProcedureOf<T[K]> };
}

/** The tRPC procedure of an operation whose result is presented as `O`. */
type PresentedProcedureOf<Op, O extends z.ZodType> =
  Op extends Operation<infer S, unknown, Access, infer K>
    ? K extends "query"
      ? TRPCQueryProcedure<{ input: z.input<S>; output: z.output<O>; meta: unknown }>
      : TRPCMutationProcedure<{ input: z.input<S>; output: z.output<O>; meta: unknown }>
    : never;

/**
 * A procedure for clients outside the process: the operation as {@link proceduresOf} runs it, its
 * result presented by `present` and checked against the `output` schema, which also drops any key
 * the schema does not name. What it answers is a public shape, never an internal view.
 */
export function presentedProcedure<Op extends AnyOperation, O extends z.ZodType>(
  operation: Op,
  output: O,
  present: (result: Awaited<ReturnType<Op["run"]>>, ctx: Context) => z.input<O>,
): PresentedProcedureOf<Op, O> {
  const resolve = async ({ ctx, input }: { ctx: Context; input: unknown }): Promise<unknown> =>
    present((await run(operation, ctx, input)) as Awaited<ReturnType<Op["run"]>>, ctx);
  // The generic schema is beyond what tRPC's builder types can follow: the type is stated above.
  const base = t.procedure.input(operation.input).output(output as z.ZodType);
  const procedure = operation.kind === "query" ? base.query(resolve) : base.mutation(resolve);
  return procedure as unknown as PresentedProcedureOf<Op, O>;
}

/**
 * A subscription for signed-in callers (server-sent events over HTTP): `stream` yields events with
 * their ids, sent as the SSE `id` so that a client that reconnects names the last one it got
 * (`lastEventId` in the input). An anonymous caller is refused as every signed-in operation is.
 */
export function signedInSubscription<S extends z.ZodType, T>(
  input: S,
  stream: (
    ctx: SignedInContext,
    input: z.output<S>,
    signal: AbortSignal | undefined,
  ) => AsyncIterable<{ id: number; event: T }>,
) {
  return t.procedure.input(input).subscription(async function* ({ ctx, input: value, signal }) {
    try {
      checkAccess("signed_in", ctx);
    } catch (error) {
      throw DomainError.is(error) ? trpcErrorOf(error) : error;
    }
    for await (const { id, event } of stream(ctx as SignedInContext, value as z.output<S>, signal)) {
      yield tracked(String(id), event);
    }
  });
}
