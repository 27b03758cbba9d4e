import { BodyError } from "./body-error.js";
import { nestedTooDeeply, PARAM_LIMITS, tooManyParameters } from "./limits.js";
import type { Params } from "./params.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/**
 * The parameters of a JSON body: an object, nested at most {@link PARAM_LIMITS.depth} levels and
 * holding at most {@link PARAM_LIMITS.values} leaves. The depth is checked on the bytes before
 * `JSON.parse` builds anything, so a deep body costs one linear scan.
 */
export function jsonParams(body: Buffer): Params {
  checkDepth(body);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    throw new BodyError("malformed", "400 (Bad request) body is not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new BodyError("malformed", "400 (Bad request) JSON body must be an object");
  }
  checkLeaves(parsed);
  return Object.assign(Object.create(null), parsed) as Params;
}

/** Counts brackets outside strings; the scan does not validate, `JSON.parse` does that next. */
function checkDepth(body: Buffer): void {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < body.length; index++) {
    const byte = body[index] as number;
    if (inString) {
      if (byte === BACKSLASH) index++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (OPENERS.has(byte)) {
      depth++;
      if (depth > PARAM_LIMITS.depth) throw nestedTooDeeply();
    } else if (CLOSERS.has(byte)) {
      depth--;
    }
  }
}

/** Leaves are values other than non-empty arrays and objects: what a form would send as pairs. */
function checkLeaves(root: object): void {
  let leaves = 0;
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    const children = typeof value === "object" && value !== null ? Object.values(value) : [];
    if (children.length === 0 && value !== root) {
      leaves++;
      if (leaves > PARAM_LIMITS.values) throw tooManyParameters();
    }
    for (const child of children) pending.push(child);
  }
}
