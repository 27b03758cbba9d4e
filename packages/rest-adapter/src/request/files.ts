import { rm } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import { UploadedFile } from "@kiln/schemas";
import { type ServiceRuntime, uploadTempDir } from "@kiln/services";
import type { FileField } from "../route.js";
import { DEFAULT_BODY_LIMIT, readBodyParams } from "./body.js";
import type { Params } from "./params.js";

/**
 * Reads the body of a route that takes a file: the file part is streamed to the data dir's temp
 * dir, up to the route's limit. Without a data dir there is nowhere to put files: they are
 * skipped, and the operation finds its file missing.
 */
export async function readBodyWithFile(
  req: IncomingMessage,
  files: FileField,
  runtime: ServiceRuntime,
): Promise<Params> {
  if (!runtime.dataDir) return readBodyParams(req);
  const intake = {
    field: files.field,
    maxBytes: await files.maxBytes(runtime),
    tempDir: uploadTempDir(runtime.dataDir),
  };
  return readBodyParams(req, DEFAULT_BODY_LIMIT, intake);
}

/** The files received with a body. */
export function receivedFiles(params: Params): UploadedFile[] {
  return Object.values(params).filter(UploadedFile.is);
}

/**
 * Removes the temp files of a finished request: an operation that kept a file has moved it
 * already, so only those of failed requests are still there.
 */
export async function removeReceivedFiles(files: readonly UploadedFile[]): Promise<void> {
  await Promise.all(files.map((file) => rm(file.tempPath, { force: true })));
}
