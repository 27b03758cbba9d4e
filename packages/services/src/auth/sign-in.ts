import { forbidden, hasTwoFactor, isActive, type User, unauthenticated } from "@kiln/domain";
import type { ServiceRuntime } from "../runtime.js";
import { findByLogin, passwordMatches } from "./password.js";

/**
 * Where a password sign-in comes from: `api` is `POST /session`, `web` the sign-in page (which
 * asks for the second factor next), `oauth_password` the OAuth password grant.
 */
export type SignInSurface = "api" | "web" | "oauth_password";

/** A password sign-in attempt. */
export interface PasswordSignIn {
  /** Username or email. */
  login: string;
  password: string;
  /** The client's network address, for the per-address limit. */
  address: string;
  surface: SignInSurface;
}

/** Who signed in, and whether the web must still ask for their second factor. */
export interface SignedIn {
  user: User;
  needsSecondFactor: boolean;
}

/**
 * The key under which an account's failures are counted: the user when the login names one, else
 * the login itself, so that an unknown login locks as a real one does and the lock does not tell
 * which exist.
 */
export function accountKey(user: User | undefined, login: string): string {
  return user ? `user:${user.id}` : `login:${login.toLowerCase()}`;
}

/**
 * The one password sign-in of every surface. Throttled before any hash is computed: per client
 * address (every attempt counts) and per account (failures lock it for a while; a success
 * forgets them). Throws DomainError:
 * - `rate_limited` (`sign_in_address_throttled` or `sign_in_account_locked`, with `retryAfterSeconds`);
 * - `forbidden` `password_sign_in_disabled` when the `signin_enabled` setting is off;
 * - `unauthenticated` for a wrong login or password, or a blocked user;
 * - `forbidden` `two_factor_enabled` on `api` and `oauth_password` for a user with two-factor
 *   authentication (GitLab 9.0's rule: they use personal access tokens), once the password is right.
 *
 * Records the sign-in, except on the web for a user with a second factor: `verifySecondFactor`
 * records it when that step succeeds.
 */
export async function signInWithPassword(
  runtime: ServiceRuntime,
  attempt: PasswordSignIn,
): Promise<SignedIn> {
  runtime.signInThrottle.countAttempt(attempt.address);
  if (!(await runtime.settings()).signin_enabled) throw forbidden({ reason: "password_sign_in_disabled" });
  const user = await passwordOwner(runtime, attempt.login, attempt.password);
  if (!user || !isActive(user)) throw unauthenticated();
  const needsSecondFactor = hasTwoFactor(user);
  if (needsSecondFactor && attempt.surface !== "web") throw forbidden({ reason: "two_factor_enabled" });
  if (needsSecondFactor) return { user, needsSecondFactor };
  return { user: await recordSignIn(runtime, user), needsSecondFactor };
}

/**
 * The user whose username or email is `login` and whose password is `password`, or undefined,
 * under the account lock every password surface shares: throws `rate_limited`
 * (`sign_in_account_locked`) while the account is locked, before any hash is computed; a wrong
 * password counts against the account, a right one forgets its failures. The user may be blocked:
 * callers refuse those.
 */
export async function passwordOwner(
  runtime: ServiceRuntime,
  login: string,
  password: string,
): Promise<User | undefined> {
  const throttle = runtime.signInThrottle;
  const user = await findByLogin(runtime, login);
  const account = accountKey(user, login);
  throttle.checkAccount(account);
  // An unknown login pays for a hash too, so timing does not tell which logins exist.
  const matches = await passwordMatches(runtime, user, password);
  if (!user || !matches) {
    throttle.recordFailure(account);
    return undefined;
  }
  throttle.recordSuccess(account);
  return user;
}

/** Records a completed sign-in (the previous one becomes `last_sign_in_at`); answers the user as now stored. */
export async function recordSignIn(runtime: ServiceRuntime, user: User): Promise<User> {
  await runtime.stores.users.recordSignIn(user.id);
  runtime.userChanged(user.id);
  return (await runtime.stores.users.findById(user.id)) ?? user;
}
