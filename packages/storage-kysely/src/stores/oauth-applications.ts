import type { OAuthApplication } from "@kiln/domain";
import type { Kysely } from "kysely";
import type { Database } from "../database.js";
import { guardUnique } from "../errors.js";
import { now } from "../queries.js";

const COLUMNS = ["id", "owner_id", "name", "uid", "redirect_uri", "scopes", "created_at"] as const;

/** OAuth 2.0 clients; their secrets are kept as digests. */
export class OAuthApplicationStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Registers an application; raises UniqueViolation when its `uid` is taken. */
  async create(application: Omit<OAuthApplication, "id" | "created_at"> & { secret_digest: string }) {
    const stamp = now();
    return guardUnique(() =>
      this.db
        .insertInto("oauth_applications")
        .values({ ...application, created_at: stamp, updated_at: stamp })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow(),
    );
  }

  /** One application by id, or undefined. */
  async findById(id: number): Promise<OAuthApplication | undefined> {
    return this.db.selectFrom("oauth_applications").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  }

  /** The application whose client id is `uid`, with its secret's digest (to check a client), or undefined. */
  async findClient(uid: string): Promise<(OAuthApplication & { secret_digest: string }) | undefined> {
    return this.db
      .selectFrom("oauth_applications")
      .select([...COLUMNS, "secret_digest"])
      .where("uid", "=", uid)
      .executeTakeFirst();
  }

  /** The applications a user registered (`ownerId`), or every application (null), oldest first. */
  async list(ownerId: number | null): Promise<OAuthApplication[]> {
    return this.db
      .selectFrom("oauth_applications")
      .select(COLUMNS)
      .$if(ownerId !== null, (query) => query.where("owner_id", "=", ownerId))
      .orderBy("id")
      .execute();
  }

  /** Replaces the secret's digest. True if the application exists. */
  async replaceSecret(id: number, secretDigest: string): Promise<boolean> {
    const result = await this.db
      .updateTable("oauth_applications")
      .set({ secret_digest: secretDigest, updated_at: now() })
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes an application, and with it its grants and tokens. True if it existed. */
  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom("oauth_applications").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
