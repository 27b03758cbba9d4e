import { DomainError, type ErrorKind, forbidden, unauthenticated } from "@kiln/domain";
import { initTRPC, TRPCError } from "@trpc/server";
import type { Context } from "./context.js";

const t = initTRPC.context<Context>().create();

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

/** Re-raises a DomainError as a TRPCError of the matching code, keeping it as the cause. */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && DomainError.is(result.error.cause)) {
    const cause = result.error.cause;
    throw new TRPCError({ code: TRPC_CODES[cause.kind], message: cause.message, cause });
  }
  return result;
});

/** Builds routers. */
export const router = t.router;

/** Procedures anyone may call (sign-in, token resolution). */
export const publicProcedure = t.procedure.use(domainErrors);

/** Procedures that need a signed-in actor; `ctx.actor` is non-null inside. */
export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.actor) throw unauthenticated();
  return next({ ctx: { actor: ctx.actor } });
});

/** Procedures for administrators and the operator's own tools. */
export const adminProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.system && !ctx.actor) throw unauthenticated();
  if (!ctx.system && !ctx.actor?.user.is_admin) throw forbidden();
  return next();
});

/** Creates server-side callers of a router. */
export const createCallerFactory = t.createCallerFactory;
