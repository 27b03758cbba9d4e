/**
 * Parameters as Rack and Grape see them: `key[]=a&key[]=b` is an array, `a[b]=c` a nested object,
 * a repeated plain key keeps its last value.
 */

/** A decoded parameter value: a string, or arrays and objects of them (JSON bodies add other types). */
export type ParamValue = unknown;

/** All parameters of a request by name. */
export type Params = Record<string, ParamValue>;

/** Builds params from decoded `name=value` pairs in order. */
export function paramsFromPairs(pairs: Iterable<[string, string]>): Params {
  const params: Params = Object.create(null);
  for (const [name, value] of pairs) assign(params, name, value);
  return params;
}

function assign(params: Params, name: string, value: string): void {
  const bracket = name.indexOf("[");
  if (bracket <= 0 || !name.endsWith("]")) {
    params[name] = value;
    return;
  }
  const key = name.slice(0, bracket);
  const inner = name.slice(bracket + 1, -1);
  if (inner === "") {
    const current = params[key];
    params[key] = Array.isArray(current) ? [...current, value] : [value];
    return;
  }
  const current = params[key];
  const nested: Params =
    typeof current === "object" && current !== null && !Array.isArray(current)
      ? (current as Params)
      : Object.create(null);
  // `a[b][c]` has inner `b][c`: assign `b[c]` inside `a`, one level down by the same rule.
  const close = inner.indexOf("]");
  const rest = close < 0 ? inner : `${inner.slice(0, close)}${inner.slice(close + 1)}]`;
  assign(nested, rest, value);
  params[key] = nested;
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
