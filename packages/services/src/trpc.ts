import { DomainError, type ErrorKind, type Failure } from "@kiln/domain";
import { initTRPC, TRPCError, type TRPCMutationProcedure, type TRPCQueryProcedure } from "@trpc/server";
import type { z } from "zod";
import type { Context } from "./context.js";
import { type Access, invoke, type Operation } from "./operation.js";

/**
 * tRPC clients get a domain failure's kind and facts, typed, in `shape.data.failure` (null for
 * anything else): they word it themselves. The message stays the neutral log description.
 */
const t = initTRPC.context<Context>().create({
  // Never a stack trace in an answer, whatever NODE_ENV says (tRPC's default follows it).
  isDev: false,
  errorFormatter: ({ shape, error }) => ({
    ...shape,
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
    const resolve = async ({ ctx, input }: { ctx: Context; input: unknown }) => {
      try {
        return await invoke(operation, ctx, input);
      } catch (error) {
        if (!DomainError.is(error)) throw error;
        throw new TRPCError({ code: TRPC_CODES[error.kind], message: error.message, cause: error });
      }
    };
    const withInput = t.procedure.input(operation.input);
    procedures[name] = operation.kind === "query" ? withInput.query(resolve) : withInput.mutation(resolve);
  }
  return procedures as { [K in keyof T]: ProcedureOf<T[K]> };
}
