import type { Kind, Pool } from "./fixture.js";
import type { Rng } from "./prng.js";
import type { ParamShape } from "./route-shapes.js";

/** Raw bytes (invalid UTF-8 allowed): percent-encoded byte by byte in forms, written as is elsewhere. */
export class Bytes {
  constructor(readonly bytes: Buffer) {}
}

/** Text written as is in a query string or form (`%zz`, `%C3%28`), as a plain string in JSON. */
export class Literal {
  constructor(readonly text: string) {}
}

/** An object as ordered entries, so that keys may repeat or be `__proto__`. */
export class Obj {
  constructor(readonly entries: [string, Value][]) {}
}

/** A parameter value before it is written in some encoding. */
export type Value = string | number | boolean | null | Bytes | Literal | Obj | Value[];

/** Strings that are wrong for most parameters: numbers out of range, odd booleans, paths, unicode. */
const ODD_STRINGS = [
  "",
  " ",
  "0",
  "-1",
  "1.5",
  "1e3",
  "1e309",
  "-0",
  "0x10",
  "NaN",
  "Infinity",
  "2147483648",
  "-2147483649",
  "9007199254740993",
  "99999999999999999999999999",
  "TRUE",
  "tRuE",
  "yes",
  "nil",
  "2",
  "null",
  "undefined",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "a\u0000b",
  "\u0000",
  "ß",
  "日本語",
  "😀",
  "e\u0301",
  "\u202eevil",
  "\ufeff",
  "\ud800",
  "..",
  "../../etc/passwd",
  "a/b",
  "refs/heads/master",
  "HEAD~1",
  "master..feature",
  "-rf",
  "--upload-pack=touch /tmp/x",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "%",
  "\r\nX-Injected: 1",
  "#ff0000",
  "2026-13-45",
  "2026-01-01T00:00:00Z",
  "http://127.0.0.1:9/",
  "file:///etc/passwd",
];

/** Percent sequences that do not decode (or decode to invalid UTF-8), for forms and query strings. */
const ODD_ESCAPES = [
  "%",
  "%zz",
  "%%",
  "%C3%28",
  "%C0%AF",
  "%ED%A0%80",
  "%FF%FE",
  "%00",
  "%E2%82",
  "+%2B+",
  "%u0041",
];

/** Numbers that fit no column: JSON only (forms carry them as the strings above). */
const ODD_NUMBERS = [-1, 0, 1.5, -0.5, 1e308, -1e308, 2 ** 31, 2 ** 53 + 2, 2 ** 64, 5e-324];

/** The largest value of a 32-bit integer column (PostgreSQL's `integer`). */
const INT4_MAX = 2 ** 31 - 1;

/**
 * `value` as is, with a trait when it holds something a database may refuse: a NUL character, raw
 * or percent-encoded (`<where>:nul`), or a number outside a 32-bit integer column's range
 * (`<where>:big-number`).
 */
export function tagged<T extends string | number>(value: T, where: string, traits: string[]): T {
  const text = String(value);
  if (text.includes("\0") || /%00/.test(text)) traits.push(`${where}:nul`);
  if (/^-?\d+(\.\d+)?(e\+?\d+)?$/i.test(text.trim()) && Math.abs(Number(text)) > INT4_MAX) {
    traits.push(`${where}:big-number`);
  }
  return value;
}

/** A value that is wrong for most parameters, with the trait that names what is unusual about it. */
export function oddValue(rng: Rng, traits: string[], depth = 0): Value {
  const choice = rng.weighted({
    string: 30,
    escape: 10,
    number: 10,
    boolean: 5,
    null: 5,
    bytes: 5,
    long: 5,
    array: 10,
    object: 10,
    deep: 3,
    huge: 2,
  });
  switch (choice) {
    case "string":
      return tagged(rng.pick(ODD_STRINGS), "value", traits);
    case "escape":
      traits.push("value:bad-escape");
      return new Literal(tagged(rng.pick(ODD_ESCAPES), "value", traits));
    case "number":
      return tagged(rng.pick(ODD_NUMBERS), "value", traits);
    case "boolean":
      return rng.chance(0.5);
    case "null":
      return null;
    case "bytes": {
      traits.push("value:bytes");
      const bytes = rng.bytes(rng.int(1, 64));
      if (bytes.includes(0)) traits.push("value:nul");
      return new Bytes(bytes);
    }
    case "long":
      traits.push("value:long-string");
      return rng.pick(["a", "é", "😀", "%"]).repeat(rng.pick([300, 10_000, 200_000]));
    case "array":
      if (depth > 3) return "[]";
      return Array.from({ length: rng.int(0, 3) }, () => oddValue(rng, traits, depth + 1));
    case "object":
      if (depth > 3) return "{}";
      return new Obj(
        Array.from({ length: rng.int(0, 3) }, () => [
          rng.pick(["a", "", "0", "__proto__", "constructor", "id", "[", "a]b"]),
          oddValue(rng, traits, depth + 1),
        ]),
      );
    case "deep":
      traits.push("value:deep");
      return nested(rng, rng.pick([20, 200, 1_000]));
    case "huge":
      traits.push("value:huge-array");
      return hugeArray(rng);
  }
}

/** An object (or array) nested `depth` levels deep. */
export function nested(rng: Rng, depth: number): Value {
  const asArray = rng.chance(0.5);
  let value: Value = "leaf";
  for (let i = 0; i < depth; i++) value = asArray ? [value] : new Obj([["a", value]]);
  return value;
}

/** An array of many small items (a bulk filter as a client should never send it). */
export function hugeArray(rng: Rng): Value[] {
  const length = rng.pick([1_000, 20_000, 100_000]);
  const item = rng.pick(["1", "bug", "a"]);
  return Array.from({ length }, (_, i) => (item === "1" ? String(i + 1) : item));
}

/**
 * A real value of a kind: a spare one when the request may change or delete it, the main one when
 * it names the parent of other objects in a careful request, any otherwise.
 */
export function realValue(rng: Rng, pool: Pool, use: "spare" | "parent" | "any"): string | number | null {
  const candidates =
    use === "spare" && pool.expendable.length > 0
      ? pool.expendable
      : use === "parent" && pool.main
        ? pool.kept.slice(0, pool.main)
        : [...pool.kept, ...pool.expendable];
  return candidates.length > 0 ? rng.pick(candidates) : null;
}

/** Values a parameter of that name takes in real use (its type alone would not say: `color`, `email`…). */
const BY_NAME: Record<string, (rng: Rng) => Value> = {
  color: (rng) => rng.pick(["#ff0000", "#00AA00", "red"]),
  email: (rng) => `fuzz-${rng.text(6)}@example.com`,
  url: (rng) => `http://kiln-fuzz.invalid/${rng.text(4)}`,
  password: () => "password123",
  due_date: () => "2026-12-31",
  start_date: () => "2026-01-01",
  created_at: () => "2026-01-01T00:00:00Z",
  updated_at: () => "2026-06-01T00:00:00Z",
  visibility_level: (rng) => rng.pick([0, 10, 20]),
  access_level: (rng) => rng.pick([10, 20, 30, 40, 50]),
  group_access: (rng) => rng.pick([10, 20, 30, 40, 50]),
  labels: (rng) => rng.pick(["bug", "bug,spare-label", "new-label"]),
  state_event: (rng) => rng.pick(["close", "reopen", "activate"]),
  content: (rng) => `fuzz content ${rng.text(8)}\n`,
  commit_message: () => "fuzz commit",
  body: (rng) => `a note ${rng.text(8)}`,
  title: (rng) => `fuzz ${rng.text(8)}`,
  name: (rng) => `fuzz-${rng.text(8)}`,
  path: (rng) => `fuzz-${rng.text(8)}`,
};

/** A plausible value of a parameter: a real object when its name says which kind, else one of its name or type. */
export function plausibleValue(
  rng: Rng,
  param: ParamShape,
  kind: Kind | null,
  pools: Record<Kind, Pool>,
): Value {
  const real = kind ? realValue(rng, pools[kind], "any") : null;
  if (real !== null && rng.chance(0.8)) return param.type === "array" ? [real] : real;
  const named = BY_NAME[param.name];
  if (named && rng.chance(0.8)) return named(rng);
  switch (param.type) {
    case "number":
      return rng.chance(0.5) ? rng.int(1, 5) : String(rng.int(1, 100));
    case "boolean":
      return rng.pick([true, false, "true", "false", "1", "0"]);
    case "enum":
      return param.choices.length > 0 ? rng.pick(param.choices) : "x";
    case "array":
      return param.choices.length > 0 ? [rng.pick(param.choices)] : [String(rng.int(1, 5))];
    default:
      return `fuzz-${rng.text(rng.int(1, 12))}`;
  }
}
