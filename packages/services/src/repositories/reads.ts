import { badRequest, type NotFoundSubject, notFound, type Project } from "@kiln/domain";
import { GitError, type GitErrorSubject } from "@kiln/git";

/**
 * The revision a read uses when the request names none. GitLab 8.x falls back to the project's
 * default branch, and to `master` before anything was pushed, so a fresh project answers its
 * reads (empty, or 404) instead of failing on a missing parameter.
 */
export function refOrDefault(project: Pick<Project, "default_branch">, ref: string | undefined): string {
  return ref ?? project.default_branch ?? "master";
}

/**
 * True when a git read failed because what the request names is not there: an unknown revision,
 * path or object, or one git refuses to look up (`a..b`, `../x`), which names nothing either.
 * Anything else (git missing, a broken repository, a timeout) is a failure of ours.
 */
export function isNothingThere(error: unknown, subjects: readonly GitErrorSubject[]): error is GitError {
  return (
    GitError.is(error) &&
    (error.kind === "not_found" || error.kind === "invalid") &&
    error.subject !== undefined &&
    subjects.includes(error.subject)
  );
}

/**
 * Runs a git read and answers GitLab's own 404 for what it could not find: `names` maps what the
 * failure is about (a revision, a path, an object) to the subject of the 404. The same subject is
 * used whether the thing is missing or its name is malformed, as GitLab does.
 */
export async function readOr404<T>(
  read: () => Promise<T>,
  names: Partial<Record<GitErrorSubject, NotFoundSubject>>,
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const subjects = Object.keys(names) as GitErrorSubject[];
    if (isNothingThere(error, subjects)) throw notFound(names[error.subject as GitErrorSubject]);
    throw error;
  }
}

// YYYY-MM-DD, then optionally THH:MM[:SS[.fff]] and a zone (Z, +HH:MM, +HHMM or +HH).
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(?:([Zz])|([+-])(\d{2}):?(\d{2})?)?$/;

/**
 * Reads an ISO 8601 timestamp parameter (`2016-01-02T03:04:05Z`, with or without seconds,
 * fraction or zone, or a bare date), refusing impossible dates such as February 30th that
 * `Date.parse` would roll over. A timestamp without a zone is UTC, so the answer does not depend
 * on the server's clock settings. Anything else is GitLab's 400 naming the parameter.
 */
export function parseTimestamp(name: string, value: string): Date {
  const refused = () => badRequest({ reason: "timestamp_invalid", attribute: name });
  const match = ISO_8601.exec(value.trim());
  if (!match) throw refused();
  const [year, month, day, hour = 0, minute = 0, second = 0] = match
    .slice(1, 7)
    .map((part) => Number(part ?? 0));
  const millis = Number(`0.${match[7] ?? "0"}`) * 1000;
  const offsetMinutes = match[9]
    ? (match[9] === "-" ? -1 : 1) * (Number(match[10]) * 60 + Number(match[11] ?? 0))
    : 0;
  const time = Date.UTC(year as number, (month as number) - 1, day, hour, minute, second, millis);
  const date = new Date(time - offsetMinutes * 60_000);
  const local = new Date(time);
  if (
    local.getUTCFullYear() !== year ||
    local.getUTCMonth() !== (month as number) - 1 ||
    local.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    Math.abs(offsetMinutes) > 18 * 60 ||
    Number.isNaN(date.getTime())
  ) {
    throw refused();
  }
  return date;
}
