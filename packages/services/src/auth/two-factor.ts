import { randomBytes } from "node:crypto";
import { hasTwoFactor, isActive, type User } from "@kiln/domain";
import type { Stores } from "@kiln/storage-kysely";
import type { ServiceRuntime } from "../runtime.js";
import { tokenDigest } from "../security/tokens.js";
import { matchingStep } from "../security/totp.js";
import { accountKey, recordSignIn } from "./sign-in.js";

/** How many recovery codes a user gets at a time (GitLab's ten). */
export const RECOVERY_CODE_COUNT = 10;

/** New recovery codes: 16 hex characters each (64 bits), as GitLab makes them. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => randomBytes(8).toString("hex"));
}

/** A recovery code as typed (any case, spaces around or inside) in the form it was made. */
const normalizeRecoveryCode = (code: string): string => code.replace(/\s/g, "").toLowerCase();

/** Stores the digests of new recovery codes in place of the user's old ones; answers the codes. */
export async function replaceRecoveryCodes(stores: Stores, userId: number): Promise<string[]> {
  const codes = newRecoveryCodes();
  await stores.twoFactor.replaceRecoveryCodes(userId, codes.map(tokenDigest));
  return codes;
}

/**
 * True when `code` is the user's current TOTP code (a step within ±1 of now, never one accepted
 * before) or one of their unused recovery codes, which is then spent. False for a user without
 * two-factor authentication.
 */
export async function secondFactorMatches(
  runtime: ServiceRuntime,
  userId: number,
  code: string,
): Promise<boolean> {
  const { twoFactor } = runtime.stores;
  const stored = await twoFactor.find(userId);
  if (!stored?.secretSealed) return false;
  const step = matchingStep(runtime.secrets.open(stored.secretSealed), code, Date.now());
  if (step !== null) return twoFactor.acceptStep(userId, step);
  const recovery = normalizeRecoveryCode(code);
  return recovery !== "" && twoFactor.useRecoveryCode(userId, tokenDigest(recovery));
}

/** The second factor of a web sign-in. */
export interface SecondFactorAttempt {
  userId: number;
  code: string;
  /** The client's network address, for the per-address limit. */
  address: string;
}

/**
 * The web sign-in's second step: true when `code` is the user's current TOTP code or an unused
 * recovery code (then spent), and the sign-in is recorded. Throttled as passwords are: the
 * attempt counts against the client address, a wrong code against the account's failures
 * (`rate_limited` once over either limit).
 */
export async function verifySecondFactor(
  runtime: ServiceRuntime,
  attempt: SecondFactorAttempt,
): Promise<boolean> {
  const throttle = runtime.signInThrottle;
  throttle.countAttempt(attempt.address);
  const user = await runtime.stores.users.findById(attempt.userId);
  if (!user || !isActive(user)) return false;
  const account = accountKey(user, user.username);
  throttle.checkAccount(account);
  if (!(await secondFactorMatches(runtime, user.id, attempt.code))) {
    throttle.recordFailure(account);
    return false;
  }
  throttle.recordSuccess(account);
  await recordSignIn(runtime, user);
  return true;
}

/** Where a user stands with the instance's two-factor requirement. */
export interface TwoFactorRequirement {
  /** When the requirement started, or null when 2FA is not required. */
  requiredSince: string | null;
  /** When this user's grace period ends (or ended), or null when 2FA is not required. */
  graceEndsAt: string | null;
}

/**
 * The requirement as it applies to `user`: the grace period (`two_factor_grace_period` hours)
 * runs from when the requirement was turned on or the user was created, whichever is later.
 */
export async function twoFactorRequirement(
  runtime: ServiceRuntime,
  user: User,
): Promise<TwoFactorRequirement> {
  const settings = await runtime.settings();
  const since = settings.require_two_factor_authentication ? settings.two_factor_required_since : null;
  if (since === null) return { requiredSince: null, graceEndsAt: null };
  const start = Math.max(Date.parse(since), Date.parse(user.created_at));
  const graceEndsAt = new Date(start + settings.two_factor_grace_period * 3_600_000).toISOString();
  return { requiredSince: since, graceEndsAt };
}

/**
 * True when the instance requires two-factor authentication, `user` has none, and their grace
 * period is over: the web then sends them to enrolment before anything else (as GitLab does).
 * The API is not affected: tokens keep working, and `POST /session` too, as in GitLab 8.x.
 */
export async function twoFactorRequiredNow(runtime: ServiceRuntime, user: User): Promise<boolean> {
  if (hasTwoFactor(user)) return false;
  const { graceEndsAt } = await twoFactorRequirement(runtime, user);
  return graceEndsAt !== null && Date.parse(graceEndsAt) <= Date.now();
}
