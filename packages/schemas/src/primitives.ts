import { z } from "zod";

/** A database id: a positive integer. */
export const Id = z.number().int().positive();

/** An ISO 8601 UTC timestamp with milliseconds and `Z`, as every v3 timestamp is. */
export const Timestamp = z.iso.datetime({ precision: 3 });

/** A free-text attribute of at most 255 characters. */
export const ShortText = z.string().max(255, { error: "is too long (maximum is 255 characters)" });

/**
 * A string checked by a domain rule that returns the problem (or null): the problem becomes the
 * validation message, so the rule's wording reaches the v3 error body unchanged.
 */
export function ruled(problem: (value: string) => string | null) {
  return z.string().superRefine((value, ctx) => {
    const message = problem(value);
    if (message) ctx.addIssue({ code: "custom", message });
  });
}

/** The input of an operation that takes none (tRPC callers may omit it). */
export const NoInput = z.object({}).optional();
