import type { IncomingMessage } from "node:http";
import { BodyError, bodyTooLarge } from "./body-error.js";
import type { FileIntake } from "./file-receiver.js";
import { parseMultipart } from "./multipart.js";
import { formPairs, type Params, paramsFromPairs } from "./params.js";

export { BodyError } from "./body-error.js";
export type { FileIntake } from "./file-receiver.js";

/** Largest non-upload body accepted, in bytes (JSON, forms, multipart fields). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return (length !== undefined && length !== "0") || req.headers["transfer-encoding"] !== undefined;
}

/** Reads the whole body, refusing it once it passes `limit` bytes (declared or counted). */
async function readLimited(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (declared > limit) throw bodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw bodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * The parameters carried by the body: JSON objects, urlencoded forms and multipart fields. Other
 * content types (and bodies on any method, GET and DELETE included) contribute nothing but are
 * still held to the size limit. Multipart file parts are skipped, unless an `intake` names their
 * field: see {@link parseMultipart}.
 */
export function readBodyParams(
  req: IncomingMessage,
  limit = DEFAULT_BODY_LIMIT,
  intake?: FileIntake,
): Params | Promise<Params> {
  // Most requests carry no body: answer without a promise.
  return hasBody(req) ? readBody(req, limit, intake) : Object.create(null);
}

async function readBody(
  req: IncomingMessage,
  limit: number,
  intake: FileIntake | undefined,
): Promise<Params> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "multipart/form-data") return parseMultipart(req, limit, intake);
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
