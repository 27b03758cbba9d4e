import type { OAuthAccessToken } from "@kiln/domain";
import type { Kysely } from "kysely";
import type { Database } from "../database.js";
import { guardUnique } from "../errors.js";
import { now } from "../queries.js";

const COLUMNS = [
  "id",
  "application_id",
  "resource_owner_id",
  "grant_id",
  "scopes",
  "expires_in",
  "created_at",
  "revoked_at",
] as const;

/** Which tokens a bulk revocation ends: an application's (optionally one user's), or a grant's. */
export type TokenSelection =
  | { applicationId: number; userId?: number; grantId?: undefined }
  | { grantId: number; applicationId?: undefined; userId?: undefined };

/** OAuth access tokens and their refresh tokens, kept as digests. */
export class OAuthTokenStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a new token pair by their digests. */
  async create(
    token: Omit<OAuthAccessToken, "id" | "created_at" | "revoked_at"> & {
      token_digest: string;
      refresh_token_digest: string | null;
    },
  ): Promise<OAuthAccessToken> {
    return guardUnique(() =>
      this.db
        .insertInto("oauth_access_tokens")
        .values({ ...token, created_at: now(), revoked_at: null })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow(),
    );
  }

  /** The token whose access token (or, with `refresh`, refresh token) has this digest, or undefined. */
  async findByDigest(digest: string, refresh = false): Promise<OAuthAccessToken | undefined> {
    return this.db
      .selectFrom("oauth_access_tokens")
      .select(COLUMNS)
      .where(refresh ? "refresh_token_digest" : "token_digest", "=", digest)
      .executeTakeFirst();
  }

  /**
   * Revokes one token pair. True for the one caller that did so (a refresh token rotates once),
   * false when it was revoked already.
   */
  async revoke(id: number): Promise<boolean> {
    const result = await this.db
      .updateTable("oauth_access_tokens")
      .set({ revoked_at: now() })
      .where("id", "=", id)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Revokes every live token of `selection`; answers the users whose tokens it revoked. */
  async revokeAll(selection: TokenSelection): Promise<number[]> {
    const { applicationId, userId, grantId } = selection;
    const rows = await this.db
      .updateTable("oauth_access_tokens")
      .set({ revoked_at: now() })
      .where("revoked_at", "is", null)
      .$if(grantId !== undefined, (query) => query.where("grant_id", "=", grantId as number))
      .$if(applicationId !== undefined, (query) =>
        query.where("application_id", "=", applicationId as number),
      )
      .$if(userId !== undefined, (query) => query.where("resource_owner_id", "=", userId as number))
      .returning("resource_owner_id")
      .execute();
    return [...new Set(rows.map((row) => row.resource_owner_id))];
  }

  /** The live (unrevoked) tokens a user granted to applications, oldest first. */
  async listAuthorized(userId: number): Promise<OAuthAccessToken[]> {
    return this.db
      .selectFrom("oauth_access_tokens")
      .select(COLUMNS)
      .where("resource_owner_id", "=", userId)
      .where("application_id", "is not", null)
      .where("revoked_at", "is", null)
      .orderBy("id")
      .execute();
  }
}
