import { hasTwoFactor, isActive } from "@kiln/domain";
import type { ServiceRuntime } from "../runtime.js";
import { FULL_SCOPES, type Identity, identifyToken } from "./identify.js";
import { passwordOwner } from "./sign-in.js";

/** A username and password as an HTTP Basic header carries them. */
export interface BasicCredentials {
  username: string;
  password: string;
}

/**
 * Who HTTP Basic credentials (git over HTTP) name, or null when they name nobody who may act.
 *
 * The password may be a private token or a personal access token, with any username, as GitLab
 * 8.x let git clients authenticate: the token alone decides, so a token is tried first (a digest
 * lookup, where a password costs an argon2 hash), and tokens are never throttled. Otherwise the
 * username (or email) and password must match an active user, and only while the
 * `signin_enabled` setting allows password sign-in: an administrator who turned passwords off for
 * `POST /session` does not want them to keep working for git. Blocked users are refused either
 * way, and so is the password of a user with two-factor authentication (GitLab 8.8 on: they use a
 * personal access token).
 *
 * Passwords are throttled before any hash is computed, failures only (git resends the same
 * credentials with every request of a clone): they count toward the account lock every sign-in
 * shares, and, from `address` (the client's, when the transport knows it), toward its git ban
 * (Rack::Attack's `git_basic_auth`). Throws `rate_limited` (`sign_in_account_locked` or
 * `git_address_banned`, with `retryAfterSeconds`) while either holds.
 */
export async function identifyCredentials(
  runtime: ServiceRuntime,
  credentials: BasicCredentials,
  address?: string,
): Promise<Identity | null> {
  const { username, password } = credentials;
  if (password === "") return null;
  const byToken = await identifyToken(runtime, password);
  if (byToken) return byToken;
  if (username === "" || !(await runtime.settings()).signin_enabled) return null;
  const throttle = runtime.signInThrottle;
  if (address !== undefined) throttle.checkGitAddress(address);
  const user = await passwordOwner(runtime, username, password);
  if (!user) {
    if (address !== undefined) throttle.recordGitFailure(address);
    return null;
  }
  return isActive(user) && !hasTwoFactor(user) ? { user, method: "password", scopes: FULL_SCOPES } : null;
}
