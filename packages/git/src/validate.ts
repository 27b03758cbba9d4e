import { GitError } from "./errors.js";

/**
 * Checks of everything a caller hands to git: ref names, revisions, object ids and paths. They run
 * in-process (no git spawn per check) and follow git's own rules (`refs.c`'s
 * `check_refname_format`, `read-cache.c`'s `verify_path`); `validate.test.ts` holds them against
 * `git check-ref-format` on a corpus of names.
 */

/** True when `text` holds an ASCII control character (or, with `space`, a space too). */
export function hasControlCharacter(text: string, space = false): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || (space && code === 0x20)) return true;
  }
  return false;
}

const REF_BAD_CHAR = /[~^:?*[\\]/;
/** A longer ref component would not fit a file name (plus `.lock`) on common file systems. */
const MAX_COMPONENT_BYTES = 240;

/**
 * True when `name` is a full ref name git accepts (`git check-ref-format <name>`, no options):
 * components not empty, not starting with `.`, not ending with `.lock`; no `..`, `@{`, control
 * characters, space, `~ ^ : ? * [ \`; not ending with `/` or `.`; at least two components.
 */
export function isValidRefName(name: string): boolean {
  if (name === "@" || name.length === 0) return false;
  if (
    hasControlCharacter(name, true) ||
    REF_BAD_CHAR.test(name) ||
    name.includes("..") ||
    name.includes("@{")
  )
    return false;
  if (name.endsWith(".")) return false;
  const components = name.split("/");
  if (components.length < 2) return false;
  for (const component of components) {
    if (component === "" || component.startsWith(".") || component.endsWith(".lock")) return false;
    if (Buffer.byteLength(component) > MAX_COMPONENT_BYTES) return false;
  }
  return true;
}

/** True when git accepts `name` as a branch name (`git check-ref-format --branch`). */
export function isValidBranchName(name: string): boolean {
  return !name.startsWith("-") && name !== "HEAD" && name !== "@" && isValidRefName(`refs/heads/${name}`);
}

/** True when git accepts `name` as a tag name (what `git tag` checks). */
export function isValidTagName(name: string): boolean {
  return !name.startsWith("-") && isValidRefName(`refs/tags/${name}`);
}

/** Throws `invalid` (subject `branch`) unless {@link isValidBranchName}. Answers `refs/heads/<name>`. */
export function branchRef(name: string): string {
  if (!isValidBranchName(name)) throw new GitError("invalid", `invalid branch name: ${name}`, "", "branch");
  return `refs/heads/${name}`;
}

/** Throws `invalid` (subject `tag`) unless {@link isValidTagName}. Answers `refs/tags/<name>`. */
export function tagRef(name: string): string {
  if (!isValidTagName(name)) throw new GitError("invalid", `invalid tag name: ${name}`, "", "tag");
  return `refs/tags/${name}`;
}

/** An object id: full or abbreviated (at least 4) hex, SHA-1 or SHA-256. */
const OBJECT_ID = /^[0-9a-f]{4,64}$/;

/** True for a full or abbreviated lower-case hex object id. */
export function isObjectId(value: string): boolean {
  return OBJECT_ID.test(value);
}

/** Throws `invalid` (subject `object`) unless `value` is a hex object id. */
export function assertObjectId(value: string): string {
  if (!isObjectId(value)) throw new GitError("invalid", `not an object id: ${value}`, "", "object");
  return value;
}

const REVISION_BAD = /[:?*[\\]/;
const MAX_REVISION_LENGTH = 1024;

/**
 * Throws `invalid` (subject `revision`) unless `rev` is a revision git may be asked about: a
 * branch, tag or full ref name, an object id, `HEAD`, optionally with `~n`, `^n`, `^{type}`
 * suffixes. Refused: a leading `-` (never an option), ranges (`..`), `rev:path` lookups and
 * message searches (`:/text`, `^{/text}`), whitespace and control characters, glob characters.
 */
export function assertRevision(rev: string): string {
  if (
    rev.length === 0 ||
    rev.length > MAX_REVISION_LENGTH ||
    rev.startsWith("-") ||
    hasControlCharacter(rev, true) ||
    REVISION_BAD.test(rev) ||
    rev.includes("..") ||
    rev.includes("{/")
  ) {
    throw new GitError("invalid", `invalid revision: ${JSON.stringify(rev)}`, "", "revision");
  }
  return rev;
}

const MAX_PATH_BYTES = 4096;

function isGitDirName(component: string): boolean {
  const lower = component.toLowerCase();
  // `.git`, and what NTFS and HFS+ would read as `.git` (trailing dots and spaces, the 8.3 name,
  // alternate data streams); git refuses those too when core.protectNTFS is on.
  return lower.replace(/[. ]+$/, "") === ".git" || lower.startsWith(".git:") || lower === "git~1";
}

function pathProblem(path: string): string | undefined {
  if (path.length === 0) return "empty path";
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) return "path too long";
  if (hasControlCharacter(path)) return "control character in path";
  if (path.startsWith("/")) return "absolute path";
  for (const component of path.split("/")) {
    if (component === "") return "empty path segment";
    if (component === "." || component === "..") return `"${component}" in path`;
    if (isGitDirName(component)) return "path inside .git";
  }
  return undefined;
}

/**
 * Throws `invalid` (subject `path`) unless `path` can name a file in a repository's tree: relative,
 * no empty, `.` or `..` segment, no `.git` segment (in any case or NTFS spelling), no control
 * character (NUL and newline included). Answers the path.
 */
export function assertFilePath(path: string): string {
  const problem = pathProblem(path);
  if (problem)
    throw new GitError("invalid", `invalid file path ${JSON.stringify(path)}: ${problem}`, "", "path");
  return path;
}

/**
 * A directory path as the tree API takes it: `""`, `"/"` and surrounding slashes mean the root
 * (answered as `""`); anything else must pass {@link assertFilePath}.
 */
export function normalizeTreePath(path: string | undefined): string {
  const trimmed = (path ?? "").replace(/^\/+|\/+$/g, "");
  return trimmed === "" ? "" : assertFilePath(trimmed);
}
