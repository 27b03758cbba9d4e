import { type FieldErrors, invalid, missingParam } from "@kiln/domain";
import type { z } from "zod";
import { PARAM_LIMITS, tooManyValues } from "./limits.js";
import type { Params } from "./params.js";

/** A zod schema's definition, as far as decoding needs to look into it. */
interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}

const defOf = (schema: z.ZodType): SchemaDef => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;

/** The schema under optional, nullable, default and pipe wrappers. */
function baseOf(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (
      def.innerType &&
      ["optional", "nullable", "default", "prefault", "readonly", "catch"].includes(def.type)
    ) {
      current = def.innerType;
    } else if (def.type === "pipe" && def.in) {
      current = def.in;
    } else {
      return current;
    }
  }
}

const TRUE = new Set(["true", "1", "t", "yes", "y", "on"]);
const FALSE = new Set(["false", "0", "f", "no", "n", "off"]);

/**
 * Converts a parameter to what its schema expects: query strings and forms carry only strings, so
 * `"12"` becomes 12, `"true"`/`"1"` become true, a lone value becomes a one-element array. Values
 * that cannot convert are left alone for the schema to refuse.
 */
export function coerce(value: unknown, schema: z.ZodType): unknown {
  const base = baseOf(schema);
  const def = defOf(base);
  switch (def.type) {
    case "number":
    case "int":
      if (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
      if (value === "") return undefined;
      return value;
    case "boolean":
      if (typeof value === "string") {
        const lower = value.trim().toLowerCase();
        if (TRUE.has(lower)) return true;
        if (FALSE.has(lower)) return false;
      }
      if (value === 1 || value === 0) return value === 1;
      return value;
    case "string":
      return typeof value === "number" ? String(value) : value;
    case "array": {
      const items = Array.isArray(value) ? value : [value];
      return def.element ? items.map((item) => coerce(item, def.element as z.ZodType)) : items;
    }
    case "object":
      return typeof value === "object" && value !== null && def.shape
        ? coerceObject(value as Params, def.shape)
        : value;
    default:
      return value;
  }
}

function coerceObject(params: Params, shape: Record<string, z.ZodType>): Params {
  const out: Params = {};
  for (const [key, schema] of Object.entries(shape)) {
    const value = params[key];
    if (value !== undefined) out[key] = coerce(value, schema);
  }
  return out;
}

// Zod's own wording ("Invalid input: expected number, received string") is replaced by GitLab's.
const GENERIC_MESSAGE = /^(Invalid|Too (small|big)|Expected|Unrecognized)/;

function fieldErrors(issues: z.core.$ZodIssue[]): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? "base");
    const message = GENERIC_MESSAGE.test(issue.message)
      ? issue.code === "invalid_value"
        ? "does not have a valid value"
        : "is invalid"
      : issue.message;
    const messages = fields[field] ?? [];
    if (!messages.includes(message)) messages.push(message);
    fields[field] = messages;
  }
  return fields;
}

/** What a parameter holding a NUL character is refused with. */
const NUL_MESSAGE = "can't contain a null character";

/** True when `value` is, or holds at any depth, a string with a NUL character (U+0000). */
function holdsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\0");
  if (Array.isArray(value)) return value.some(holdsNul);
  // Plain objects only: an uploaded file's name is the client's, and is sanitised where used.
  const plain =
    typeof value === "object" &&
    value !== null &&
    [Object.prototype, null].includes(Object.getPrototypeOf(value));
  return plain && Object.values(value).some(holdsNul);
}

/**
 * Throws the validation 400 of the parameters that hold a NUL character. No v3 text attribute can
 * mean one, PostgreSQL refuses to store or even compare one (SQLite would keep it), and git
 * arguments cannot carry one: they are refused here, for every route, before anything uses them.
 */
function refuseNul(input: Params): void {
  const fields: FieldErrors = {};
  for (const [name, value] of Object.entries(input)) if (holdsNul(value)) fields[name] = [NUL_MESSAGE];
  if (Object.keys(fields).length > 0) throw invalid(fields);
}

/** Throws the 400 of the first array parameter longer than {@link PARAM_LIMITS.arrayLength}. */
function refuseLongArrays(input: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(input)) {
    if (Array.isArray(value) && value.length > PARAM_LIMITS.arrayLength) throw tooManyValues(name);
  }
}

/**
 * Decodes a request's parameters with the route's schema: converts strings to the expected types,
 * drops unknown keys, and raises `400 (Bad request) "x" not given` for the first missing required
 * attribute, or the field → messages object for invalid ones (first those holding a NUL
 * character). An array parameter longer than {@link PARAM_LIMITS.arrayLength} once decoded
 * (`labels=a,b,c` is three) is a 400 too: list filters turn each element into SQL.
 */
export function decodeParams<S extends z.ZodObject>(schema: S, params: Params): z.output<S> {
  const shape = schema.shape as Record<string, z.ZodType>;
  const coerced = coerceObject(params, shape);
  refuseNul(coerced);
  const result = schema.safeParse(coerced);
  if (result.success) {
    refuseLongArrays(result.data);
    return result.data;
  }
  for (const key of Object.keys(shape)) {
    const missing = coerced[key] === undefined;
    if (missing && result.error.issues.some((issue) => issue.path[0] === key)) throw missingParam(key);
  }
  throw invalid(fieldErrors(result.error.issues));
}
