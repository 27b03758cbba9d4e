import type { User } from "@kiln/domain";
import type { Generated } from "kysely";

/**
 * How an entity is stored: booleans become 0/1 integers so one schema serves SQLite and
 * PostgreSQL alike; timestamps are ISO 8601 text, which sorts chronologically on both.
 */
export type Stored<E> = { [K in keyof E]: E[K] extends boolean ? number : E[K] };

/** `users`: accounts, with their secrets. */
export interface UsersTable extends Omit<Stored<User>, "id"> {
  id: Generated<number>;
  password_hash: string;
  /** SHA-256 of the private token, for lookup. */
  private_token_digest: string;
  /** The private token sealed with the server key, so `POST /session` can return it. */
  private_token_sealed: string;
}

/** `namespaces`: one per user (kind `user`) and one per group (kind `group`); paths are unique across both. */
export interface NamespacesTable {
  id: Generated<number>;
  name: string;
  path: string;
  kind: "user" | "group";
  owner_id: number | null;
  description: Generated<string>;
  visibility_level: Generated<number>;
  share_with_group_lock: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** `personal_access_tokens`: stored as SHA-256 digests only. */
export interface PersonalAccessTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_digest: string;
  revoked: number;
  created_at: string;
  expires_at: string | null;
}

/** `ssh_keys`: public keys of users. */
export interface SshKeysTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  key: string;
  fingerprint: string;
  created_at: string;
}

/** `application_settings`: one row (id 1) holding the changed settings as JSON over the defaults. */
export interface ApplicationSettingsTable {
  id: number;
  data: string;
  updated_at: string;
}

/** The whole schema, as Kysely sees it. */
export interface Database {
  users: UsersTable;
  namespaces: NamespacesTable;
  personal_access_tokens: PersonalAccessTokensTable;
  ssh_keys: SshKeysTable;
  application_settings: ApplicationSettingsTable;
}
