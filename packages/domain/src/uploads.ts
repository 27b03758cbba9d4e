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
  /** For images and videos the file name without its extension, for other files the whole name. */
  alt: string;
  /** `/uploads/<secret>/<file name>`, relative to the project's web URL. */
  url: string;
  /** `![alt](url)` for images and videos, `[alt](url)` for other files. */
  markdown: string;
}

/** An upload secret: 32 lower-case hex digits. */
export const UPLOAD_SECRET = /^[0-9a-f]{32}$/;

/** The name used when nothing usable is left of the name a client sent. */
export const FALLBACK_UPLOAD_NAME = "file";

/** The longest stored name, in UTF-8 bytes (file systems allow 255). */
const MAX_NAME_BYTES = 200;

/** Extensions whose link GitLab 8.15 embeds (`![…](…)`): its images and videos (`image_or_video?`). */
const EMBEDDED_EXTENSIONS: ReadonlySet<string> = new Set([
  ...["png", "jpg", "jpeg", "gif", "bmp", "tiff", "svg"],
  ...["mp4", "m4v", "mov", "webm", "ogv"],
]);

/** The raster images, the only files served inline. */
const INLINE_EXTENSIONS: ReadonlySet<string> = new Set(["png", "jpg", "jpeg", "gif", "bmp", "tiff", "ico"]);

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

/** True when the file's Markdown link embeds it: images and videos, as GitLab 8.15 decided. */
export function embeddedInMarkdown(name: string): boolean {
  return EMBEDDED_EXTENSIONS.has(uploadExtension(name));
}

/**
 * The link GitLab 8.15 answers for an uploaded file (`FileUploader#to_h`): an image or a video is
 * embedded under its name without the extension (`![pic](…/pic.png)`), any other file linked under
 * its whole name (`[notes.txt](…/notes.txt)`). A safe name has no `]` that would need escaping.
 */
export function uploadLink(secret: string, filename: string): UploadLink {
  const url = `/uploads/${secret}/${filename}`;
  if (!embeddedInMarkdown(filename)) return { alt: filename, url, markdown: `[${filename}](${url})` };
  const alt = filename.slice(0, filename.lastIndexOf("."));
  return { alt, url, markdown: `![${alt}](${url})` };
}

/** The `Content-Type` an upload is served with: by extension, `application/octet-stream` otherwise. */
export function uploadContentType(name: string): string {
  return CONTENT_TYPES[uploadExtension(name)] ?? "application/octet-stream";
}

/** True for the raster images served inline; everything else, SVG and videos included, is an attachment. */
export function servedInline(name: string): boolean {
  return INLINE_EXTENSIONS.has(uploadExtension(name));
}
