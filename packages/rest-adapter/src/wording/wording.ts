import type { NamedFailure } from "@kiln/domain";

/**
 * The v3 text of every named failure of a feature: one entry per reason code, each given the
 * failure's facts. A mapped type, so a reason added to the domain fails the typecheck until it
 * is worded here.
 */
export type Wording<F extends NamedFailure> = { [M in F as M["reason"]]: (failure: M) => string };

/** A 403 for a named reason: GitLab's `403 Forbidden: <why>`. */
export const forbiddenBecause = (why: string) => () => `403 Forbidden: ${why}`;

/** A wait in whole minutes, rounded up: "1 minute", "10 minutes". */
export function minutes(seconds: number): string {
  const count = Math.max(1, Math.ceil(seconds / 60));
  return count === 1 ? "1 minute" : `${count} minutes`;
}
