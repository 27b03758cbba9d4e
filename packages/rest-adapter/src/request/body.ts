import type { IncomingMessage } from "node:http";
import busboy from "busboy";
import { formPairs, type Params, paramsFromPairs } from "./params.js";

/** Largest non-upload body accepted, in bytes (JSON, forms, multipart fields). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Why a body was refused. */
export class BodyError extends Error {
  constructor(
    readonly reason: "too_large" | "malformed",
    message: string,
  ) {
    super(message);
  }
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return (length !== undefined && length !== "0") || req.headers["transfer-encoding"] !== undefined;
}

/** Reads the whole body, refusing it once it passes `limit` bytes (declared or counted). */
async function readLimited(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (declared > limit) throw new BodyError("too_large", "413 Request Entity Too Large");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyError("too_large", "413 Request Entity Too Large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

function parseMultipart(req: IncomingMessage, limit: number): Promise<Params> {
  return new Promise((resolve, reject) => {
    const pairs: [string, string][] = [];
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fieldSize: limit, fields: 1000, files: 0 } });
    } catch {
      reject(new BodyError("malformed", "400 (Bad request) malformed multipart body"));
      return;
    }
    let size = 0;
    parser.on("field", (name, value) => pairs.push([name, value]));
    parser.on("file", (_name, stream) => stream.resume());
    parser.on("error", () =>
      reject(new BodyError("malformed", "400 (Bad request) malformed multipart body")),
    );
    parser.on("close", () => resolve(paramsFromPairs(pairs)));
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.unpipe(parser);
        req.resume();
        reject(new BodyError("too_large", "413 Request Entity Too Large"));
      }
    });
    req.pipe(parser);
  });
}

/**
 * The parameters carried by the body: JSON objects, urlencoded forms and multipart fields. Other
 * content types (and bodies on any method, GET and DELETE included) contribute nothing but are
 * still held to the size limit.
 */
export function readBodyParams(req: IncomingMessage, limit = DEFAULT_BODY_LIMIT): Params | Promise<Params> {
  // Most requests carry no body: answer without a promise.
  return hasBody(req) ? readBody(req, limit) : Object.create(null);
}

async function readBody(req: IncomingMessage, limit: number): Promise<Params> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "multipart/form-data") return parseMultipart(req, limit);
  const body = await readLimited(req, limit);
  if (type === "application/x-www-form-urlencoded") return paramsFromPairs(formPairs(body.toString("utf8")));
  if (type === "application/json" || type.endsWith("+json")) {
    if (body.length === 0) return Object.create(null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      throw new BodyError("malformed", "400 (Bad request) body is not valid JSON");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new BodyError("malformed", "400 (Bad request) JSON body must be an object");
    }
    return Object.assign(Object.create(null), parsed) as Params;
  }
  return Object.create(null);
}
