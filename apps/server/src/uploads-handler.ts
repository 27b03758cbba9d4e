import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { DomainError, notFound, servedInline, uploadContentType } from "@kiln/domain";
import { identifyCaller, UPLOAD_CREDENTIALS, v3Message } from "@kiln/rest-adapter";
import { LocateUploadInput } from "@kiln/schemas";
import { type Actor, invoke, type LocatedUpload, type ServiceRuntime, uploads } from "@kiln/services";

/** `/<namespace>/<project>/uploads/<secret>/<file name>`, each part one raw path segment. */
const UPLOAD_PATH = /^\/([^/]+)\/([^/]+)\/uploads\/([^/]+)\/([^/]+)$/;

/** True when a request reads an upload: `GET` or `HEAD` of a path with the shape of an upload's URL. */
export function isUploadRequest(method: string | undefined, pathname: string): boolean {
  return (method === "GET" || method === "HEAD") && UPLOAD_PATH.test(pathname);
}

/** A decoded path segment, or null when it does not decode to one plain segment. */
function segment(raw: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (decoded === "." || decoded === ".." || /[/\\\0]/.test(decoded)) return null;
  return decoded;
}

/** The parts of an upload's URL, decoded; null when it has another shape or a part is not one segment. */
export function parseUploadPath(
  pathname: string,
): { namespace: string; project: string; secret: string; filename: string } | null {
  const match = UPLOAD_PATH.exec(pathname);
  if (!match) return null;
  const [namespace, project, secret, filename] = match.slice(1).map((raw) => segment(raw));
  if (!namespace || !project || !secret || !filename) return null;
  return { namespace, project, secret, filename };
}

/** `inline` for raster images, `attachment` otherwise, with the name in ASCII and in UTF-8. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const kind = servedInline(filename) ? "inline" : "attachment";
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Streams a located upload; false when its file is missing (or not a regular file). */
async function sendFile(req: IncomingMessage, res: ServerResponse, located: LocatedUpload): Promise<boolean> {
  let handle: FileHandle;
  try {
    // O_NOFOLLOW: the stored path is ours, and a link planted there is not followed either.
    handle = await open(located.path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return false;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return false;
    const { filename } = located.upload;
    res.writeHead(200, {
      "Content-Type": uploadContentType(filename),
      "Content-Length": info.size,
      "Content-Disposition": contentDisposition(filename),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-cache",
    });
    if (req.method === "HEAD") res.end();
    // A client that goes away mid-file leaves nothing to answer: the pipeline has closed both ends.
    else await pipeline(handle.createReadStream(), res).catch(() => undefined);
    return true;
  } finally {
    await handle.close();
  }
}

/** The status of a refusal: 401 for bad credentials, 404 for anything not found; null for a bug. */
function refusalStatus(error: unknown): 401 | 404 | null {
  if (!DomainError.is(error)) return null;
  if (error.kind === "unauthenticated") return 401;
  return error.kind === "not_found" ? 404 : null;
}

/** Serves one upload request; resolves with the status and the acting user, for the access log. */
export type UploadsHandler = (
  req: IncomingMessage,
  res: ServerResponse,
) => Promise<{ status: number; userId: number | null }>;

/**
 * Serves `GET /<namespace>/<project>/uploads/<secret>/<file name>` outside the API: authenticated
 * like the API ({@link UPLOAD_CREDENTIALS}; anonymous callers see public projects only), answered
 * through the services' `uploads.locate` so that who may read what stays decided there. Anything
 * hidden, missing or malformed is `404 Not Found`; an unknown token is 401; any other failure is
 * left to the front door's 500. Files are typed by extension, never sniffed, and anything but a
 * raster image is an attachment.
 */
export function createUploadsHandler(runtime: ServiceRuntime): UploadsHandler {
  return async (req, res) => {
    req.resume();
    const [pathname = "/"] = (req.url ?? "/").split("?", 1);
    let actor: Actor | null = null;
    try {
      const where = parseUploadPath(pathname);
      const input = where && LocateUploadInput.safeParse(where);
      if (!input?.success) throw notFound();
      actor = await identifyCaller(req, UPLOAD_CREDENTIALS, runtime);
      const located = await invoke(uploads.locate, { runtime, actor, system: false }, input.data);
      if (await sendFile(req, res, located)) return { status: 200, userId: actor?.user.id ?? null };
      throw notFound();
    } catch (error) {
      const status = refusalStatus(error);
      if (status === null || res.headersSent) throw error;
      const body = JSON.stringify({ message: v3Message((error as DomainError).failure) });
      res.writeHead(status, {
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(body),
      });
      res.end(req.method === "HEAD" ? undefined : body);
      return { status, userId: actor?.user.id ?? null };
    }
  };
}
