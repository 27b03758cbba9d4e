/**
 * Files attached to a project (`POST /projects/:id/uploads`). A file lives under a random secret
 * and a sanitised name; the name a user sent is never used as a path.
 */

/** A stored upload. */
export interface Upload {
  id: number;
  project_id: number;
  /** Null once the uploader's account is gone. */
  uploader_id: number | null;
  /** 32 hex digits: the directory of the file, and the unguessable part of its URL. */
  secret: string;
  /** The sanitised file name (see {@link safeUploadName}). */
  filename: string;
  /** Bytes. */
  size: number;
  created_at: string;
}

/** What `POST /projects/:id/uploads` answers: the link to paste into a description or a comment. */
export interface UploadLink {
  /** The file name without its extension. */
  alt: string;
  /** `/uploads/<secret>/<file name>`, relative to the project's web URL. */
  url: string;
  /** `![alt](url)` for images, `[file name](url)` for other files. */
  markdown: string;
}

/** An upload secret: 32 lower-case hex digits. */
export const UPLOAD_SECRET = /^[0-9a-f]{32}$/;

/** The name used when nothing usable is left of the name a client sent. */
export const FALLBACK_UPLOAD_NAME = "file";

/** The longest stored name, in UTF-8 bytes (file systems allow 255). */
const MAX_NAME_BYTES = 200;

/** Extensions GitLab 8.x renders as images in Markdown. */
const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set([
  "png",
  "jpg",
  "jpeg",
  "gif",
  "bmp",
  "tiff",
  "ico",
  "svg",
]);

/**
 * Content types by extension. SVG is an image for Markdown but may carry scripts, so it is never
 * served inline (see {@link servedInline}).
 */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  bmp: "image/bmp",
  tiff: "image/tiff",
  ico: "image/x-icon",
  svg: "image/svg+xml",
  pdf: "application/pdf",
  txt: "text/plain; charset=utf-8",
  json: "application/json",
  zip: "application/zip",
  gz: "application/gzip",
};

const utf8Length = (char: string): number => {
  const code = char.codePointAt(0) as number;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
};

/** `text` cut to at most `maxBytes` UTF-8 bytes, never inside a character. */
function truncateUtf8(text: string, maxBytes: number): string {
  let out = "";
  let bytes = 0;
  for (const char of text) {
    bytes += utf8Length(char);
    if (bytes > maxBytes) break;
    out += char;
  }
  return out;
}

/** The lower-case extension of a file name, without its dot ("" when there is none). */
export function uploadExtension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/**
 * A name that is safe as one path segment and in a URL, made from the name a client sent: only
 * its last segment (after any `/` or `\`), every character but letters, digits, `_`, `.`, `+` and
 * `-` replaced by `_` (NUL and other control characters included), runs of dots reduced to one so
 * that no `..` remains, at most 200 UTF-8 bytes (the extension kept), and {@link
 * FALLBACK_UPLOAD_NAME} when nothing but dots is left.
 */
export function safeUploadName(sent: string): string {
  const lastSegment = sent.replace(/\\/g, "/").split("/").pop() ?? "";
  const name = lastSegment
    .normalize("NFC")
    .replace(/[^\p{L}\p{N}_.+-]/gu, "_")
    .replace(/\.{2,}/g, ".");
  if (/^\.*$/.test(name)) return FALLBACK_UPLOAD_NAME;
  if (truncateUtf8(name, MAX_NAME_BYTES) === name) return name;
  const extension = uploadExtension(name);
  const suffix = extension.length > 0 && extension.length <= 16 ? `.${extension}` : "";
  const stem = name.slice(0, name.length - suffix.length);
  return truncateUtf8(stem, MAX_NAME_BYTES - suffix.length) + suffix;
}

/** True when Markdown shows the file as an image. */
export function isImageName(name: string): boolean {
  return IMAGE_EXTENSIONS.has(uploadExtension(name));
}

/** The link GitLab 8.x answers for an uploaded file. */
export function uploadLink(secret: string, filename: string): UploadLink {
  const dot = filename.lastIndexOf(".");
  const alt = dot > 0 ? filename.slice(0, dot) : filename;
  const url = `/uploads/${secret}/${filename}`;
  const markdown = isImageName(filename) ? `![${alt}](${url})` : `[${filename}](${url})`;
  return { alt, url, markdown };
}

/** The `Content-Type` an upload is served with: by extension, `application/octet-stream` otherwise. */
export function uploadContentType(name: string): string {
  return CONTENT_TYPES[uploadExtension(name)] ?? "application/octet-stream";
}

/** True for the raster images served inline; everything else, SVG included, is an attachment. */
export function servedInline(name: string): boolean {
  return isImageName(name) && uploadExtension(name) !== "svg";
}
