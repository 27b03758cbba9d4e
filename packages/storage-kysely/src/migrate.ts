import { type Kysely, Migrator } from "kysely";
import type { Database } from "./database.js";
import { migrationProvider } from "./migrations/index.js";

/** Outcome of a migration run: the names applied now (empty when already current). */
export interface MigrationReport {
  applied: string[];
}

/**
 * Brings the schema to the latest version. Kysely's migrator reports failures instead of throwing;
 * this rethrows them, so a failed migration stops the server at start.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationReport> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName;
    throw new Error(
      `migration ${failed ?? "(unknown)"} failed: ${String((error as Error).message ?? error)}`,
      {
        cause: error,
      },
    );
  }
  return { applied: (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName) };
}
