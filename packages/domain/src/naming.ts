/**
 * Naming rules shared by users, groups and projects: what a username or path may look like, and
 * how a path is derived from a name (GitLab's `parameterize`).
 */

// Letters, digits, `_` and `.` first; then also `-`; never ending in `.git` or `.atom`.
const PATH_PATTERN = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
const RESERVED_SUFFIXES = [".git", ".atom"];

/** Top-level paths that would shadow server routes, so no user or group may take them. */
export const RESERVED_NAMESPACE_PATHS: ReadonlySet<string> = new Set([
  "-",
  ".well-known",
  "admin",
  "api",
  "assets",
  "ci",
  "dashboard",
  "explore",
  "groups",
  "help",
  "oauth",
  "profile",
  "projects",
  "public",
  "search",
  "u",
  "uploads",
  "users",
]);

/**
 * Why a namespace or project path is unacceptable, or null when it is fine.
 * Messages follow GitLab's validation wording.
 */
export function pathProblem(path: string): string | null {
  if (path.length === 0) return "can't be blank";
  if (path.length > 255) return "is too long (maximum is 255 characters)";
  if (!PATH_PATTERN.test(path) || path === "." || path === "..") {
    return "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-'";
  }
  if (RESERVED_SUFFIXES.some((suffix) => path.toLowerCase().endsWith(suffix))) {
    return "cannot end in '.git' or '.atom'";
  }
  return null;
}

/** Why a username is unacceptable, or null. Usernames are namespace paths, so reserved names are refused. */
export function usernameProblem(username: string): string | null {
  const problem = pathProblem(username);
  if (problem) return problem;
  if (RESERVED_NAMESPACE_PATHS.has(username.toLowerCase())) return "is reserved";
  return null;
}

/**
 * GitLab's `name.parameterize`: transliterate to ASCII, turn every run of characters outside
 * `[a-z0-9_-]` into one `-`, trim leading and trailing `-`, lowercase.
 */
export function parameterize(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-zA-Z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .toLowerCase();
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

/** Why an email address is unacceptable, or null. */
export function emailProblem(email: string): string | null {
  if (email.length === 0) return "can't be blank";
  if (email.length > 255) return "is too long (maximum is 255 characters)";
  return EMAIL_PATTERN.test(email) ? null : "is invalid";
}

/** The shortest password accepted. */
export const MIN_PASSWORD_LENGTH = 8;
