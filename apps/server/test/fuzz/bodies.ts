import type { Rng } from "./prng.js";
import { Bytes, Literal, Obj, type Value } from "./values.js";

/** A named parameter; a name may come twice. */
export type Pair = [string, Value];

type Scalar = string | Bytes | Literal | null;

/** Rack's flattening: `name[]=…` for arrays, `name[key]=…` for objects (what forms and queries carry). */
export function flatten(pairs: readonly Pair[]): [string, Scalar][] {
  const out: [string, Scalar][] = [];
  const walk = (name: string, value: Value) => {
    if (Array.isArray(value)) for (const item of value) walk(`${name}[]`, item);
    else if (value instanceof Obj) for (const [key, item] of value.entries) walk(`${name}[${key}]`, item);
    else if (typeof value === "number" || typeof value === "boolean") out.push([name, String(value)]);
    else out.push([name, value]);
  };
  for (const [name, value] of pairs) walk(name, value);
  return out;
}

/** Every byte that is not unreserved as `%XX` (so invalid UTF-8 reaches the server as written). */
function percent(bytes: Buffer): string {
  let out = "";
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function encodeScalar(value: Scalar): string {
  if (value instanceof Literal) return value.text;
  if (value instanceof Bytes) return percent(value.bytes);
  return percent(Buffer.from(value ?? "", "utf8"));
}

/** `a=1&b[]=2` with brackets left readable, as Rack clients write them; a null value is a bare name. */
export function urlencode(pairs: readonly Pair[]): string {
  return flatten(pairs)
    .map(([name, value]) => {
      const key = encodeScalar(name).replace(/%5B/g, "[").replace(/%5D/g, "]");
      return value === null ? key : `${key}=${encodeScalar(value)}`;
    })
    .join("&");
}

/** JSON text of a value; raw bytes go inside a string unescaped (so the text may not be UTF-8). */
export function jsonBytes(value: Value): Buffer {
  const parts: Buffer[] = [];
  const write = (text: string) => parts.push(Buffer.from(text, "utf8"));
  const walk = (item: Value) => {
    if (item instanceof Bytes) {
      write('"');
      parts.push(Buffer.from(item.bytes.toString("latin1").replace(/["\\]/g, "\\$&"), "latin1"));
      write('"');
    } else if (item instanceof Literal) write(JSON.stringify(item.text));
    else if (item instanceof Obj) {
      write("{");
      item.entries.forEach(([key, entry], i) => {
        write(`${i > 0 ? "," : ""}${JSON.stringify(key)}:`);
        walk(entry);
      });
      write("}");
    } else if (Array.isArray(item)) {
      write("[");
      item.forEach((entry, i) => {
        if (i > 0) write(",");
        walk(entry);
      });
      write("]");
    } else write(JSON.stringify(item));
  };
  walk(value);
  return Buffer.concat(parts);
}

/** Ways to spoil a JSON body. */
const JSON_DEFECTS = {
  truncated: (body: Buffer, rng: Rng) => body.subarray(0, rng.int(0, Math.max(0, body.length - 1))),
  "trailing-comma": (body: Buffer) => Buffer.concat([body.subarray(0, -1), Buffer.from(",}")]),
  bom: (body: Buffer) => Buffer.concat([Buffer.from("\ufeff"), body]),
  "single-quotes": (body: Buffer) => Buffer.from(body.toString("latin1").replace(/"/g, "'"), "latin1"),
  comment: (body: Buffer) => Buffer.concat([Buffer.from("/* c */"), body]),
  "top-level-array": (body: Buffer) => Buffer.concat([Buffer.from("["), body, Buffer.from("]")]),
  "top-level-scalar": (_body: Buffer, rng: Rng) => Buffer.from(rng.pick(['"x"', "1", "null", "true", "NaN"])),
  empty: () => Buffer.alloc(0),
  "unclosed-nesting": (_body: Buffer, rng: Rng) => Buffer.from("[".repeat(rng.pick([100, 100_000]))),
  "deep-valid-nesting": (_body: Buffer, rng: Rng) => {
    const depth = rng.pick([1_000, 5_000]);
    return Buffer.from(`{"a":${"[".repeat(depth)}${"]".repeat(depth)}}`);
  },
} satisfies Record<string, (body: Buffer, rng: Rng) => Buffer>;

/** A JSON object of the pairs (a repeated name is a duplicate key), now and then spoilt when `spoil`. */
export function jsonBody(rng: Rng, pairs: readonly Pair[], traits: string[], spoil: boolean): Buffer {
  const body = jsonBytes(new Obj([...pairs]));
  if (!spoil || !rng.chance(0.12)) return body;
  const defect = rng.pick(Object.keys(JSON_DEFECTS) as (keyof typeof JSON_DEFECTS)[]);
  traits.push(`json:${defect}`);
  return JSON_DEFECTS[defect](body, rng);
}

/** One part of a multipart body: its header lines and its bytes. */
interface Part {
  headers: string[];
  data: Buffer;
}

const fieldPart = (name: string, data: Buffer, filename?: string): Part => ({
  headers: [
    `Content-Disposition: form-data; name="${name}"${filename === undefined ? "" : `; filename="${filename}"`}`,
    ...(filename === undefined ? [] : ["Content-Type: application/octet-stream"]),
  ],
  data,
});

const scalarBytes = (value: Scalar): Buffer =>
  value instanceof Bytes
    ? value.bytes
    : Buffer.from(value instanceof Literal ? value.text : (value ?? ""), "utf8");

/** Ways to spoil a multipart body (the known crash, `unnamed-part`, among them). */
const MULTIPART_DEFECTS = [
  "unnamed-part",
  "empty-name",
  "file-as-field",
  "no-headers",
  "wrong-boundary",
  "no-boundary",
  "truncated",
  "lf-only",
  "many-parts",
  "huge-field",
  "odd-name",
  "base64-part",
  "no-final-boundary",
  "preamble",
  "two-files",
  "odd-filename",
] as const;

/**
 * A `multipart/form-data` body of the pairs (and a file part under `fileField` when the route takes
 * one), now and then spoilt when `spoil`. Answers the body and its Content-Type.
 */
export function multipartBody(
  rng: Rng,
  pairs: readonly Pair[],
  fileField: string | null,
  traits: string[],
  spoil: boolean,
): { body: Buffer; contentType: string } {
  const boundary = `----kilnfuzz${rng.text(16)}`;
  const fields = flatten(pairs);
  // An empty parameter name makes a part with `name=""`: the same defect as the one chosen below.
  if (fields.some(([name]) => name === "")) traits.push("multipart:empty-name");
  const parts: Part[] = fields.map(([name, value]) => fieldPart(name, scalarBytes(value)));
  if (fileField && rng.chance(0.7)) parts.push(fieldPart(fileField, rng.bytes(rng.int(0, 2048)), "fuzz.png"));
  let contentType = `multipart/form-data; boundary=${boundary}`;
  let newline = "\r\n";
  let closing = `--${boundary}--\r\n`;
  let preamble = "";
  const defect = spoil && rng.chance(0.3) ? rng.pick(MULTIPART_DEFECTS) : null;
  if (defect) traits.push(`multipart:${defect}`);
  switch (defect) {
    case "unnamed-part":
      parts.push({ headers: ["Content-Disposition: form-data"], data: Buffer.from("x") });
      break;
    case "empty-name":
      parts.push(fieldPart("", Buffer.from("x")));
      break;
    case "file-as-field":
      parts.push(fieldPart(pairs[0]?.[0] ?? "title", Buffer.from("x"), "field.txt"));
      break;
    case "no-headers":
      parts.push({ headers: [], data: Buffer.from("x") });
      break;
    case "wrong-boundary":
      contentType = `multipart/form-data; boundary=${boundary}x`;
      break;
    case "no-boundary":
      contentType = "multipart/form-data";
      break;
    case "lf-only":
      newline = "\n";
      closing = `--${boundary}--\n`;
      break;
    case "many-parts":
      for (let i = 0; i < 1_500; i++) parts.push(fieldPart(`f${i}`, Buffer.from("x")));
      break;
    case "huge-field":
      parts.push(fieldPart("description", Buffer.alloc(1_500_000, "a")));
      break;
    case "odd-name":
      parts.push(
        fieldPart(rng.pick(['a\\"b', "ü", "a[", "a]b[", "name*=utf-8''x", "a;b"]), Buffer.from("x")),
      );
      break;
    case "base64-part":
      parts.push({
        headers: [...fieldPart("title", Buffer.from("eA==")).headers, "Content-Transfer-Encoding: base64"],
        data: Buffer.from("eA=="),
      });
      break;
    case "no-final-boundary":
      closing = "";
      break;
    case "preamble":
      preamble = `garbage before${newline}`;
      break;
    case "two-files":
      parts.push(
        fieldPart(fileField ?? "file", Buffer.from("one"), "a.txt"),
        fieldPart(fileField ?? "file", Buffer.from("two"), "b.txt"),
      );
      break;
    case "odd-filename":
      parts.push(
        fieldPart(
          fileField ?? "file",
          Buffer.from("x"),
          rng.pick(["", "../../x.png", "a\0b.png", "ü.png", "a".repeat(5000), ".", "a/b.png"]),
        ),
      );
      break;
  }
  const chunks: Buffer[] = [Buffer.from(preamble)];
  for (const part of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}${newline}${part.headers.map((line) => `${line}${newline}`).join("")}${newline}`,
      ),
    );
    chunks.push(part.data, Buffer.from(newline));
  }
  chunks.push(Buffer.from(closing));
  let body = Buffer.concat(chunks);
  if (defect === "truncated") body = body.subarray(0, rng.int(0, Math.max(0, body.length - 1)));
  return { body, contentType };
}
