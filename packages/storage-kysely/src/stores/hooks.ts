import {
  HOOK_FLAGS,
  type HookFlag,
  type HookFlags,
  type Page,
  type PageRequest,
  type ProjectHook,
} from "@kiln/domain";
import type { Kysely } from "kysely";
import type { Database } from "../database.js";
import { flag, now, paginate, withBooleans } from "../queries.js";

/** Every column of a hook but its sealed token and `updated_at`. */
const HOOK_COLUMNS = ["id", "project_id", "url", "created_at", ...HOOK_FLAGS] as const;

const toHook = (row: Record<string, unknown>): ProjectHook => withBooleans<ProjectHook>(row, HOOK_FLAGS);

/** The flags as stored (0/1). */
function storedFlags(flags: Partial<HookFlags>): Partial<Record<keyof HookFlags, number>> {
  const stored: Partial<Record<keyof HookFlags, number>> = {};
  for (const name of HOOK_FLAGS) {
    const value = flags[name];
    if (value !== undefined) stored[name] = flag(value);
  }
  return stored;
}

/** What a new hook is made of: its URL, every flag, and its token already sealed (or null). */
export interface NewHook extends HookFlags {
  url: string;
  tokenSealed: string | null;
}

/** What an edit may change; undefined fields stay. A null `tokenSealed` removes the token. */
export interface HookPatch extends Partial<HookFlags> {
  url?: string | undefined;
  tokenSealed?: string | null | undefined;
}

/** Project webhooks. Their secret tokens are stored sealed and only read back by {@link sealedToken}. */
export class HookStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds a hook to a project. */
  async create(projectId: number, hook: NewHook): Promise<ProjectHook> {
    const { url, tokenSealed, ...flags } = hook;
    const timestamp = now();
    const row = await this.db
      .insertInto("project_hooks")
      .values({
        project_id: projectId,
        url,
        token_sealed: tokenSealed,
        created_at: timestamp,
        updated_at: timestamp,
        ...(storedFlags(flags) as Record<keyof HookFlags, number>),
      })
      .returning(HOOK_COLUMNS)
      .executeTakeFirstOrThrow();
    return toHook(row);
  }

  /** One hook of a project, or undefined (a hook of another project is undefined too). */
  async find(projectId: number, id: number): Promise<ProjectHook | undefined> {
    const row = await this.db
      .selectFrom("project_hooks")
      .select(HOOK_COLUMNS)
      .where("id", "=", id)
      .where("project_id", "=", projectId)
      .executeTakeFirst();
    return row && toHook(row);
  }

  /** One page of a project's hooks, oldest first. */
  async listForProject(projectId: number, page: PageRequest): Promise<Page<ProjectHook>> {
    const query = this.db
      .selectFrom("project_hooks")
      .select(HOOK_COLUMNS)
      .where("project_id", "=", projectId)
      .orderBy("id");
    const { rows, total } = await paginate(this.db, query, page, "exact");
    return { items: rows.map(toHook), page: page.page, perPage: page.perPage, total };
  }

  /** True when the project has a hook. */
  async anyForProject(projectId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom("project_hooks")
      .select("id")
      .where("project_id", "=", projectId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The project's hooks subscribed to `flag`'s kind of event, oldest first. */
  async subscribed(projectId: number, flag: HookFlag): Promise<ProjectHook[]> {
    const rows = await this.db
      .selectFrom("project_hooks")
      .select(HOOK_COLUMNS)
      .where("project_id", "=", projectId)
      .where(flag, "=", 1)
      .orderBy("id")
      .execute();
    return rows.map(toHook);
  }

  /** Applies a patch to a hook of a project; undefined when there is no such hook. */
  async update(projectId: number, id: number, patch: HookPatch): Promise<ProjectHook | undefined> {
    const { url, tokenSealed, ...flags } = patch;
    const row = await this.db
      .updateTable("project_hooks")
      .set({
        ...storedFlags(flags),
        ...(url !== undefined && { url }),
        ...(tokenSealed !== undefined && { token_sealed: tokenSealed }),
        updated_at: now(),
      })
      .where("id", "=", id)
      .where("project_id", "=", projectId)
      .returning(HOOK_COLUMNS)
      .executeTakeFirst();
    return row && toHook(row);
  }

  /** Deletes a hook of a project and answers it, or undefined when there was none. */
  async delete(projectId: number, id: number): Promise<ProjectHook | undefined> {
    const row = await this.db
      .deleteFrom("project_hooks")
      .where("id", "=", id)
      .where("project_id", "=", projectId)
      .returning(HOOK_COLUMNS)
      .executeTakeFirst();
    return row && toHook(row);
  }

  /** The sealed secret token of a hook of a project: null when it has none, undefined when there is no such hook. */
  async sealedToken(projectId: number, id: number): Promise<string | null | undefined> {
    const row = await this.db
      .selectFrom("project_hooks")
      .select("token_sealed")
      .where("id", "=", id)
      .where("project_id", "=", projectId)
      .executeTakeFirst();
    return row?.token_sealed;
  }
}
