import type { IncomingMessage, ServerResponse } from "node:http";
import { discardBody } from "@kiln/git";
import { BodyError, bodyTooLarge, incompleteBody } from "./body-error.js";
import type { FileIntake } from "./file-receiver.js";
import { jsonParams } from "./json.js";
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

/**
 * Reads the whole body, refusing it once it passes `limit` bytes (declared or counted). A body
 * that cannot be read to its end (the client went away, or broke the chunked framing: Node then
 * fails the request with `aborted`) is a 400, never a server fault.
 */
async function readLimited(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (declared > limit) throw bodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw bodyTooLarge();
      chunks.push(chunk);
    }
  } catch (error) {
    throw error instanceof BodyError ? error : incompleteBody();
  }
  if (!req.complete) throw incompleteBody();
  return Buffer.concat(chunks, size);
}

/** The body's bytes as they are (a trace chunk), refused past `limit` bytes like any body. */
export function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return hasBody(req) ? readLimited(req, limit) : Promise.resolve(Buffer.alloc(0));
}

/**
 * Reads what is left of a body that the answer does not need (a request refused before its body
 * was read: no such route, wrong method, too large), bounded as `discardBody` of `@kiln/git` (16 MiB or 5 s), so that a
 * client still sending it reads the answer rather than a reset, on a `Connection: close`
 * connection too. When the body could not be read whole, the connection closes after the answer.
 */
export async function drainBeforeAnswer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.complete) return;
  await discardBody(req);
  if (!req.complete) res.shouldKeepAlive = false;
}

/**
 * The parameters carried by the body: JSON objects, urlencoded forms and multipart fields. Other
 * content types (and bodies on any method, GET and DELETE included) contribute nothing but are
 * still held to the size limit. Multipart file parts are skipped, unless an `intake` names their
 * field: see {@link parseMultipart}. Every kind is held to the parameter limits of `limits.ts`.
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
    return body.length === 0 ? Object.create(null) : jsonParams(body);
  }
  return Object.create(null);
}
