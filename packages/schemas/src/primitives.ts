import { z } from "zod";

/**
 * The largest integer the database holds: ids and integer attributes are stored in 32-bit signed
 * columns (PostgreSQL's `integer`), so a larger number names nothing and cannot be stored.
 */
export const MAX_INTEGER = 2_147_483_647;

const WITHIN_RANGE = { error: `must be less than or equal to ${MAX_INTEGER}` };

/** A database id: a positive integer within the database's integer range. */
export const Id = z.number().int().positive().max(MAX_INTEGER, WITHIN_RANGE);

/** An integer attribute the database stores (a limit, a priority): at most {@link MAX_INTEGER}. */
export const StoredInt = z.number().int().max(MAX_INTEGER, WITHIN_RANGE);

const DIGITS = /^\d+$/;

/** True when `text` is all digits, as an id written in a path segment or in `sudo` is. */
export const isDigits = (text: string): boolean => DIGITS.test(text);

/**
 * An object named by its id or by a path (`namespace%2Fproject`, a group's path). Path segments
 * arrive as strings, and digits always mean an id: they become the number, held to the id range
 * like any id, so digits past it (or past what a number holds exactly) name nothing and are
 * refused rather than looked up.
 */
export function idOrPath<P extends z.ZodType<string>>(path: P) {
  return z.preprocess(
    (value) => (typeof value === "string" && isDigits(value) ? Number(value) : value),
    z.union([Id, path]),
  );
}

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
