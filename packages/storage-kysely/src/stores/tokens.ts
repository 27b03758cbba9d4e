import { type PersonalAccessToken, scopeList } from "@kiln/domain";
import type { Kysely } from "kysely";
import type { Database } from "../database.js";
import { guardUnique } from "../errors.js";
import { flag, now, withBooleans } from "../queries.js";

const COLUMNS = ["id", "user_id", "name", "revoked", "created_at", "expires_at", "scopes"] as const;
const toToken = (row: Record<string, unknown>): PersonalAccessToken => {
  const token = withBooleans<PersonalAccessToken & { scopes: unknown }>(row, ["revoked"]);
  return { ...token, scopes: scopeList(String(row["scopes"])) };
};

/** Personal access tokens, kept as SHA-256 digests. */
export class PersonalAccessTokenStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a new token by its digest. */
  async create(token: {
    user_id: number;
    name: string;
    token_digest: string;
    expires_at: string | null;
    /** Default `api`. */
    scopes?: readonly string[];
  }): Promise<PersonalAccessToken> {
    const row = await guardUnique(() =>
      this.db
        .insertInto("personal_access_tokens")
        .values({
          ...token,
          scopes: (token.scopes ?? ["api"]).join(" "),
          revoked: flag(false),
          created_at: now(),
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow(),
    );
    return toToken(row);
  }

  /** The token with this digest, whatever its state (the caller decides if it is usable). */
  async findByDigest(digest: string): Promise<PersonalAccessToken | undefined> {
    const row = await this.db
      .selectFrom("personal_access_tokens")
      .select(COLUMNS)
      .where("token_digest", "=", digest)
      .executeTakeFirst();
    return row && toToken(row);
  }

  /** The tokens of a user, oldest first. */
  async listForUser(userId: number): Promise<PersonalAccessToken[]> {
    const rows = await this.db
      .selectFrom("personal_access_tokens")
      .select(COLUMNS)
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute();
    return rows.map(toToken);
  }

  /** Revokes a token of a user. True if it existed and was active. */
  async revoke(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .updateTable("personal_access_tokens")
      .set({ revoked: flag(true) })
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .where("revoked", "=", flag(false))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
