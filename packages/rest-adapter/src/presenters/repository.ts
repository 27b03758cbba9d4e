import type { RepositoryArchive, RepositoryBlob } from "@kiln/services";
import type { RawBody } from "../route.js";

/** How far git looks for a NUL byte to call a file binary (`buffer_is_binary`). */
const BINARY_PROBE_BYTES = 8000;

/** True when the bytes look like a binary file, by git's own rule: a NUL byte near the start. */
export function looksBinary(content: Buffer): boolean {
  return content.subarray(0, BINARY_PROBE_BYTES).includes(0);
}

/**
 * A file's bytes as they are in the repository: text as `text/plain` (as GitLab serves blobs),
 * anything else as an octet stream. Never sniffed, so a file cannot make a browser run it as a
 * page from the API's origin.
 */
export function presentBlob(blob: RepositoryBlob): RawBody {
  return {
    headers: {
      "Content-Type": looksBinary(blob.content) ? "application/octet-stream" : "text/plain; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-cache",
    },
    content: blob.content,
  };
}

const ARCHIVE_TYPES = {
  "tar.gz": "application/gzip",
  tar: "application/x-tar",
  zip: "application/zip",
} as const;

/** An archive download, named `<project>-<ref>-<sha>.<format>` as GitLab names it. */
export function presentArchive(archive: RepositoryArchive): RawBody {
  // The prefix holds only letters, digits, `.`, `_` and `-`: safe inside the quotes as it is.
  const filename = `${archive.prefix}.${archive.format}`;
  return {
    headers: {
      "Content-Type": ARCHIVE_TYPES[archive.format],
      "Content-Disposition": `attachment; filename="${filename}"`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-cache",
    },
    content: archive.stream,
    finished: archive.finished,
  };
}
