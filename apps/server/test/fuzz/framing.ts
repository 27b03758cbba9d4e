import type { Rng } from "./prng.js";
import type { FuzzRequest } from "./wire.js";

/** Content types that do not match the body, or that no parser expects. */
const WRONG_TYPES = [
  "application/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "multipart/form-data; boundary=x; boundary=y",
  "text/plain",
  "application/octet-stream",
  "APPLICATION/JSON",
  "application/json; charset=utf-16",
  "application/vnd.kiln+json",
  "application/x-www-form-urlencoded; charset=iso-8859-1",
  "application/x-git-upload-pack-request",
  "",
  ";",
  "*/*",
  "application/json, text/plain",
];

/** The body's framing: how its length is declared (or misdeclared) and how it is sent. */
export interface Framed {
  headers: [string, string][];
  body: Buffer;
  /** The declared length is more than what is sent. */
  incomplete: boolean;
}

function chunked(body: Buffer, rng: Rng): Buffer {
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; ) {
    const size = Math.min(body.length - at, rng.int(1, 4096));
    chunks.push(Buffer.from(`${size.toString(16)}\r\n`), body.subarray(at, at + size), Buffer.from("\r\n"));
    at += size;
  }
  chunks.push(Buffer.from("0\r\n\r\n"));
  return Buffer.concat(chunks);
}

/**
 * The Content-Type (now and then replaced by a wrong one) and the length of a body: mostly a right
 * `Content-Length`, now and then (when `spoil`) a short, long, invalid or doubled one, chunked
 * encoding (valid or not), or a `Content-Encoding` the body does not have.
 */
export function frameBody(
  rng: Rng,
  body: Buffer,
  contentType: string | null,
  traits: string[],
  spoil: boolean,
): Framed {
  const headers: [string, string][] = [];
  let type = contentType;
  if (spoil && rng.chance(0.08)) {
    type = rng.pick(WRONG_TYPES);
    traits.push("content-type:wrong");
  }
  if (type !== null) headers.push(["Content-Type", type]);
  const length = String(body.length);
  if (!spoil || !rng.chance(0.1)) {
    if (body.length > 0 || rng.chance(0.5)) headers.push(["Content-Length", length]);
    return { headers, body, incomplete: false };
  }
  const framing = rng.pick([
    "short-length",
    "long-length",
    "invalid-length",
    "two-lengths",
    "chunked",
    "bad-chunk",
    "chunked-and-length",
    "fake-gzip",
    "no-length",
  ] as const);
  traits.push(`framing:${framing}`);
  switch (framing) {
    case "short-length":
      headers.push(["Content-Length", String(rng.int(0, Math.max(0, body.length - 1)))]);
      return { headers, body, incomplete: false };
    case "long-length":
      headers.push(["Content-Length", String(body.length + rng.int(1, 100_000))]);
      return { headers, body, incomplete: true };
    case "invalid-length":
      headers.push([
        "Content-Length",
        rng.pick(["abc", "-1", "1e3", "0x10", " ", "99999999999999999999", `${length}.0`]),
      ]);
      return { headers, body, incomplete: false };
    case "two-lengths":
      headers.push(["Content-Length", length], ["Content-Length", String(body.length + 1)]);
      return { headers, body, incomplete: false };
    case "chunked":
      headers.push(["Transfer-Encoding", "chunked"]);
      return { headers, body: chunked(body, rng), incomplete: false };
    case "bad-chunk":
      headers.push(["Transfer-Encoding", "chunked"]);
      return { headers, body: Buffer.concat([Buffer.from("zz\r\n"), body]), incomplete: false };
    case "chunked-and-length":
      headers.push(["Transfer-Encoding", "chunked"], ["Content-Length", length]);
      return { headers, body: chunked(body, rng), incomplete: false };
    case "fake-gzip":
      headers.push(["Content-Encoding", rng.pick(["gzip", "deflate", "br", "gzip, gzip", "identity"])]);
      headers.push(["Content-Length", length]);
      return { headers, body, incomplete: false };
    case "no-length":
      return { headers, body, incomplete: false };
  }
}

/**
 * Now and then, something odd about the request as a whole: HTTP/1.0, no Host, `Expect:
 * 100-continue`, a folded or huge header, many headers, a lower-case method.
 */
export function oddMessage(rng: Rng, request: FuzzRequest): FuzzRequest {
  if (request.traits.includes("style:careful") || !rng.chance(0.04)) return request;
  const oddity = rng.pick([
    "http-1.0",
    "no-host",
    "expect-continue",
    "folded-header",
    "huge-header",
    "many-headers",
    "lower-case-method",
    "absolute-target",
    "latin1-header",
  ] as const);
  const traits = [...request.traits, `message:${oddity}`];
  const headers = [...request.headers];
  switch (oddity) {
    case "http-1.0":
      return { ...request, traits, version: "1.0" };
    case "no-host":
      return { ...request, traits, host: null };
    case "expect-continue":
      return { ...request, traits, headers: [...headers, ["Expect", "100-continue"]] };
    case "folded-header":
      return { ...request, traits, headers: [...headers, ["X-Folded", "a\r\n b"]] };
    case "huge-header":
      return { ...request, traits, headers: [...headers, ["X-Huge", "a".repeat(rng.pick([8_000, 20_000]))]] };
    case "many-headers":
      return {
        ...request,
        traits,
        headers: [
          ...headers,
          ...Array.from({ length: 300 }, (_, i): [string, string] => [`X-Many-${i}`, "1"]),
        ],
      };
    case "lower-case-method":
      return { ...request, traits, method: request.method.toLowerCase() };
    case "absolute-target":
      return { ...request, traits, target: `http://127.0.0.1${request.target}` };
    case "latin1-header":
      return { ...request, traits, headers: [...headers, ["X-Latin1", "\u00e9\u00ff"]] };
  }
}
