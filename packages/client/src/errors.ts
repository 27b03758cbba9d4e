import type { Failure } from "@kiln/domain";
import type { PublicRouter } from "@kiln/services";
import { TRPCClientError } from "@trpc/client";

/**
 * Why a call failed, as a value: the domain failure when Kiln refused it (its kind and facts, such
 * as `{ kind: "not_found", subject: "project" }` or `{ kind: "conflict", … }`), else null (the
 * server could not be reached, or answered something that is not Kiln's), with tRPC's code and
 * the HTTP status (0 when there was no answer).
 */
export interface KilnFailure {
  failure: Failure | null;
  /** tRPC's code: `NOT_FOUND`, `UNAUTHORIZED`, `CONFLICT`, …; `CLIENT_ERROR` without an answer. */
  code: string;
  httpStatus: number;
  message: string;
  /** What was thrown, for logs. */
  cause: unknown;
}

/** A call's outcome as a value: its data, or why it failed. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: KilnFailure };

/** The failure of anything a client call threw. */
export function failureOf(error: unknown): KilnFailure {
  if (error instanceof TRPCClientError) {
    const data = (error as TRPCClientError<PublicRouter>).data;
    return {
      failure: data?.failure ?? null,
      code: data?.code ?? "CLIENT_ERROR",
      httpStatus: data?.httpStatus ?? 0,
      message: error.message,
      cause: error,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { failure: null, code: "CLIENT_ERROR", httpStatus: 0, message, cause: error };
}

/**
 * Runs a call and answers its outcome as a value instead of throwing, so that a caller decides
 * on the failure's kind: `if (!r.ok && r.error.failure?.kind === "conflict") …`.
 */
export async function attempt<T>(call: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, error: failureOf(error) };
  }
}
