import { DomainError, forbidden, isActive, scopesAllow, type User } from "@kiln/domain";
import { isDigits, MAX_INTEGER } from "@kiln/schemas";
import type { Actor } from "../context.js";
import type { ServiceRuntime } from "../runtime.js";
import type { CachedIdentity } from "../security/identity-cache.js";
import { tokenDigest } from "../security/tokens.js";

/** An authenticated identity: the user, how the credentials proved it, and what they may do. */
export type Identity = CachedIdentity;

/**
 * The scopes of the user's own secrets (a private token, a password): anything the user may
 * (`api`). Personal access tokens and OAuth tokens carry the scopes they were given.
 */
export const FULL_SCOPES: readonly string[] = Object.freeze(["api"]);

/**
 * Who a private token or personal access token belongs to, or null when it is unknown, revoked,
 * expired, or its user is blocked. A token the identity cache knows is answered synchronously
 * (no promise on the hot path); otherwise the answer is a promise.
 */
export function identifyToken(
  runtime: ServiceRuntime,
  token: string,
): Identity | null | Promise<Identity | null> {
  const digest = tokenDigest(token);
  const nowMs = Date.now();
  return runtime.identities?.lookup(digest, nowMs) ?? lookUpToken(runtime, digest, nowMs);
}

async function lookUpToken(runtime: ServiceRuntime, digest: string, nowMs: number): Promise<Identity | null> {
  const found = await findByDigest(runtime, digest, nowMs);
  if (!found || !isActive(found.identity.user)) return null;
  runtime.identities?.remember(digest, found.identity, found.expiresAt);
  return found.identity;
}

/** An identity found in the database, and until when it holds (epoch ms, null for ever). */
export type FoundIdentity = { identity: Identity; expiresAt: number | null };

async function findByDigest(
  runtime: ServiceRuntime,
  digest: string,
  nowMs: number,
): Promise<FoundIdentity | null> {
  const { stores } = runtime;
  const owner = await stores.users.findByPrivateTokenDigest(digest);
  if (owner) {
    return { identity: { user: owner, method: "private_token", scopes: FULL_SCOPES }, expiresAt: null };
  }

  const pat = await stores.personalAccessTokens.findByDigest(digest);
  if (!pat || pat.revoked) return null;
  const expiresAt = pat.expires_at === null ? null : Date.parse(pat.expires_at);
  if (expiresAt !== null && expiresAt <= nowMs) return null;
  const user = await stores.users.findById(pat.user_id);
  if (!user) return null;
  return { identity: { user, method: "personal_access_token", scopes: pat.scopes }, expiresAt };
}

/**
 * The actor after `sudo`: only administrators may act as another (active) user, named by id
 * (digits) or username, within the scopes of the administrator's credentials.
 */
export async function applySudo(runtime: ServiceRuntime, actor: Actor, target: string): Promise<Actor> {
  // A narrower token (read_user) of an administrator must not reach another user's account.
  if (!scopesAllow(actor.scopes, FULL_SCOPES)) throw forbidden({ reason: "insufficient_scope" });
  if (!actor.user.is_admin) throw forbidden({ reason: "sudo_requires_admin" });
  const user = await sudoTarget(runtime, target);
  if (!user || !isActive(user)) {
    throw new DomainError({ kind: "not_found", reason: "sudo_target_unknown", target });
  }
  return { user, method: actor.method, sudoBy: actor.user, scopes: actor.scopes };
}

/**
 * The user `sudo` names: digits are an id, anything else a username. An id past the database's
 * integer range, or a name with a NUL character (which no username holds and PostgreSQL cannot
 * even compare), names nobody without a lookup.
 */
function sudoTarget(runtime: ServiceRuntime, target: string): Promise<User | undefined> | undefined {
  const { users } = runtime.stores;
  if (isDigits(target)) return Number(target) <= MAX_INTEGER ? users.findById(Number(target)) : undefined;
  return target.includes("\0") ? undefined : users.findByUsername(target);
}
