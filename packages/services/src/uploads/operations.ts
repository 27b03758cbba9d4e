import { randomBytes } from "node:crypto";
import { lstat, mkdir, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import {
  DomainError,
  notFound,
  safeUploadName,
  type Upload,
  type UploadLink,
  uploadLink,
} from "@kiln/domain";
import { LocateUploadInput, type UploadedFile, UploadFileInput } from "@kiln/schemas";
import type { Context } from "../context.js";
import { mutation, query } from "../operation.js";
import { accessTo, requireProject } from "../projects/access.js";
import type { ServiceRuntime } from "../runtime.js";
import { isReceivedFilePath, uploadFilePath } from "../storage-files.js";

const MEGABYTE = 1024 * 1024;

/** The largest file a project upload may be, in bytes: the `max_attachment_size` setting (MB). */
export async function attachmentLimitBytes(runtime: ServiceRuntime): Promise<number> {
  return (await runtime.settings()).max_attachment_size * MEGABYTE;
}

/** `413 Request Entity Too Large`. */
const tooLarge = () => new DomainError({ kind: "too_large" });

function dataDirOf(runtime: ServiceRuntime): string {
  if (!runtime.dataDir) throw new Error("uploads need a data dir (KILN_DATA_DIR)");
  return runtime.dataDir;
}

/**
 * Moves a received file to `uploads/<project id>/<new secret>/<sanitised name>` and records it.
 * The file must have been received into the data dir's temp dir; on any failure nothing is left
 * in the uploads dir (the caller that received the file removes the temp file).
 */
async function storeReceivedFile(ctx: Context, projectId: number, file: UploadedFile): Promise<Upload> {
  const dataDir = dataDirOf(ctx.runtime);
  if (!isReceivedFilePath(dataDir, file.tempPath)) {
    throw new Error("an uploaded file must be received into the temp dir of the data dir");
  }
  const received = await lstat(file.tempPath);
  if (!received.isFile()) throw new Error("an uploaded file must be a regular file");
  if (received.size > (await attachmentLimitBytes(ctx.runtime))) throw tooLarge();
  const filename = safeUploadName(file.filename);
  const secret = randomBytes(16).toString("hex");
  const target = uploadFilePath(dataDir, projectId, secret, filename);
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  try {
    await rename(file.tempPath, target);
    return await ctx.runtime.stores.uploads.create({
      project_id: projectId,
      uploader_id: ctx.actor?.user.id ?? null,
      secret,
      filename,
      size: received.size,
    });
  } catch (error) {
    await rm(dirname(target), { recursive: true, force: true });
    throw error;
  }
}

/** A stored upload and where its bytes are. */
export interface LocatedUpload {
  upload: Upload;
  /** Absolute path of the file under the data dir. */
  path: string;
}

/** Files attached to projects: added by those with `upload_file`, read by those who may read the project. */
export const uploads = {
  /** Stores the file of `POST /projects/:id/uploads` and answers its Markdown link. */
  create: mutation("signed_in", UploadFileInput, async (ctx, input): Promise<UploadLink> => {
    const { project } = await requireProject(ctx, input.id, "upload_file");
    const upload = await storeReceivedFile(ctx, project.id, input.file);
    return uploadLink(upload.secret, upload.filename);
  }),

  /**
   * Finds the file of `/<namespace>/<project>/uploads/<secret>/<name>` for someone who may read
   * the project (anonymous callers: public projects only). Everything else is `404 Not Found`,
   * whether the project is hidden or the file missing, so nothing can be probed.
   */
  locate: query("anyone", LocateUploadInput, async (ctx, input): Promise<LocatedUpload> => {
    const project = await ctx.runtime.stores.projects.findByFullPath(input.namespace, input.project);
    if (!project || !ctx.runtime.dataDir) throw notFound();
    if (!(await accessTo(ctx, project)).allows("read_project")) throw notFound();
    const upload = await ctx.runtime.stores.uploads.find(project.id, input.secret);
    if (!upload || upload.filename !== input.filename) throw notFound();
    return { upload, path: uploadFilePath(ctx.runtime.dataDir, project.id, upload.secret, upload.filename) };
  }),
};
