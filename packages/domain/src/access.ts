/** Access levels of a member on a project or group, as GitLab numbers them. */
export const AccessLevel = {
  NONE: 0,
  GUEST: 10,
  REPORTER: 20,
  DEVELOPER: 30,
  MASTER: 40,
  OWNER: 50,
} as const;

/** One of the access level numbers (0 means no access). */
export type AccessLevel = (typeof AccessLevel)[keyof typeof AccessLevel];

/** The levels a membership may carry (NONE is not a membership). */
export const MEMBER_ACCESS_LEVELS: readonly AccessLevel[] = [
  AccessLevel.GUEST,
  AccessLevel.REPORTER,
  AccessLevel.DEVELOPER,
  AccessLevel.MASTER,
  AccessLevel.OWNER,
];

/** True when `value` is a level a membership may carry. */
export function isMemberAccessLevel(value: number): value is AccessLevel {
  return (MEMBER_ACCESS_LEVELS as readonly number[]).includes(value);
}

/** Visibility levels of projects and groups. */
export const Visibility = {
  PRIVATE: 0,
  INTERNAL: 10,
  PUBLIC: 20,
} as const;

/** One of the visibility numbers 0, 10, 20. */
export type Visibility = (typeof Visibility)[keyof typeof Visibility];

/** True when `value` is 0, 10 or 20. */
export function isVisibility(value: number): value is Visibility {
  return value === 0 || value === 10 || value === 20;
}

/**
 * A visibility as the application settings API may write it: GitLab documents 0, 1, 2 there but
 * stores 0, 10, 20. Both are accepted; anything else is null.
 */
export function normalizeVisibility(value: number): Visibility | null {
  if (value === 1) return Visibility.INTERNAL;
  if (value === 2) return Visibility.PUBLIC;
  return isVisibility(value) ? value : null;
}

/** The name of a visibility level, as v3 filters spell it. */
export function visibilityName(level: Visibility): "private" | "internal" | "public" {
  return level === Visibility.PUBLIC ? "public" : level === Visibility.INTERNAL ? "internal" : "private";
}
