import type { ApplicationSettings } from "@kiln/domain";
import type { Kysely } from "kysely";
import type { Database } from "../database.js";
import { now } from "../queries.js";

const ROW_ID = 1;

/** When the settings row was created and last changed. */
export interface SettingsStamps {
  created_at: string;
  updated_at: string;
}

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

  /**
   * When the settings were created (the migration that added the column creates the row) and last
   * changed. A row removed by hand is created again, with the defaults, as GitLab does on first use.
   */
  async stamps(): Promise<SettingsStamps> {
    const select = () =>
      this.db
        .selectFrom("application_settings")
        .select(["created_at", "updated_at"])
        .where("id", "=", ROW_ID)
        .executeTakeFirst();
    const row = await select();
    if (row) return row;
    const stamp = now();
    await this.db
      .insertInto("application_settings")
      .values({ id: ROW_ID, data: "{}", created_at: stamp, updated_at: stamp })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    return (await select()) as SettingsStamps;
  }

  /** Stores the settings that differ from the defaults, replacing what was stored. */
  async write(changed: Partial<ApplicationSettings>): Promise<void> {
    const data = JSON.stringify(changed);
    const updated_at = now();
    await this.db
      .insertInto("application_settings")
      .values({ id: ROW_ID, data, created_at: updated_at, updated_at })
      .onConflict((oc) => oc.column("id").doUpdateSet({ data, updated_at }))
      .execute();
  }
}
