import { AccessLevel } from "@kiln/domain";
import type { ProjectAccess } from "../projects/access.js";

/**
 * True when the caller may date what they write (`created_at` of issues and notes, `updated_at` of
 * issue edits), as GitLab lets administrators and project owners do for imports.
 */
export function maySetTimestamps(access: ProjectAccess): boolean {
  return access.subject.isAdmin || access.subject.accessLevel >= AccessLevel.OWNER;
}

/**
 * A time parameter as a stored timestamp: a date is its midnight in UTC, and a time without an
 * offset is read as UTC (the server's zone would make the same request mean different moments).
 */
export function timestampOf(param: string): string {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(param);
  const hasZone = /(?:[zZ]|[+-]\d{2}(?::?\d{2})?)$/.test(param);
  const iso = dateOnly ? `${param}T00:00:00Z` : hasZone ? param : `${param}Z`;
  return new Date(iso).toISOString();
}
