/**
 * OAuth 2.0 and token scopes. A token's scopes say what it may do on its user's behalf: `api`,
 * everything the user may; `read_user`, reading the user's own account (`GET /user`) and nothing
 * else. Private tokens and passwords are the user's own secret, so they carry `api`.
 */

/** The scopes a token may be granted. */
export const TOKEN_SCOPES = ["api", "read_user"] as const;

/** One scope of {@link TOKEN_SCOPES}. */
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** True when `scope` is one Kiln knows. */
export function isTokenScope(scope: string): scope is TokenScope {
  return (TOKEN_SCOPES as readonly string[]).includes(scope);
}

/** True when credentials carrying `held` may run an operation that accepts any of `accepted`. */
export function scopesAllow(held: readonly string[], accepted: readonly string[]): boolean {
  return held.some((scope) => accepted.includes(scope));
}

/**
 * The client id of the built-in application of Kiln's VS Code extension: a public client, which
 * proves a code with its PKCE verifier since it can keep no secret.
 */
export const EDITOR_CLIENT_ID = "kiln-vscode";

/**
 * The out-of-band redirect URI (Doorkeeper's native redirect, as GitLab 8.x had it): the browser
 * is sent nowhere, and the consent page shows the code for the user to paste into the client.
 */
export const OOB_REDIRECT_URI = "urn:ietf:wg:oauth:2.0:oob";

/** Lifetime of an OAuth access token, in seconds (Doorkeeper's default, which GitLab keeps). */
export const ACCESS_TOKEN_SECONDS = 7200;

/** Lifetime of an authorization code, in milliseconds (RFC 6749 §4.1.2: ten minutes at most). */
export const AUTHORIZATION_CODE_MS = 10 * 60 * 1000;

/** A client of the OAuth 2.0 provider. Its secret is shown once and stored as a digest. */
export interface OAuthApplication {
  id: number;
  /** The user who registered it, or null for one an administrator created through the API. */
  owner_id: number | null;
  name: string;
  /** The public client id (`client_id`). */
  uid: string;
  /** The redirect URIs it may use, one per line. */
  redirect_uri: string;
  /** The scopes it may ask for, space-separated. */
  scopes: string;
  created_at: string;
}

/** An authorization code (by its digest) granted to an application by a user. */
export interface OAuthGrant {
  id: number;
  application_id: number;
  resource_owner_id: number;
  redirect_uri: string;
  scopes: string;
  code_challenge: string | null;
  code_challenge_method: "S256" | "plain" | null;
  expires_at: string;
  created_at: string;
  revoked_at: string | null;
}

/** An access token (and its refresh token), by their digests. */
export interface OAuthAccessToken {
  id: number;
  /** Null for the password grant, which names no client. */
  application_id: number | null;
  resource_owner_id: number;
  /** The authorization code it was issued for, or null. */
  grant_id: number | null;
  scopes: string;
  /** Seconds from `created_at` after which the access token stops working. */
  expires_in: number;
  created_at: string;
  revoked_at: string | null;
}

/** Splits a space-separated scope list (as OAuth sends and stores it). */
export function scopeList(scopes: string): string[] {
  return scopes.split(" ").filter((scope) => scope !== "");
}
