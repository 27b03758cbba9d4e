import type { Upload } from "@kiln/domain";
import type { Kysely } from "kysely";
import type { Database } from "../database.js";
import { guardUnique } from "../errors.js";
import { now } from "../queries.js";

/** What a new upload row records. */
export type NewUpload = Omit<Upload, "id" | "created_at">;

/** Files attached to projects: one row per file, found by project and secret. */
export class UploadStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records an upload; raises UniqueViolation when the project already has one under this secret. */
  async create(upload: NewUpload): Promise<Upload> {
    return guardUnique(() =>
      this.db
        .insertInto("uploads")
        .values({ ...upload, created_at: now() })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  }

  /** The upload of a project under a secret, or undefined. */
  async find(projectId: number, secret: string): Promise<Upload | undefined> {
    return this.db
      .selectFrom("uploads")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("secret", "=", secret)
      .executeTakeFirst();
  }

  /** The secrets of every upload of a project. */
  async secretsOf(projectId: number): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom("uploads")
      .select("secret")
      .where("project_id", "=", projectId)
      .execute();
    return new Set(rows.map((row) => row.secret));
  }

  /** How many files a project has (for tests and reports). */
  async countForProject(projectId: number): Promise<number> {
    const row = await this.db
      .selectFrom("uploads")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("project_id", "=", projectId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
