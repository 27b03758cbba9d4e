/**
 * Errors as types. Every expected failure of a use case is a {@link DomainError} with a closed
 * {@link ErrorKind}; the REST adapter maps kinds to v3 status codes in one table. Anything else
 * that is thrown is a bug and surfaces as a 500.
 */

/** The closed set of expected failure kinds. */
export type ErrorKind =
  /** No valid credentials (or, on merge accept/cancel, no right to merge). */
  | "unauthenticated"
  /** Signed in and allowed to see the thing, but not allowed to do this. */
  | "forbidden"
  /** Missing, or hidden from the caller (a private project is "not found", never "forbidden"). */
  | "not_found"
  /** A conflicting resource exists (name taken, sha mismatch). */
  | "conflict"
  /** A required parameter is absent: `400 (Bad request) "x" not given`. */
  | "missing_param"
  /** Parameters failed validation: a map of field to messages. */
  | "validation"
  /** The request cannot be carried out, with a human-readable reason. */
  | "bad_request"
  /** The operation had no effect (already starred, already subscribed). */
  | "not_modified"
  /** The operation is not allowed in the resource's current state. */
  | "not_allowed"
  /** The resource is in a state that cannot accept the operation. */
  | "not_acceptable"
  /** The entity could not be processed. */
  | "unprocessable"
  /** A body or file over the configured size limit. */
  | "too_large";

/** Field-level validation messages, keyed by attribute name, as v3 reports them. */
export type FieldErrors = Record<string, string[]>;

const brand = Symbol.for("kiln.DomainError");

/** An expected failure of a use case. */
export class DomainError extends Error {
  readonly [brand] = true;
  override readonly name = "DomainError";

  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Present for `validation`: the attribute → messages map. */
    readonly fields?: FieldErrors,
  ) {
    super(message);
  }

  /** True for a DomainError, even one created by another copy of this module. */
  static is(value: unknown): value is DomainError {
    return typeof value === "object" && value !== null && (value as { [brand]?: boolean })[brand] === true;
  }
}

/** `404`: the named thing does not exist or the caller may not see it. */
export const notFound = (what?: string): DomainError =>
  new DomainError("not_found", what ? `404 ${what} Not Found` : "404 Not Found");

/** `403`: the caller may see the resource but may not do this. */
export const forbidden = (reason?: string): DomainError =>
  new DomainError("forbidden", reason ? `403 Forbidden: ${reason}` : "403 Forbidden");

/** `401`: no valid credentials. */
export const unauthenticated = (): DomainError => new DomainError("unauthenticated", "401 Unauthorized");

/** `400 (Bad request) "attr" not given`. */
export const missingParam = (attribute: string): DomainError =>
  new DomainError("missing_param", `400 (Bad request) "${attribute}" not given`);

/** `400` with the field → messages object. */
export const invalid = (fields: FieldErrors): DomainError =>
  new DomainError("validation", "400 Bad request", fields);

/** `400` with a plain message. */
export const badRequest = (message: string): DomainError => new DomainError("bad_request", message);

/** `409` with a message. */
export const conflict = (message: string): DomainError => new DomainError("conflict", message);

/** `304`: nothing changed. */
export const notModified = (): DomainError => new DomainError("not_modified", "304 Not Modified");
