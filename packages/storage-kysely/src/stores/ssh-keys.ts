import type { SshKey } from "@kiln/domain";
import type { Kysely } from "kysely";
import type { Database } from "../database.js";
import { guardUnique } from "../errors.js";
import { now } from "../queries.js";

/** SSH public keys of users. */
export class SshKeyStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The keys of a user, oldest first. */
  async listForUser(userId: number): Promise<SshKey[]> {
    return this.db.selectFrom("ssh_keys").selectAll().where("user_id", "=", userId).orderBy("id").execute();
  }

  /** One key of a user, or undefined (another user's key is undefined too). */
  async findForUser(userId: number, id: number): Promise<SshKey | undefined> {
    return this.db
      .selectFrom("ssh_keys")
      .selectAll()
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
  }

  /** True when any user already registered a key with this fingerprint. */
  async fingerprintTaken(fingerprint: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("ssh_keys")
      .select("id")
      .where("fingerprint", "=", fingerprint)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Adds a key; raises UniqueViolation when the fingerprint is registered already. */
  async create(key: Omit<SshKey, "id" | "created_at">): Promise<SshKey> {
    return guardUnique(() =>
      this.db
        .insertInto("ssh_keys")
        .values({ ...key, created_at: now() })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  }

  /** Deletes a key of a user. True if it existed. */
  async delete(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom("ssh_keys")
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
