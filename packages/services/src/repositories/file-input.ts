import { badRequest, invalid } from "@kiln/domain";
import { assertFilePath, GitError } from "@kiln/git";

/** GitLab 8.x's `file_path_regex`: letters (any script), digits, `_ - . / @`. */
const ALLOWED_PATH = /^[\p{L}\p{M}\p{N}_\-./@]*$/u;

/** The path as GitLab reads it: leading slashes mean the repository's root, not the disk's. */
export function relativePath(path: string): string {
  return path.replace(/^\/+/, "");
}

/**
 * The path a write names, or a 400 with GitLab's message. A new file's name is held to GitLab's
 * character set (so the web UI and clients can show it); an existing file may be changed whatever
 * its name, as long as git itself accepts the path. `..` is refused everywhere, before git sees it.
 */
export function writablePath(path: string, creating: boolean): string {
  const relative = relativePath(path);
  if (relative === "") throw invalid({ file_path: ["can't be blank"] });
  if (relative.includes("..")) throw badRequest({ reason: "file_path_traversal" });
  if (creating && !ALLOWED_PATH.test(relative)) {
    throw badRequest({ reason: "file_path_characters" });
  }
  try {
    return assertFilePath(relative);
  } catch (error) {
    if (GitError.is(error, "invalid")) throw badRequest({ reason: "file_path_invalid" });
    throw error;
  }
}

/** Padded or unpadded standard base64; whitespace (as Ruby's `encode64` wraps lines) is ignored. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The bytes a write commits: `content` as UTF-8 text, or decoded from base64 with
 * `encoding=base64` (binary files). Text that is not base64 is refused rather than committed as
 * whatever a lenient decoder makes of it.
 */
export function contentBytes(content: string, encoding: "text" | "base64" | undefined): Buffer {
  if (encoding !== "base64") return Buffer.from(content, "utf8");
  const compact = content.replace(/\s+/g, "");
  const padded = compact.endsWith("=");
  if (!BASE64.test(compact) || compact.length % 4 === 1 || (padded && compact.length % 4 !== 0)) {
    throw invalid({ content: ["is not valid base64"] });
  }
  return Buffer.from(compact, "base64");
}
