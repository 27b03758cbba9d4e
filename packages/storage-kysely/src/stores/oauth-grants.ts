import type { OAuthGrant } from "@kiln/domain";
import type { Kysely } from "kysely";
import type { Database } from "../database.js";
import { now } from "../queries.js";

const COLUMNS = [
  "id",
  "application_id",
  "resource_owner_id",
  "redirect_uri",
  "scopes",
  "code_challenge",
  "code_challenge_method",
  "expires_at",
  "created_at",
  "revoked_at",
] as const;

/** Authorization codes, kept as digests; each may be redeemed once. */
export class OAuthGrantStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a new grant by its code's digest. */
  async create(grant: Omit<OAuthGrant, "id" | "created_at" | "revoked_at"> & { code_digest: string }) {
    return this.db
      .insertInto("oauth_access_grants")
      .values({ ...grant, created_at: now(), revoked_at: null })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
  }

  /** The grant whose code has this digest, whatever its state, or undefined. */
  async findByCodeDigest(digest: string): Promise<OAuthGrant | undefined> {
    return this.db
      .selectFrom("oauth_access_grants")
      .select(COLUMNS)
      .where("code_digest", "=", digest)
      .executeTakeFirst();
  }

  /**
   * Marks a grant used. True for the one caller that did so; false when it was used (or revoked)
   * already: one conditional update, so two redemptions at once cannot both win.
   */
  async redeem(id: number): Promise<boolean> {
    const result = await this.db
      .updateTable("oauth_access_grants")
      .set({ revoked_at: now() })
      .where("id", "=", id)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
