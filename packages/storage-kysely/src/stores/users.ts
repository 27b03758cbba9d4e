import type { Page, PageRequest, User } from "@kiln/domain";
import { type Kysely, sql } from "kysely";
import type { Database, UsersTable } from "../database.js";
import { guardUnique } from "../errors.js";
import { containsIgnoringCase, definedOnly, flag, lowered, now, paginate, withBooleans } from "../queries.js";

/** The columns of a user, secrets excluded. */
export const USER_COLUMNS = [
  "id",
  "username",
  "email",
  "name",
  "state",
  "is_admin",
  "can_create_group",
  "projects_limit",
  "personal_projects_count",
  "external",
  "bio",
  "location",
  "organization",
  "skype",
  "linkedin",
  "twitter",
  "website_url",
  "theme_id",
  "color_scheme_id",
  "created_at",
  "updated_at",
  "confirmed_at",
  "last_sign_in_at",
  "current_sign_in_at",
  "two_factor_enabled_at",
] as const satisfies readonly (keyof User)[];

// Fails to compile when User gains a field the list above does not select.
type Unselected = Exclude<keyof User, (typeof USER_COLUMNS)[number]>;
const allSelected: Unselected extends never ? true : never = true;
void allSelected;

const BOOLEANS = ["is_admin", "can_create_group", "external"] as const;

/** A users row (secrets excluded) as the domain entity. */
export const toUser = (row: Record<string, unknown>): User => withBooleans<User>(row, BOOLEANS);

/** What a new account is made of: profile, password hash and the private token's two forms. */
export type NewUser = Omit<
  User,
  | "id"
  | "created_at"
  | "updated_at"
  | "last_sign_in_at"
  | "current_sign_in_at"
  | "personal_projects_count"
  | "two_factor_enabled_at"
> & {
  password_hash: string;
  private_token_digest: string;
  private_token_sealed: string;
};

/** Profile fields an update may change; undefined fields are left alone. */
export type UserPatch = {
  [K in keyof Omit<
    User,
    "id" | "created_at" | "updated_at" | "personal_projects_count" | "two_factor_enabled_at"
  >]?: User[K] | undefined;
} & { password_hash?: string | undefined };

/** Filters of the user list. */
export interface UserFilter {
  search?: string | undefined;
  /** Whether `search` also matches email addresses (administrators only: emails are private). */
  searchEmails?: boolean | undefined;
  username?: string | undefined;
  state?: User["state"] | undefined;
  external?: boolean | undefined;
}

/** Users and their credentials. */
export class UserStore {
  constructor(private readonly db: Kysely<Database>) {}

  private select() {
    return this.db.selectFrom("users").select(USER_COLUMNS);
  }

  /** The user with this id, or undefined. */
  async findById(id: number): Promise<User | undefined> {
    const row = await this.select().where("id", "=", id).executeTakeFirst();
    return row && toUser(row);
  }

  /** Users by id. */
  async findByIds(ids: readonly number[]): Promise<Map<number, User>> {
    if (ids.length === 0) return new Map();
    const rows = await this.select()
      .where("id", "in", [...new Set(ids)])
      .execute();
    return new Map(rows.map((row) => [row.id, toUser(row)]));
  }

  /** The user with this username, ignoring case, or undefined. */
  async findByUsername(username: string): Promise<User | undefined> {
    const row = await this.select().where(sql`lower(username)`, "=", lowered(username)).executeTakeFirst();
    return row && toUser(row);
  }

  /** The user with this email, ignoring case, or undefined. */
  async findByEmail(email: string): Promise<User | undefined> {
    const row = await this.select().where(sql`lower(email)`, "=", lowered(email)).executeTakeFirst();
    return row && toUser(row);
  }

  /** The user whose private token has this SHA-256 digest, or undefined. */
  async findByPrivateTokenDigest(digest: string): Promise<User | undefined> {
    const row = await this.select().where("private_token_digest", "=", digest).executeTakeFirst();
    return row && toUser(row);
  }

  /** The password hash of a user, for sign-in. */
  async passwordHash(id: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", id)
      .executeTakeFirst();
    return row?.password_hash;
  }

  /** The sealed private token of a user, for `POST /session`. */
  async sealedPrivateToken(id: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom("users")
      .select("private_token_sealed")
      .where("id", "=", id)
      .executeTakeFirst();
    return row?.private_token_sealed;
  }

  /** Gives the user a new private token (its digest and sealed form); the old one stops working. */
  async replacePrivateToken(id: number, token: { digest: string; sealed: string }): Promise<boolean> {
    const result = await this.db
      .updateTable("users")
      .set({ private_token_digest: token.digest, private_token_sealed: token.sealed, updated_at: now() })
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Creates the account; raises UniqueViolation if the username, email or token is taken. */
  async create(user: NewUser): Promise<User> {
    const at = now();
    const values: Omit<UsersTable, "id" | "personal_projects_count"> = {
      ...user,
      is_admin: flag(user.is_admin),
      can_create_group: flag(user.can_create_group),
      external: flag(user.external),
      created_at: at,
      updated_at: at,
      last_sign_in_at: null,
      current_sign_in_at: null,
      two_factor_enabled_at: null,
      otp_secret_sealed: null,
      otp_pending_secret_sealed: null,
      otp_last_step: null,
    };
    const row = await guardUnique(() =>
      this.db.insertInto("users").values(values).returning(USER_COLUMNS).executeTakeFirstOrThrow(),
    );
    return toUser(row);
  }

  /** Applies a patch and returns the updated user, or undefined if there is none with this id. */
  async update(id: number, patch: UserPatch): Promise<User | undefined> {
    const { is_admin, can_create_group, external, ...rest } = patch;
    const values: Partial<Omit<UsersTable, "id" | "personal_projects_count">> = {
      ...definedOnly(rest),
      updated_at: now(),
    };
    if (is_admin !== undefined) values.is_admin = flag(is_admin);
    if (can_create_group !== undefined) values.can_create_group = flag(can_create_group);
    if (external !== undefined) values.external = flag(external);
    const row = await guardUnique(() =>
      this.db
        .updateTable("users")
        .set(values)
        .where("id", "=", id)
        .returning(USER_COLUMNS)
        .executeTakeFirst(),
    );
    return row && toUser(row);
  }

  /** Adds `delta` to the count of projects in the user's personal namespace. */
  async addPersonalProjects(id: number, delta: number): Promise<void> {
    await this.db
      .updateTable("users")
      .set({ personal_projects_count: sql`personal_projects_count + ${delta}` })
      .where("id", "=", id)
      .execute();
  }

  /** Records a successful sign-in: the previous current sign-in becomes the last one. */
  async recordSignIn(id: number): Promise<void> {
    await this.db
      .updateTable("users")
      .set({ last_sign_in_at: sql`current_sign_in_at`, current_sign_in_at: now() })
      .where("id", "=", id)
      .execute();
  }

  /** Deletes the account (its namespace, tokens and keys go with it). True if it existed. */
  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom("users").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** True when any account exists (first start creates root only into an empty database). */
  async any(): Promise<boolean> {
    const row = await this.db.selectFrom("users").select("id").limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /** One page of users by id, filtered. */
  async list(filter: UserFilter, page: PageRequest): Promise<Page<User>> {
    let query = this.select().orderBy("id", "asc");
    if (filter.username !== undefined) {
      query = query.where(sql`lower(username)`, "=", lowered(filter.username));
    } else {
      if (filter.search) {
        const search = filter.search;
        const columns = filter.searchEmails ? ["username", "name", "email"] : ["username", "name"];
        query = query.where((eb) =>
          eb.or(columns.map((column) => containsIgnoringCase(this.db, sql.ref(column), search))),
        );
      }
      if (filter.state) query = query.where("state", "=", filter.state);
      if (filter.external !== undefined) query = query.where("external", "=", flag(filter.external));
    }
    const filtered =
      filter.username !== undefined || Boolean(filter.search) || filter.state || filter.external;
    const { rows, total } = await paginate(this.db, query, page, filtered ? "capped" : "exact");
    return { items: rows.map(toUser), page: page.page, perPage: page.perPage, total };
  }
}
