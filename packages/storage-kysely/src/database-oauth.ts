import type { OAuthAccessToken, OAuthApplication, OAuthGrant } from "@kiln/domain";
import type { Generated } from "kysely";

// The OAuth 2.0 tables of `Database` (migration 0016_oauth), apart from the rest for length.

/** `oauth_applications`: clients, their secret as a digest. */
export interface OAuthApplicationsTable extends Omit<OAuthApplication, "id"> {
  id: Generated<number>;
  secret_digest: string;
  updated_at: string;
}

/** `oauth_access_grants`: authorization codes, as digests. */
export interface OAuthAccessGrantsTable extends Omit<OAuthGrant, "id"> {
  id: Generated<number>;
  code_digest: string;
}

/** `oauth_access_tokens`: access and refresh tokens, as digests. */
export interface OAuthAccessTokensTable extends Omit<OAuthAccessToken, "id"> {
  id: Generated<number>;
  token_digest: string;
  refresh_token_digest: string | null;
}
