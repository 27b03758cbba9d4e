import { nestedTooDeeply, PARAM_LIMITS, tooManyParameters } from "./limits.js";

/**
 * Parameters as Rack and Grape see them: `key[]=a&key[]=b` is an array, `a[b]=c` a nested object,
 * a repeated plain key keeps its last value.
 */

/** A decoded parameter value: a string, or arrays and objects of them (JSON bodies add other types). */
export type ParamValue = unknown;

/** All parameters of a request by name. */
export type Params = Record<string, ParamValue>;

/**
 * Builds params from decoded `name=value` pairs in order, in time linear in their size. Pairs with
 * an empty name are skipped, as Rack skips them. More than {@link PARAM_LIMITS.values} pairs, or a
 * name deeper than {@link PARAM_LIMITS.depth} levels, is a 400.
 */
export function paramsFromPairs(pairs: Iterable<[string, string]>): Params {
  const params: Params = Object.create(null);
  let count = 0;
  for (const [name, value] of pairs) {
    count += 1;
    if (count > PARAM_LIMITS.values) throw tooManyParameters();
    if (name !== "") assign(params, keysOf(name), value);
  }
  return params;
}

/**
 * The keys a name stands for: `a[b][c]` is `a`, `b`, `c`, and `a[b][]` ends with `""`, an array
 * element. A name that starts with `[` or does not end with `]` is one plain key.
 */
function keysOf(name: string): string[] {
  const bracket = name.indexOf("[");
  if (bracket <= 0 || !name.endsWith("]")) return [name];
  const keys = [name.slice(0, bracket)];
  const end = name.length - 1;
  // Inside the outer brackets, `][` separates the keys.
  for (let start = bracket + 1; ; ) {
    if (keys.length === PARAM_LIMITS.depth) throw nestedTooDeeply();
    const close = name.indexOf("][", start);
    if (close < 0) {
      keys.push(name.slice(start, end));
      return keys;
    }
    keys.push(name.slice(start, close));
    start = close + 2;
  }
}

function assign(params: Params, keys: string[], value: string): void {
  let target = params;
  const last = keys.length - 1;
  for (let index = 0; index < last; index++) {
    const key = keys[index] as string;
    const current = target[key];
    if (index === last - 1 && keys[last] === "") {
      // The arrays here are built by this function: growing one in place keeps `key[]` linear.
      if (Array.isArray(current)) current.push(value);
      else target[key] = [value];
      return;
    }
    if (typeof current === "object" && current !== null && !Array.isArray(current)) {
      target = current as Params;
    } else {
      const nested: Params = Object.create(null);
      target[key] = nested;
      target = nested;
    }
  }
  target[keys[last] as string] = value;
}

/** Decodes an `application/x-www-form-urlencoded` string (also a query string) into pairs. */
export function formPairs(text: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of new URLSearchParams(text)) pairs.push([name, value]);
  return pairs;
}

/** Later sources win: query, then body, then path parameters. */
export function mergeParams(...sources: Params[]): Params {
  return Object.assign(Object.create(null), ...sources);
}
