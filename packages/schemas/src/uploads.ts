import { UPLOAD_SECRET } from "@kiln/domain";
import { z } from "zod";
import { ProjectRef } from "./projects.js";

const brand = Symbol.for("kiln.UploadedFile");

/**
 * A file that came with a request, already written to a temp file under the data dir. Only the
 * transport that received the file (the REST adapter) makes one: no JSON, form or query value
 * can be one, so a client cannot name a path on the server as "its" upload.
 */
export class UploadedFile {
  readonly [brand] = true;
  /** Where the received bytes are, until the operation moves them. */
  readonly tempPath: string;
  /** The name the client sent, unsanitised. */
  readonly filename: string;
  /** Bytes received. */
  readonly size: number;
  /** The type the client declared; not trusted for serving. */
  readonly mimeType: string;

  constructor(file: { tempPath: string; filename: string; size: number; mimeType: string }) {
    this.tempPath = file.tempPath;
    this.filename = file.filename;
    this.size = file.size;
    this.mimeType = file.mimeType;
  }

  /** True for an UploadedFile, even one made by another copy of this module. */
  static is(value: unknown): value is UploadedFile {
    return typeof value === "object" && value !== null && (value as { [brand]?: boolean })[brand] === true;
  }
}

/** A file parameter: an {@link UploadedFile}, never a string or an object a client wrote. */
export const UploadedFileParam = z.custom<UploadedFile>(UploadedFile.is, { error: "is invalid" });

/** `POST /projects/:id/uploads`. */
export const UploadFileInput = z.object({ id: ProjectRef, file: UploadedFileParam });
export type UploadFileInput = z.infer<typeof UploadFileInput>;

/** `GET /:namespace/:project/uploads/:secret/:filename`, outside the API. */
export const LocateUploadInput = z.object({
  namespace: z.string().min(1),
  project: z.string().min(1),
  secret: z.string().regex(UPLOAD_SECRET),
  filename: z.string().min(1),
});
export type LocateUploadInput = z.infer<typeof LocateUploadInput>;

/** What an upload answers: `alt`, `url` (relative to the project's web URL) and `markdown`. */
export const UploadJson = z.object({ alt: z.string(), url: z.string(), markdown: z.string() });
export type UploadJson = z.infer<typeof UploadJson>;
