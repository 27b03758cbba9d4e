import { DomainError, type ErrorKind, type FailureReason } from "@kiln/domain";
import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { BodyError } from "./request/body.js";
import { v3Message } from "./wording/index.js";

/** The one table from domain error kinds to v3 status codes. */
const STATUS: Record<ErrorKind, number> = {
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  missing_param: 400,
  validation: 400,
  bad_request: 400,
  not_modified: 304,
  not_allowed: 405,
  not_acceptable: 406,
  unprocessable: 422,
  too_large: 413,
  rate_limited: 429,
};

/**
 * Named failures GitLab 8.x answers with another status than their kind's: a password sign-in
 * refused for two-factor authentication is a 401 in `lib/api/session.rb`, though every other
 * surface treats it as a refusal (403) of a user who did prove who they are.
 */
const STATUS_BY_REASON: Partial<Record<FailureReason, number>> = { two_factor_enabled: 401 };

/** A v3 error response. */
export interface ErrorReply {
  status: number;
  body: { message: unknown } | undefined;
  /** Headers the error needs (`Retry-After` for a 429). */
  headers?: Record<string, string>;
  /** Set for failures that are bugs: the caller logs it, the client never sees it. */
  internal?: unknown;
}

/** The status and body of a domain error: the kind decides the status, the facts the v3 text. */
export function domainErrorReply(error: DomainError): ErrorReply {
  const { failure } = error;
  const status = ("reason" in failure && STATUS_BY_REASON[failure.reason]) || STATUS[error.kind];
  if (status === 304) return { status, body: undefined };
  const body = { message: v3Message(failure) };
  if (error.retryAfterSeconds === undefined) return { status, body };
  return { status, body, headers: { "Retry-After": String(error.retryAfterSeconds) } };
}

/** Maps anything thrown while serving a request to its v3 reply; unknown failures become a bare 500. */
export function errorReply(error: unknown): ErrorReply {
  const cause = error instanceof TRPCError ? error.cause : error;
  if (DomainError.is(cause)) return domainErrorReply(cause);
  if (cause instanceof BodyError) {
    return cause.reason === "too_large"
      ? { status: 413, body: { message: cause.message } }
      : { status: 400, body: { message: cause.message } };
  }
  if (cause instanceof ZodError) {
    // A procedure refused input the route had accepted: report it, but it is also a bug to fix.
    return { status: 400, body: { message: "400 (Bad request) invalid parameters" }, internal: error };
  }
  return { status: 500, body: { message: "500 Internal Server Error" }, internal: error };
}
