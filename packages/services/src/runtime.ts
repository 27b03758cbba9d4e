import { type ApplicationSettings, withDefaults } from "@kiln/domain";
import type { Stores } from "@kiln/storage-kysely";
import { IdentityCache } from "./auth/identity-cache.js";
import { argon2idHasher, type PasswordHasher } from "./security/passwords.js";
import { SecretBox } from "./security/tokens.js";

/** What the services need from their host, once per process. */
export interface RuntimeOptions {
  stores: Stores;
  /** 32 bytes kept outside the database; seals the private tokens. */
  secretKey: Buffer;
  /**
   * True when this process is the only one writing the database (the SQLite default): token
   * lookups and settings are then cached in memory. False when several servers share PostgreSQL.
   */
  singleProcess: boolean;
  /** Where files live (uploads, and later repositories); null keeps nothing on disk. */
  dataDir: string | null;
  passwords?: PasswordHasher;
}

/** The long-lived part of every request's context. */
export class ServiceRuntime {
  readonly stores: Stores;
  readonly dataDir: string | null;
  readonly secrets: SecretBox;
  readonly passwords: PasswordHasher;
  /** Null when caching is off (several processes share the database). */
  readonly identities: IdentityCache | null;
  #settings: ApplicationSettings | null = null;
  readonly #cacheSettings: boolean;

  constructor(options: RuntimeOptions) {
    this.stores = options.stores;
    this.dataDir = options.dataDir;
    this.secrets = new SecretBox(options.secretKey);
    this.passwords = options.passwords ?? argon2idHasher;
    this.identities = options.singleProcess ? new IdentityCache() : null;
    this.#cacheSettings = options.singleProcess;
  }

  /** The application settings, merged over the defaults. */
  async settings(): Promise<ApplicationSettings> {
    if (this.#settings) return this.#settings;
    const settings = withDefaults(await this.stores.settings.read());
    if (this.#cacheSettings) this.#settings = settings;
    return settings;
  }

  /** Called after the settings change. */
  settingsChanged(): void {
    this.#settings = null;
  }

  /** Called after any change to a user or their tokens. */
  userChanged(userId: number): void {
    this.identities?.forgetUser(userId);
  }
}
