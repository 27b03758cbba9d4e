import type { Kysely, Selectable } from "kysely";
import type { CiTriggersTable, CiVariablesTable, Database } from "../database.js";
import { guardUnique } from "../errors.js";
import { now } from "../queries.js";

/** A project's secret variable; its value stays sealed here. */
export type CiVariable = Selectable<CiVariablesTable>;

/** A project's trigger; its token is sealed (shown to masters) and looked up by digest. */
export type CiTrigger = Selectable<CiTriggersTable>;

/** Secret variables of projects. Keys are unique per project (a duplicate is a `UniqueViolation`). */
export class CiVariableStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** A project's variables, in the order they were added. */
  list(projectId: number): Promise<CiVariable[]> {
    return this.db
      .selectFrom("ci_variables")
      .selectAll()
      .where("project_id", "=", projectId)
      .orderBy("id")
      .execute();
  }

  /** One variable by key, or undefined. */
  find(projectId: number, key: string): Promise<CiVariable | undefined> {
    return this.db
      .selectFrom("ci_variables")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("key", "=", key)
      .executeTakeFirst();
  }

  /** Adds a variable. */
  create(projectId: number, key: string, valueSealed: string): Promise<CiVariable> {
    return guardUnique(() =>
      this.db
        .insertInto("ci_variables")
        .values({ project_id: projectId, key, value_sealed: valueSealed, created_at: now() })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  }

  /** Changes a variable's value; undefined when there is none by that key. */
  update(projectId: number, key: string, valueSealed: string): Promise<CiVariable | undefined> {
    return this.db
      .updateTable("ci_variables")
      .set({ value_sealed: valueSealed })
      .where("project_id", "=", projectId)
      .where("key", "=", key)
      .returningAll()
      .executeTakeFirst();
  }

  /** Removes a variable; answers it, or undefined when there was none. */
  delete(projectId: number, key: string): Promise<CiVariable | undefined> {
    return this.db
      .deleteFrom("ci_variables")
      .where("project_id", "=", projectId)
      .where("key", "=", key)
      .returningAll()
      .executeTakeFirst();
  }
}

/** Build triggers of projects. Deleting one keeps its row, with `deleted_at` set, as 8.x does. */
export class CiTriggerStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** A project's live triggers, oldest first. */
  list(projectId: number): Promise<CiTrigger[]> {
    return this.db
      .selectFrom("ci_triggers")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .execute();
  }

  /** The live trigger whose token has this digest, whatever its project, or undefined. */
  findByDigest(digest: string): Promise<CiTrigger | undefined> {
    return this.db
      .selectFrom("ci_triggers")
      .selectAll()
      .where("token_digest", "=", digest)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
  }

  /** Adds a trigger. */
  create(projectId: number, tokenDigest: string, tokenSealed: string): Promise<CiTrigger> {
    const stamp = now();
    return guardUnique(() =>
      this.db
        .insertInto("ci_triggers")
        .values({
          project_id: projectId,
          token_digest: tokenDigest,
          token_sealed: tokenSealed,
          created_at: stamp,
          updated_at: stamp,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  }

  /** Marks a trigger used now. */
  async touch(id: number): Promise<void> {
    await this.db.updateTable("ci_triggers").set({ last_used_at: now() }).where("id", "=", id).execute();
  }

  /** Soft-deletes a trigger; answers it as it is now, or undefined when it was not live. */
  delete(id: number): Promise<CiTrigger | undefined> {
    const stamp = now();
    return this.db
      .updateTable("ci_triggers")
      .set({ deleted_at: stamp, updated_at: stamp })
      .where("id", "=", id)
      .where("deleted_at", "is", null)
      .returningAll()
      .executeTakeFirst();
  }
}
