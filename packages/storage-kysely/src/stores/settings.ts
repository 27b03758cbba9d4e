import type { ApplicationSettings } from "@kiln/domain";
import type { Kysely } from "kysely";
import type { Database } from "../database.js";
import { now } from "../queries.js";

const ROW_ID = 1;

/** The application settings row: the changed settings as JSON, merged over the defaults by the caller. */
export class SettingsStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The settings that were changed from their defaults. */
  async read(): Promise<Partial<ApplicationSettings>> {
    const row = await this.db
      .selectFrom("application_settings")
      .select("data")
      .where("id", "=", ROW_ID)
      .executeTakeFirst();
    return row ? (JSON.parse(row.data) as Partial<ApplicationSettings>) : {};
  }

  /** When the settings were last changed, or null while they are all defaults. */
  async updatedAt(): Promise<string | null> {
    const row = await this.db
      .selectFrom("application_settings")
      .select("updated_at")
      .where("id", "=", ROW_ID)
      .executeTakeFirst();
    return row?.updated_at ?? null;
  }

  /** Stores the settings that differ from the defaults, replacing what was stored. */
  async write(changed: Partial<ApplicationSettings>): Promise<void> {
    const data = JSON.stringify(changed);
    const updated_at = now();
    await this.db
      .insertInto("application_settings")
      .values({ id: ROW_ID, data, updated_at })
      .onConflict((oc) => oc.column("id").doUpdateSet({ data, updated_at }))
      .execute();
  }
}
