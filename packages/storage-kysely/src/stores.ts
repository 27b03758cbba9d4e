import type { Kysely } from "kysely";
import type { Database } from "./database.js";
import { NamespaceStore } from "./stores/namespaces.js";
import { SettingsStore } from "./stores/settings.js";
import { SshKeyStore } from "./stores/ssh-keys.js";
import { PersonalAccessTokenStore } from "./stores/tokens.js";
import { UserStore } from "./stores/users.js";

/**
 * Every store, bound to one connection or one transaction. Use cases reach the database only
 * through these; `transaction` runs a function with stores bound to a single transaction.
 */
export class Stores {
  readonly users: UserStore;
  readonly namespaces: NamespaceStore;
  readonly personalAccessTokens: PersonalAccessTokenStore;
  readonly sshKeys: SshKeyStore;
  readonly settings: SettingsStore;

  constructor(readonly db: Kysely<Database>) {
    this.users = new UserStore(db);
    this.namespaces = new NamespaceStore(db);
    this.personalAccessTokens = new PersonalAccessTokenStore(db);
    this.sshKeys = new SshKeyStore(db);
    this.settings = new SettingsStore(db);
  }

  /** Runs `work` in one transaction (or joins the current one): all of it is written, or none. */
  async transaction<T>(work: (tx: Stores) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this);
    return this.db.transaction().execute((trx) => work(new Stores(trx)));
  }
}
