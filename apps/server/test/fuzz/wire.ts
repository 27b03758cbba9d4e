import { connect } from "node:net";

/**
 * One request as the fuzzer sends it: bytes on a fresh TCP connection, written as generated (no
 * HTTP client in between to fix the path, the headers or the lengths).
 */
export interface FuzzRequest {
  /** The campaign seed and the request's index: together they generate this request again. */
  seed: number;
  index: number;
  /** What it exercises, for grouping: `GET /projects/:id/issues`, `git POST git-upload-pack`… */
  family: string;
  /** The generator's choices that shaped it (`body:multipart`, `multipart:unnamed-part`…). */
  traits: string[];
  method: string;
  /** The request target exactly as written on the request line. */
  target: string;
  /** Header lines in order; `Host` and `Connection: close` are added unless given (see {@link host}). */
  headers: [string, string][];
  body: Buffer;
  /** `HTTP/1.1` unless set. */
  version?: string;
  /** The `Host` header: the server's address by default, null for none. */
  host?: string | null;
  /** The body is shorter than its declared length: the client half-closes after sending it. */
  incomplete?: boolean;
  /** Sent twice at the same moment, on two connections (two identical requests racing). */
  twin?: boolean;
}

/** What came back. */
export type Outcome =
  | {
      kind: "answered";
      status: number;
      /** Lower-cased names; repeated headers joined with `, `. */
      headers: Record<string, string>;
      body: Buffer;
    }
  /** The connection closed (or was reset) before a byte of an answer. */
  | { kind: "no-answer"; error: string | null }
  /** An answer that is not HTTP, or stops before its declared end. */
  | { kind: "malformed"; detail: string }
  | { kind: "timeout" }
  /** Nothing listens any more: the server is gone. */
  | { kind: "refused" };

/** How long one exchange may take (a git request on a busy machine takes a few seconds at most). */
export const EXCHANGE_TIMEOUT_MS = 30_000;

/** The request's bytes on the wire, for `port` on loopback. */
export function requestBytes(request: FuzzRequest, port: number): Buffer {
  const lines = [`${request.method} ${request.target} HTTP/${request.version ?? "1.1"}`];
  const has = (name: string) => request.headers.some(([key]) => key.toLowerCase() === name);
  const host = request.host === undefined ? `127.0.0.1:${port}` : request.host;
  if (host !== null && !has("host")) lines.push(`Host: ${host}`);
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  if (!has("connection")) lines.push("Connection: close");
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), request.body]);
}

/** Sends a request on a fresh connection and reads one answer (interim 1xx answers skipped). */
export function exchange(
  request: FuzzRequest,
  port: number,
  timeoutMs = EXCHANGE_TIMEOUT_MS,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    let received = Buffer.alloc(0);
    let error: string | null = null;
    let settled = false;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: "timeout" }), timeoutMs);
    socket.on("connect", () => {
      socket.write(requestBytes(request, port));
      if (request.incomplete) socket.end();
    });
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const parsed = parseAnswer(received, request.method, false);
      if (parsed) finish(parsed);
    });
    socket.on("error", (failure: NodeJS.ErrnoException) => {
      if (failure.code === "ECONNREFUSED") finish({ kind: "refused" });
      else error = failure.code ?? failure.message;
    });
    socket.on("close", () => {
      if (received.length === 0) finish({ kind: "no-answer", error });
      else finish(parseAnswer(received, request.method, true) ?? { kind: "malformed", detail: "cut off" });
    });
  });
}

/** Sends a request (twice at once when it is a twin) and answers each outcome. */
export function send(request: FuzzRequest, port: number): Promise<Outcome[]> {
  return Promise.all(Array.from({ length: request.twin ? 2 : 1 }, () => exchange(request, port)));
}

/**
 * Reads one final answer from the bytes received so far: the answer once complete, a `malformed`
 * outcome when the bytes cannot be one, or null when more bytes are needed (and `ended` is false).
 */
export function parseAnswer(bytes: Buffer, method: string, ended: boolean): Outcome | null {
  let start = 0;
  for (;;) {
    const headEnd = bytes.indexOf("\r\n\r\n", start);
    if (headEnd < 0) return ended ? { kind: "malformed", detail: "no complete head" } : null;
    const [statusLine = "", ...lines] = bytes.subarray(start, headEnd).toString("latin1").split("\r\n");
    const status = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(statusLine);
    if (!status)
      return { kind: "malformed", detail: `status line ${JSON.stringify(statusLine.slice(0, 80))}` };
    const code = Number(status[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      if (colon <= 0)
        return { kind: "malformed", detail: `header line ${JSON.stringify(line.slice(0, 80))}` };
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    const bodyStart = headEnd + 4;
    if (code >= 100 && code < 200) {
      start = bodyStart;
      continue;
    }
    const rest = bytes.subarray(bodyStart);
    if (method === "HEAD" || code === 204 || code === 304) {
      return { kind: "answered", status: code, headers, body: Buffer.alloc(0) };
    }
    const body = readBody(rest, headers, ended);
    if (body === null) return null;
    if (typeof body === "string") return { kind: "malformed", detail: body };
    return { kind: "answered", status: code, headers, body };
  }
}

/** The body by its framing: bytes, a problem, or null when more is needed. */
function readBody(rest: Buffer, headers: Record<string, string>, ended: boolean): Buffer | string | null {
  if (/chunked/i.test(headers["transfer-encoding"] ?? "")) {
    const body = dechunk(rest);
    if (body === "incomplete") return ended ? "chunked body cut off" : null;
    return body;
  }
  const declared = headers["content-length"];
  if (declared !== undefined) {
    if (!/^\d+$/.test(declared)) return `Content-Length ${JSON.stringify(declared)}`;
    const length = Number(declared);
    if (rest.length >= length) return rest.subarray(0, length);
    return ended ? `body cut off at ${rest.length} of ${length} bytes` : null;
  }
  return ended ? rest : null;
}

function dechunk(bytes: Buffer): Buffer | string | "incomplete" {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf("\r\n", at);
    if (lineEnd < 0) return "incomplete";
    const sizeText = bytes.subarray(at, lineEnd).toString("latin1").split(";")[0]?.trim() ?? "";
    if (!/^[0-9a-fA-F]+$/.test(sizeText)) return `chunk size ${JSON.stringify(sizeText.slice(0, 20))}`;
    const size = Number.parseInt(sizeText, 16);
    const dataStart = lineEnd + 2;
    if (size === 0) {
      return bytes.indexOf("\r\n", dataStart) < 0 ? "incomplete" : Buffer.concat(parts);
    }
    if (bytes.length < dataStart + size + 2) return "incomplete";
    parts.push(bytes.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}
