import { badRequest, type DomainError } from "@kiln/domain";

/**
 * Bounds on a request's parameters, so that parsing takes work and memory linear in the request
 * and nothing past them reaches a handler. Rack bounds the same things (GitLab 8.x's rack 1.6:
 * `param_depth_limit` 100 and `key_space_limit` 64 KiB; rack 3.1: `params_limit` 4096), and GitLab
 * answered requests past them with 400, as we do. Ours are far above what any client sends.
 */
export const PARAM_LIMITS = {
  /**
   * Values in one source: the query string, or the body (urlencoded pairs, multipart fields,
   * JSON leaves: strings, numbers, booleans, nulls and empty arrays or objects).
   */
  values: 1000,
  /** Levels of a name (`a[b][]` has three) or of a JSON value in the body object. */
  depth: 32,
  /**
   * Elements of one decoded array parameter (`iid[]`, `labels=a,b,c`, a JSON array). Filters turn
   * each element into an SQL variable or condition; SQLite allows a statement 32,766 variables and
   * an expression 1,000 levels, so a list filter must stay well under both.
   */
  arrayLength: 500,
} as const;

/** `400`: a source carries more than {@link PARAM_LIMITS.values} values. */
export const tooManyParameters = (): DomainError => badRequest({ reason: "too_many_parameters" });

/** `400`: a name or a JSON value nests deeper than {@link PARAM_LIMITS.depth} levels. */
export const nestedTooDeeply = (): DomainError => badRequest({ reason: "parameters_too_deep" });

/** `400`: an array parameter has more than {@link PARAM_LIMITS.arrayLength} elements. */
export const tooManyValues = (name: string): DomainError =>
  badRequest({ reason: "too_many_values", attribute: name });
