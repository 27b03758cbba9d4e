import { z } from "zod";
import { clearCookie, readCookie, setCookie } from "../http/cookies.js";
import type { Page } from "./page.js";

/** The cookie of a sign-in waiting for its second factor, sealed with the server key. */
const SECOND_FACTOR_COOKIE = "_kiln_two_factor";

/** How long the second step may wait after the password. */
const PENDING_MS = 5 * 60_000;

/** A sign-in whose password was right, waiting for its second factor. */
export interface SecondFactorPending {
  userId: number;
  redirectTo: string;
}

const Sealed = z.object({ userId: z.number().int(), redirectTo: z.string(), until: z.number() });

/** The cookie that carries `pending` to the second step, sealed (encrypted and authenticated). */
export function secondFactorCookie(page: Page, pending: SecondFactorPending): string {
  const sealed = page.web.runtime.secrets.seal(
    JSON.stringify({ ...pending, until: Date.now() + PENDING_MS }),
  );
  return setCookie(SECOND_FACTOR_COOKIE, sealed, { secure: page.secure, maxAgeSeconds: PENDING_MS / 1000 });
}

/** The sign-in waiting for its second factor in this browser, if any and not too old. */
export function pendingSecondFactor(page: Page): SecondFactorPending | null {
  const sealed = readCookie(page.req, SECOND_FACTOR_COOKIE);
  if (!sealed) return null;
  try {
    const parsed = Sealed.safeParse(JSON.parse(page.web.runtime.secrets.open(sealed)));
    if (!parsed.success || parsed.data.until < Date.now()) return null;
    return { userId: parsed.data.userId, redirectTo: parsed.data.redirectTo };
  } catch {
    return null;
  }
}

/** Removes the cookie of the second step. */
export const clearSecondFactor = (page: Page): string =>
  clearCookie(SECOND_FACTOR_COOKIE, { secure: page.secure });
