import { ACCESS_TOKEN_SECONDS, type OAuthAccessToken } from "@kiln/domain";
import type { Stores } from "@kiln/storage-kysely";
import { generateToken, tokenDigest } from "../security/tokens.js";

/** A freshly issued token pair, as the token endpoint answers it. */
export interface IssuedToken {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
  /** Epoch seconds, as Doorkeeper answers it. */
  created_at: number;
}

/** Issues an access token and its refresh token (stored as digests), for 7200 s. */
export async function issueToken(
  stores: Stores,
  grant: Pick<OAuthAccessToken, "application_id" | "resource_owner_id" | "grant_id" | "scopes">,
): Promise<IssuedToken> {
  const accessToken = generateToken(40);
  const refreshToken = generateToken(40);
  const record = await stores.oauthTokens.create({
    ...grant,
    token_digest: tokenDigest(accessToken),
    refresh_token_digest: tokenDigest(refreshToken),
    expires_in: ACCESS_TOKEN_SECONDS,
  });
  return {
    access_token: accessToken,
    token_type: "bearer",
    expires_in: record.expires_in,
    refresh_token: refreshToken,
    scope: record.scopes,
    created_at: Math.floor(Date.parse(record.created_at) / 1000),
  };
}
