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
 * A longer ref name would make a loose ref's path (below the repository's own) too long for the
 * file system: git could write a symbolic ref to it (HEAD) that it then cannot read back.
 */
const MAX_REF_BYTES = 1024;

/**
 * True when `name` is a full ref name git accepts (`git check-ref-format <name>`, no options):
 * components not empty, not starting with `.`, not ending with `.lock`; no `..`, `@{`, control
 * characters, space, `~ ^ : ? * [ \`; not ending with `/` or `.`; at least two components. Also
 * refused, where git would fail on the file system instead: a component over 240 bytes, a name
 * over 1024.
 */
export function isValidRefName(name: string): boolean {
  if (name === "@" || name.length === 0 || Buffer.byteLength(name) > MAX_REF_BYTES) return false;
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

const MAX_REVISION_LENGTH = 1024;
/** Where a revision's name ends and its suffixes (`~2`, `^2`, `^{commit}`) begin. */
const FIRST_SUFFIX = /[~^]/;
/** What may follow the name: ancestors (`~n`, `^n`) and peels to a type (`^{commit}`, `^{}`). */
const SUFFIXES = /^(?:~\d*|\^\d*|\^\{(?:commit|tree|blob|tag|object)?\})*$/;
/** What the name part may not hold: globs, `rev:path` and `:/text` lookups, backslashes. */
const NAME_BAD = /[:?*[\\]/;

/**
 * Throws `invalid` (subject `revision`) unless `rev` is a revision git may be asked about: a
 * branch, tag or full ref name, an object id or `HEAD`, then optionally `~n`, `^n` and
 * `^{type}` suffixes. Anything else is refused before git sees it: a leading `-` (never an
 * option) or `^` (an exclusion), ranges (`..`, `^!`, `^@`, `^-`), `rev:path` lookups and message
 * searches (`:/text`, `^{/text}`), reflog, upstream and previous-branch forms (`@{...}`, which git
 * answers by dying rather than by naming nothing), whitespace, control and glob characters.
 */
export function assertRevision(rev: string): string {
  const suffix = rev.search(FIRST_SUFFIX);
  const name = suffix < 0 ? rev : rev.slice(0, suffix);
  if (
    name.length === 0 ||
    rev.length > MAX_REVISION_LENGTH ||
    name.startsWith("-") ||
    hasControlCharacter(name, true) ||
    NAME_BAD.test(name) ||
    name.includes("..") ||
    name.includes("@{") ||
    (suffix >= 0 && !SUFFIXES.test(rev.slice(suffix)))
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
