import { DomainError, hasTwoFactor } from "@kiln/domain";
import type { ServiceRuntime } from "../runtime.js";
import { FULL_SCOPES, type Identity, identifyToken } from "./identify.js";
import { verifyPassword } from "./password.js";

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
 * lookup, where a password costs an argon2 hash). Otherwise the username (or email) and password
 * must match an active user, and only while the `signin_enabled` setting allows password
 * sign-in: an administrator who turned passwords off for `POST /session` does not want them to
 * keep working for git. Blocked users are refused either way, and so is the password of a user
 * with two-factor authentication (GitLab 8.8 on: they use a personal access token).
 */
export async function identifyCredentials(
  runtime: ServiceRuntime,
  credentials: BasicCredentials,
): Promise<Identity | null> {
  const { username, password } = credentials;
  if (password === "") return null;
  const byToken = await identifyToken(runtime, password);
  if (byToken) return byToken;
  if (username === "" || !(await runtime.settings()).signin_enabled) return null;
  try {
    const user = await verifyPassword({ runtime, actor: null, system: false }, username, password);
    return hasTwoFactor(user) ? null : { user, method: "password", scopes: FULL_SCOPES };
  } catch (error) {
    if (DomainError.is(error) && error.kind === "unauthenticated") return null;
    throw error;
  }
}
