import { randomBytes, timingSafeEqual } from "node:crypto";

/** The form field that carries the CSRF token (Rails' name, which GitLab's forms use). */
export const CSRF_FIELD = "authenticity_token";

/** A new random CSRF token, for a visitor not signed in (its double-submit cookie). */
export function newCsrfToken(): string {
  return randomBytes(24).toString("base64url");
}

/**
 * True when a form's token is the one expected of its sender (their session's, or their cookie's
 * before sign-in); an empty expectation never matches. Compared in constant time.
 */
export function csrfTokenMatches(expected: string | undefined, given: string): boolean {
  if (!expected) return false;
  const left = Buffer.from(expected);
  const right = Buffer.from(given);
  return left.length === right.length && timingSafeEqual(left, right);
}
