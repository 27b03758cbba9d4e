import type { ProtectedBranch } from "@kiln/domain";
import type { Kysely } from "kysely";
import type { Database } from "../database.js";
import { flag, now, withBooleans } from "../queries.js";

const FLAGS = ["developers_can_push", "developers_can_merge"] as const;

const toRule = (row: Record<string, unknown>): ProtectedBranch => withBooleans<ProtectedBranch>(row, FLAGS);

/** The flags of a rule. */
export type ProtectionFlags = Pick<ProtectedBranch, (typeof FLAGS)[number]>;

/** Branch protection rules of projects. */
export class ProtectedBranchStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** A project's rules, by branch name. */
  async forProject(projectId: number): Promise<Map<string, ProtectedBranch>> {
    const rows = await this.db
      .selectFrom("protected_branches")
      .selectAll()
      .where("project_id", "=", projectId)
      .execute();
    return new Map(rows.map((row) => [row.name, toRule(row)]));
  }

  /** The rule of one branch, or undefined when it is not protected. */
  async find(projectId: number, name: string): Promise<ProtectedBranch | undefined> {
    const row = await this.db
      .selectFrom("protected_branches")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("name", "=", name)
      .executeTakeFirst();
    return row && toRule(row);
  }

  /** Protects a branch, or changes the flags of its existing rule (protecting twice is one rule). */
  async protect(projectId: number, name: string, flags: ProtectionFlags): Promise<ProtectedBranch> {
    const at = now();
    const stored = {
      developers_can_push: flag(flags.developers_can_push),
      developers_can_merge: flag(flags.developers_can_merge),
    };
    const row = await this.db
      .insertInto("protected_branches")
      .values({ project_id: projectId, name, ...stored, created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(["project_id", "name"]).doUpdateSet({ ...stored, updated_at: at }))
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRule(row);
  }

  /** Removes a branch's rule; true when there was one. */
  async unprotect(projectId: number, name: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("protected_branches")
      .where("project_id", "=", projectId)
      .where("name", "=", name)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
