import { AccessLevel, type Page, type PageRequest } from "@kiln/domain";
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { CiRunnersTable, Database } from "../database.js";
import { guardUnique } from "../errors.js";
import { flag, now, paginate } from "../queries.js";
import { memberProjectIds } from "./project-scopes.js";

const FLAGS = ["active", "is_shared", "run_untagged", "locked"] as const;

/** A runner as stored, with its flags as booleans and its tags read; the sealed token stays behind. */
export type CiRunner = Omit<
  Selectable<CiRunnersTable>,
  (typeof FLAGS)[number] | "tag_list" | "token_sealed"
> & {
  active: boolean;
  is_shared: boolean;
  run_untagged: boolean;
  locked: boolean;
  tag_list: string[];
};

/** What a new runner is made of. */
export type NewCiRunner = Omit<
  Insertable<CiRunnersTable>,
  "id" | "created_at" | (typeof FLAGS)[number] | "tag_list"
> & { is_shared: boolean; run_untagged: boolean; locked: boolean; tag_list: string[] };

/** What an update may change. */
export type CiRunnerPatch = Omit<
  Updateable<CiRunnersTable>,
  "id" | "created_at" | "token_digest" | "token_sealed" | (typeof FLAGS)[number] | "tag_list"
> & { active?: boolean; run_untagged?: boolean; locked?: boolean; tag_list?: string[] };

/** Which runners a list draws from. */
export type CiRunnerSource =
  | { kind: "all" }
  /** The specific runners of a project and every shared runner (8.x's `owned_or_shared`). */
  | { kind: "project"; projectId: number }
  /** The specific runners of the projects a user masters (8.x's `ci_authorized_runners`). */
  | { kind: "mastered"; userId: number };

/** Which runners a list shows (8.x's `scope`). */
export type CiRunnerScope = "active" | "paused" | "online" | "specific" | "shared" | null;

/** A runner is online when it asked for a build within the last hour (8.x's `LAST_CONTACT_TIME`). */
export const ONLINE_WITHIN_MS = 3600_000;

const COLUMNS = [
  "id",
  "token_digest",
  "description",
  "active",
  "is_shared",
  "name",
  "version",
  "revision",
  "platform",
  "architecture",
  "tag_list",
  "run_untagged",
  "locked",
  "contacted_at",
  "created_at",
] as const;

function toRunner(row: Omit<Selectable<CiRunnersTable>, "token_sealed">): CiRunner {
  return {
    ...row,
    active: row.active === 1,
    is_shared: row.is_shared === 1,
    run_untagged: row.run_untagged === 1,
    locked: row.locked === 1,
    tag_list: JSON.parse(row.tag_list) as string[],
  };
}

function storedPatch(patch: CiRunnerPatch): Updateable<CiRunnersTable> {
  const { active, run_untagged, locked, tag_list, ...rest } = patch;
  return {
    ...rest,
    ...(active === undefined ? {} : { active: flag(active) }),
    ...(run_untagged === undefined ? {} : { run_untagged: flag(run_untagged) }),
    ...(locked === undefined ? {} : { locked: flag(locked) }),
    ...(tag_list === undefined ? {} : { tag_list: JSON.stringify(tag_list) }),
  };
}

/** CI runners and the projects specific runners serve. */
export class CiRunnerStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a new runner, attached to `projectId` when given (a specific runner). */
  async create(runner: NewCiRunner, projectId: number | null): Promise<CiRunner> {
    const row = await guardUnique(() =>
      this.db
        .insertInto("ci_runners")
        .values({
          ...runner,
          is_shared: flag(runner.is_shared),
          run_untagged: flag(runner.run_untagged),
          locked: flag(runner.locked),
          tag_list: JSON.stringify(runner.tag_list),
          created_at: now(),
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow(),
    );
    if (projectId !== null) await this.link(row.id, projectId);
    return toRunner(row);
  }

  /** One runner, or undefined. */
  async find(id: number): Promise<CiRunner | undefined> {
    const row = await this.db
      .selectFrom("ci_runners")
      .select(COLUMNS)
      .where("id", "=", id)
      .executeTakeFirst();
    return row && toRunner(row);
  }

  /** The runner whose token has this digest, or undefined. */
  async findByTokenDigest(digest: string): Promise<CiRunner | undefined> {
    const row = await this.db
      .selectFrom("ci_runners")
      .select(COLUMNS)
      .where("token_digest", "=", digest)
      .executeTakeFirst();
    return row && toRunner(row);
  }

  /** The runner's token, sealed (shown to those who manage it). */
  async sealedToken(id: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom("ci_runners")
      .select("token_sealed")
      .where("id", "=", id)
      .executeTakeFirst();
    return row?.token_sealed;
  }

  /** Changes a runner; answers it as it is now. */
  async update(id: number, patch: CiRunnerPatch): Promise<CiRunner | undefined> {
    const row = await this.db
      .updateTable("ci_runners")
      .set(storedPatch(patch))
      .where("id", "=", id)
      .returning(COLUMNS)
      .executeTakeFirst();
    return row && toRunner(row);
  }

  /** Deletes a runner (its project links go with it). True when it existed. */
  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom("ci_runners").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Attaches a specific runner to a project; false when it already was. */
  async link(runnerId: number, projectId: number): Promise<boolean> {
    const result = await this.db
      .insertInto("ci_runner_projects")
      .values({ runner_id: runnerId, project_id: projectId, created_at: now() })
      .onConflict((oc) => oc.columns(["runner_id", "project_id"]).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Detaches a runner from a project; true when it was attached. */
  async unlink(runnerId: number, projectId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom("ci_runner_projects")
      .where("runner_id", "=", runnerId)
      .where("project_id", "=", projectId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The ids of the projects a runner serves, oldest link first. */
  async projectIds(runnerId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom("ci_runner_projects")
      .select("project_id")
      .where("runner_id", "=", runnerId)
      .orderBy("id")
      .execute();
    return rows.map((row) => row.project_id);
  }

  /**
   * A page of runners from `source`, oldest first, in `scope` (null: all of them). A specific
   * runner enabled on several of a user's projects is listed once.
   */
  async list(source: CiRunnerSource, scope: CiRunnerScope, page: PageRequest): Promise<Page<CiRunner>> {
    let query = this.db.selectFrom("ci_runners").select(COLUMNS);
    if (source.kind === "project") {
      const { projectId } = source;
      query = query.where((eb) =>
        eb.or([
          eb(
            "id",
            "in",
            eb.selectFrom("ci_runner_projects").select("runner_id").where("project_id", "=", projectId),
          ),
          eb("is_shared", "=", 1),
        ]),
      );
    }
    if (source.kind === "mastered") {
      query = query.where("is_shared", "=", 0).where("id", "in", this.runnersOfMastered(source.userId));
    }
    if (scope === "active") query = query.where("active", "=", 1);
    if (scope === "paused") query = query.where("active", "=", 0);
    if (scope === "specific") query = query.where("is_shared", "=", 0);
    if (scope === "shared") query = query.where("is_shared", "=", 1);
    if (scope === "online") {
      query = query.where("contacted_at", ">", new Date(Date.now() - ONLINE_WITHIN_MS).toISOString());
    }
    const { rows, total } = await paginate(this.db, query.orderBy("id"), page, "exact");
    return { items: rows.map(toRunner), page: page.page, perPage: page.perPage, total };
  }

  /**
   * True when the runner is specific and enabled on a project the user masters (8.x's
   * `ci_authorized_runners`, which decides who may see, change and remove a specific runner).
   */
  async managedBy(runnerId: number, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom("ci_runners")
      .select("id")
      .where("id", "=", runnerId)
      .where("is_shared", "=", 0)
      .where("id", "in", this.runnersOfMastered(userId))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The ids of the runners enabled on projects the user holds master or owner access to. */
  private runnersOfMastered(userId: number) {
    return this.db
      .selectFrom("ci_runner_projects")
      .select("runner_id")
      .where("project_id", "in", (eb) =>
        eb
          .selectFrom("projects")
          .select("projects.id")
          .where((inner) => inner("projects.id", "in", memberProjectIds(inner, userId, AccessLevel.MASTER))),
      );
  }

  /** The instance-wide registration token of shared runners, sealed, or null before it was made. */
  async registrationToken(): Promise<string | null> {
    const row = await this.db
      .selectFrom("application_settings")
      .select("runners_registration_token_sealed")
      .where("id", "=", 1)
      .executeTakeFirst();
    return row?.runners_registration_token_sealed ?? null;
  }

  /**
   * Stores the registration token unless one exists (two processes making one at once keep the
   * first); answers the one stored.
   */
  async keepRegistrationToken(sealed: string): Promise<string> {
    await this.db
      .updateTable("application_settings")
      .set({ runners_registration_token_sealed: sealed })
      .where("id", "=", 1)
      .where("runners_registration_token_sealed", "is", null)
      .execute();
    return (await this.registrationToken()) ?? sealed;
  }
}
