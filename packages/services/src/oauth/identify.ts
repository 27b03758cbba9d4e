import { isActive, scopeList } from "@kiln/domain";
import type { Identity } from "../auth/identify.js";
import type { ServiceRuntime } from "../runtime.js";
import { tokenDigest } from "../security/tokens.js";

/** When an OAuth access token stops working, in epoch ms. */
export function accessTokenExpiry(token: { created_at: string; expires_in: number }): number {
  return Date.parse(token.created_at) + token.expires_in * 1000;
}

/**
 * Who an OAuth access token belongs to, with the scopes it was granted, or null when it is
 * unknown, revoked, expired, or its user is blocked. Cached like private tokens (under its own
 * key), until it expires or its user's tokens change (a revocation forgets them at once).
 */
export function identifyOAuthToken(
  runtime: ServiceRuntime,
  token: string,
): Identity | null | Promise<Identity | null> {
  const digest = tokenDigest(token);
  const nowMs = Date.now();
  return runtime.identities?.lookup(`oauth:${digest}`, nowMs) ?? lookUpOAuthToken(runtime, digest, nowMs);
}

async function lookUpOAuthToken(
  runtime: ServiceRuntime,
  digest: string,
  nowMs: number,
): Promise<Identity | null> {
  const found = await runtime.stores.oauthTokens.findByDigest(digest);
  if (!found || found.revoked_at !== null) return null;
  const expiresAt = accessTokenExpiry(found);
  if (expiresAt <= nowMs) return null;
  const user = await runtime.stores.users.findById(found.resource_owner_id);
  if (!user || !isActive(user)) return null;
  const identity: Identity = { user, method: "oauth_token", scopes: scopeList(found.scopes) };
  runtime.identities?.remember(`oauth:${digest}`, identity, expiresAt);
  return identity;
}
