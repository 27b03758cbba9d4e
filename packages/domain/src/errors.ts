import type { FieldErrors, NamedFailure } from "./failures.js";

/**
 * Errors as types. Every expected failure of a use case is a {@link DomainError} carrying a
 * {@link Failure}: a closed {@link ErrorKind} plus the structured facts of what failed (what was
 * not found, which attribute, the reason code of a named failure). The domain words nothing: each
 * surface renders failures its own way (the REST adapter maps kinds to v3 status codes and writes
 * GitLab 8.x's bodies; tRPC clients get the facts). Anything else that is thrown is a bug and
 * surfaces as a 500.
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
  | "too_large"
  /** Too many attempts (sign-in throttling): try again after `retryAfterSeconds`. */
  | "rate_limited";

/** What a plain 404 is about (`404 <Subject> Not Found` in v3). */
export type NotFoundSubject =
  | "blob"
  | "branch"
  | "build"
  | "commit"
  | "file"
  | "group"
  | "group_link"
  | "hook"
  | "issue"
  | "key"
  | "label"
  | "member"
  | "merge_request"
  | "note"
  | "pipeline"
  | "project"
  | "system_hook"
  | "runner"
  | "tag"
  | "target_namespace"
  | "todo"
  | "token"
  | "tree"
  | "trigger"
  | "user"
  | "variable";

/** The failures every feature shares, with their facts. */
export type GeneralFailure =
  | { kind: "unauthenticated" }
  | { kind: "forbidden" }
  /** No subject: a bare 404 (an unknown route, a hidden upload). */
  | { kind: "not_found"; subject?: NotFoundSubject }
  | { kind: "missing_param"; attribute: string }
  | { kind: "validation"; fields: FieldErrors }
  | { kind: "not_modified" }
  | { kind: "too_large" };

/** An expected failure: its kind and facts. A `reason` marks a {@link NamedFailure}. */
export type Failure = GeneralFailure | NamedFailure;

const brand = Symbol.for("kiln.DomainError");

/** A neutral one-line description for logs; clients never see it (surfaces word the facts). */
function describe(failure: Failure): string {
  const { kind, ...facts } = failure;
  return Object.keys(facts).length === 0 ? kind : `${kind} ${JSON.stringify(facts)}`;
}

/** An expected failure of a use case. */
export class DomainError extends Error {
  readonly [brand] = true;
  override readonly name = "DomainError";
  /** The failure's kind, which decides its status on every surface. */
  readonly kind: ErrorKind;
  /** For `validation`, the attribute → messages map (the failure's `fields`). */
  readonly fields: FieldErrors | undefined;
  /** For `rate_limited`, how many seconds to wait before trying again. */
  readonly retryAfterSeconds: number | undefined;

  constructor(readonly failure: Failure) {
    super(describe(failure));
    this.kind = failure.kind;
    this.fields = failure.kind === "validation" ? failure.fields : undefined;
    this.retryAfterSeconds = failure.kind === "rate_limited" ? failure.retryAfterSeconds : undefined;
  }

  /** True for a DomainError, even one created by another copy of this module. */
  static is(value: unknown): value is DomainError {
    return typeof value === "object" && value !== null && (value as { [brand]?: boolean })[brand] === true;
  }
}

/** The facts of the named failures of kind `K`, without the kind. */
type FactsOf<K extends ErrorKind> = NamedFailure extends infer F
  ? F extends { kind: infer FK }
    ? K extends FK
      ? Omit<F, "kind">
      : never
    : never
  : never;

/** `404`: the named thing does not exist or the caller may not see it. */
export const notFound = (subject?: NotFoundSubject): DomainError =>
  new DomainError(subject ? { kind: "not_found", subject } : { kind: "not_found" });

/** `403`: the caller may see the resource but may not do this (for a named reason, if given). */
export const forbidden = (facts?: FactsOf<"forbidden">): DomainError =>
  new DomainError(facts ? ({ kind: "forbidden", ...facts } as NamedFailure) : { kind: "forbidden" });

/** `401`: no valid credentials. */
export const unauthenticated = (): DomainError => new DomainError({ kind: "unauthenticated" });

/** `400 (Bad request) "attr" not given`. */
export const missingParam = (attribute: string): DomainError =>
  new DomainError({ kind: "missing_param", attribute });

/** `400` with the field → messages object. */
export const invalid = (fields: FieldErrors): DomainError => new DomainError({ kind: "validation", fields });

/** `400` for a named reason. */
export const badRequest = (facts: FactsOf<"bad_request">): DomainError =>
  new DomainError({ kind: "bad_request", ...facts } as NamedFailure);

/** `409` for a named reason. */
export const conflict = (facts: FactsOf<"conflict">): DomainError =>
  new DomainError({ kind: "conflict", ...facts } as NamedFailure);

/** `304`: nothing changed. */
export const notModified = (): DomainError => new DomainError({ kind: "not_modified" });
