import type { IncomingMessage } from "node:http";
import type { UploadedFile } from "@kiln/schemas";
import busboy from "busboy";
import { bodyTooLarge, malformedMultipart } from "./body-error.js";
import { type FileIntake, FileReceiver } from "./file-receiver.js";
import { type Params, paramsFromPairs } from "./params.js";

/** Room for part headers and boundaries beside the fields and the file, in the whole-body count. */
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * Reads a `multipart/form-data` body. Fields become parameters, together held to `limit` bytes.
 * File parts are skipped, except, with an `intake`, the first part of its field: it is streamed to
 * a temp file and becomes that parameter as an {@link UploadedFile}. The whole body may then pass
 * `limit` by the file's own limit. On every failure (too large, malformed, aborted by the client)
 * the temp file is removed before the promise rejects.
 */
export function parseMultipart(req: IncomingMessage, limit: number, intake?: FileIntake): Promise<Params> {
  const bodyLimit = intake ? limit + intake.maxBytes + MULTIPART_OVERHEAD : limit;
  if (Number(req.headers["content-length"]) > bodyLimit) return Promise.reject(bodyTooLarge());
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fieldSize: limit, fields: 1000, files: intake ? 100 : 0 },
      });
    } catch {
      reject(malformedMultipart());
      return;
    }
    const receiver = intake ? new FileReceiver(intake) : null;
    const pairs: [string, string][] = [];
    let settled = false;
    let bodyBytes = 0;
    let fieldBytes = 0;

    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      req.resume();
      const rejectWithError = () => reject(error);
      (receiver?.discard() ?? Promise.resolve()).then(rejectWithError, rejectWithError);
    };
    const succeed = (file: UploadedFile | null) => {
      if (settled) return;
      settled = true;
      const params = paramsFromPairs(pairs);
      if (file && intake) params[intake.field] = file;
      resolve(params);
    };

    parser.on("field", (name, value, info) => {
      fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (info.valueTruncated || fieldBytes > limit) fail(bodyTooLarge());
      else pairs.push([name, value]);
    });
    parser.on("file", (name, part, info) => {
      if (!receiver || name !== receiver.intake.field || receiver.started) {
        part.resume();
        return;
      }
      receiver.receive(part, info.filename ?? "", info.mimeType).catch(fail);
    });
    parser.on("error", () => fail(malformedMultipart()));
    parser.on("close", () => {
      (receiver?.finished() ?? Promise.resolve(null)).then(succeed, fail);
    });
    req.on("data", (chunk: Buffer) => {
      bodyBytes += chunk.length;
      if (bodyBytes > bodyLimit) fail(bodyTooLarge());
    });
    // A client that goes away mid-body: nothing more will come, so stop and clean up.
    req.on("error", () => fail(malformedMultipart()));
    req.on("close", () => {
      if (!req.complete) fail(malformedMultipart());
    });
    req.pipe(parser);
  });
}
