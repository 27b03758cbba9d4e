import { join } from "node:path";
import { type ApplicationSettings, withDefaults } from "@kiln/domain";
import { RepositoryStore } from "@kiln/git";
import type { Stores } from "@kiln/storage-kysely";
import { DomainEvents } from "./domain-events.js";
import { IdentityCache } from "./security/identity-cache.js";
import { argon2idHasher, type PasswordHasher } from "./security/passwords.js";
import { GITLAB_SIGN_IN_LIMITS, type SignInLimits, SignInThrottle } from "./security/sign-in-throttle.js";
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
  /** Where files live (uploads, repositories); null keeps nothing on disk and hosts no repositories. */
  dataDir: string | null;
  /**
   * The public URL of the server (`KILN_BASE_URL`), for the links that records keep (push data);
   * default `http://localhost:8080`.
   */
  baseUrl?: string;
  /** The projects' repositories; default `<dataDir>/repositories`. */
  repositories?: RepositoryStore;
  passwords?: PasswordHasher;
  /** How many password sign-ins to let through; default GitLab 8.x's (see `SignInThrottle`). */
  signInLimits?: SignInLimits;
}

/** The long-lived part of every request's context. */
export class ServiceRuntime {
  readonly stores: Stores;
  readonly dataDir: string | null;
  /**
   * The public URL of the server, without a trailing slash. Writable: a server listening on a
   * port the system picks knows it only once listening, before it serves any request.
   */
  baseUrl: string;
  /** The projects' bare repositories, or null when there is no data dir. */
  readonly repositories: RepositoryStore | null;
  /**
   * The domain events this process committed, announced right after each commit: they wake the
   * outbox's dispatcher, which hands the durable copies to the subscribers (see `DomainEvents`).
   */
  readonly events = new DomainEvents();
  readonly secrets: SecretBox;
  readonly passwords: PasswordHasher;
  /** Counts password sign-in attempts per client address and failures per account. */
  readonly signInThrottle: SignInThrottle;
  /** Null when caching is off (several processes share the database). */
  readonly identities: IdentityCache | null;
  #settings: ApplicationSettings | null = null;
  readonly #cacheSettings: boolean;

  constructor(options: RuntimeOptions) {
    this.stores = options.stores;
    this.dataDir = options.dataDir;
    this.baseUrl = (options.baseUrl ?? "http://localhost:8080").replace(/\/+$/, "");
    this.repositories =
      options.repositories ??
      (options.dataDir === null ? null : new RepositoryStore(join(options.dataDir, "repositories")));
    this.secrets = new SecretBox(options.secretKey);
    this.passwords = options.passwords ?? argon2idHasher;
    this.signInThrottle = new SignInThrottle(options.signInLimits ?? GITLAB_SIGN_IN_LIMITS);
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
