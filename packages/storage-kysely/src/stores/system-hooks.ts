import { SYSTEM_HOOK_FLAGS, type SystemHook } from "@kiln/domain";
import type { Kysely } from "kysely";
import type { Database } from "../database.js";
import { flag, now, withBooleans } from "../queries.js";

const COLUMNS = ["id", "url", "created_at", ...SYSTEM_HOOK_FLAGS] as const;

const toHook = (row: Record<string, unknown>): SystemHook => withBooleans<SystemHook>(row, SYSTEM_HOOK_FLAGS);

/** What a new system hook is made of; its token already sealed (or null). */
export interface NewSystemHook extends Omit<SystemHook, "id" | "created_at"> {
  tokenSealed: string | null;
}

/** Instance-wide hooks. Their secret tokens are stored sealed and only read back by {@link sealedToken}. */
export class SystemHookStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds a system hook. */
  async create(hook: NewSystemHook): Promise<SystemHook> {
    const timestamp = now();
    const row = await this.db
      .insertInto("system_hooks")
      .values({
        url: hook.url,
        token_sealed: hook.tokenSealed,
        push_events: flag(hook.push_events),
        tag_push_events: flag(hook.tag_push_events),
        enable_ssl_verification: flag(hook.enable_ssl_verification),
        created_at: timestamp,
        updated_at: timestamp,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return toHook(row);
  }

  /** True when there is a system hook. */
  async any(): Promise<boolean> {
    return (await this.db.selectFrom("system_hooks").select("id").limit(1).executeTakeFirst()) !== undefined;
  }

  /** Every system hook, oldest first. */
  async list(): Promise<SystemHook[]> {
    const rows = await this.db.selectFrom("system_hooks").select(COLUMNS).orderBy("id").execute();
    return rows.map(toHook);
  }

  /** One system hook, or undefined. */
  async find(id: number): Promise<SystemHook | undefined> {
    const row = await this.db
      .selectFrom("system_hooks")
      .select(COLUMNS)
      .where("id", "=", id)
      .executeTakeFirst();
    return row && toHook(row);
  }

  /** Deletes a system hook and answers it, or undefined when there was none. */
  async delete(id: number): Promise<SystemHook | undefined> {
    const row = await this.db
      .deleteFrom("system_hooks")
      .where("id", "=", id)
      .returning(COLUMNS)
      .executeTakeFirst();
    return row && toHook(row);
  }

  /** The sealed secret token of a system hook: null when it has none, undefined when there is no such hook. */
  async sealedToken(id: number): Promise<string | null | undefined> {
    const row = await this.db
      .selectFrom("system_hooks")
      .select("token_sealed")
      .where("id", "=", id)
      .executeTakeFirst();
    return row?.token_sealed;
  }
}
