import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import type { UploadedFile } from "@kiln/schemas";
import busboy from "busboy";
import { bodyTooLarge, malformedMultipart } from "./body-error.js";
import { type FileIntake, FileReceiver } from "./file-receiver.js";
import { PARAM_LIMITS, tooManyParameters } from "./limits.js";
import { type Params, paramsFromPairs } from "./params.js";

/** Room for part headers and boundaries beside the fields and the file, in the whole-body count. */
const MULTIPART_OVERHEAD = 64 * 1024;

/** The most file parts a route that takes a file reads (the first of its field is kept). */
const FILE_PARTS = 100;

/**
 * Reads a `multipart/form-data` body. Fields become parameters, together held to `limit` bytes and
 * to the parameter limits (400 past them); parts without a name are skipped, as Rack skips them.
 * File parts are skipped, except, with an `intake`, the first part of its field: it is streamed to
 * a temp file and becomes that parameter as an {@link UploadedFile}. The whole body may then pass
 * `limit` by the file's own limit. On every failure (too large, malformed, aborted by the client)
 * the temp file is removed before the promise rejects. Whatever a callback throws rejects the
 * promise too: a throw in a stream's callback would otherwise end the process.
 */
export function parseMultipart(req: IncomingMessage, limit: number, intake?: FileIntake): Promise<Params> {
  const bodyLimit = intake ? limit + intake.maxBytes + MULTIPART_OVERHEAD : limit;
  if (Number(req.headers["content-length"]) > bodyLimit) return Promise.reject(bodyTooLarge());
  // A request destroyed before its body is read (its client went away while the route looked
  // something up first) has dropped what it held and sends no more events: waiting would never end.
  if (req.destroyed) return Promise.reject(malformedMultipart());
  return new Promise((resolve, reject) => {
    const files = intake ? FILE_PARTS : 0;
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // One part past the fields and files allowed is one too many (busboy signals reaching it).
        limits: {
          fieldSize: limit,
          fields: PARAM_LIMITS.values,
          files,
          parts: PARAM_LIMITS.values + files + 1,
        },
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
      const params = paramsFromPairs(pairs);
      if (file && intake) params[intake.field] = file;
      settled = true;
      resolve(params);
    };
    /** Runs a callback, turning what it throws into this body's failure. */
    const guarded =
      <A extends unknown[]>(callback: (...args: A) => void) =>
      (...args: A) => {
        try {
          callback(...args);
        } catch (error) {
          fail(error);
        }
      };

    // busboy's types say a part's name is a string, but a part may have none.
    parser.on(
      "field",
      guarded((name: string | undefined, value: string, info: busboy.FieldInfo) => {
        if (!name) return;
        fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
        if (info.valueTruncated || fieldBytes > limit) fail(bodyTooLarge());
        else pairs.push([name, value]);
      }),
    );
    parser.on(
      "file",
      guarded((name: string | undefined, part: Readable, info: busboy.FileInfo) => {
        if (!receiver || name !== receiver.intake.field || receiver.started) {
          part.resume();
          return;
        }
        receiver.receive(part, info.filename ?? "", info.mimeType).catch(fail);
      }),
    );
    parser.on("fieldsLimit", () => fail(tooManyParameters()));
    parser.on("partsLimit", () => fail(tooManyParameters()));
    parser.on("error", () => fail(malformedMultipart()));
    parser.on(
      "close",
      guarded(() => {
        (receiver?.finished() ?? Promise.resolve(null)).then(guarded(succeed), fail);
      }),
    );
    req.on(
      "data",
      guarded((chunk: Buffer) => {
        bodyBytes += chunk.length;
        if (bodyBytes > bodyLimit) fail(bodyTooLarge());
      }),
    );
    // A client that goes away mid-body: nothing more will come, so stop and clean up.
    req.on("error", () => fail(malformedMultipart()));
    req.on("close", () => {
      if (!req.complete) fail(malformedMultipart());
    });
    req.pipe(parser);
  });
}
