import type { User } from "@kiln/domain";

/** How a request authenticated. */
export type AuthMethod = "private_token" | "personal_access_token" | "oauth_token" | "password";

interface TokenEntry {
  userId: number;
  method: AuthMethod;
  /** Epoch ms after which the token stops working (personal access tokens with an expiry, OAuth tokens). */
  expiresAt: number | null;
  scopes: readonly string[];
}

/** A cached identity: the user, how the token proved it, and what the token may do. */
export interface CachedIdentity {
  user: User;
  method: AuthMethod;
  scopes: readonly string[];
}

/**
 * Remembers which user a token digest belongs to, and the user, so a request costs no query.
 * Only hits are remembered (a token created elsewhere works at once), and every write to a user
 * or token calls {@link forgetUser}, so a blocked user or revoked token stops working at once.
 * Only valid within one process: a server sharing its database with others runs without it.
 */
export class IdentityCache {
  readonly #tokens = new Map<string, TokenEntry>();
  readonly #users = new Map<number, User>();

  constructor(private readonly capacity = 50_000) {}

  /**
   * The cached identity for a token digest, or undefined. OAuth access tokens are kept under
   * `oauth:<digest>`, so that one is never taken for a private token (and the other way round).
   */
  lookup(digest: string, nowMs: number): CachedIdentity | undefined {
    const entry = this.#tokens.get(digest);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && entry.expiresAt <= nowMs) {
      this.#tokens.delete(digest);
      return undefined;
    }
    const user = this.#users.get(entry.userId);
    return user && { user, method: entry.method, scopes: entry.scopes };
  }

  /** Remembers a successful lookup. */
  remember(digest: string, identity: CachedIdentity, expiresAt: number | null): void {
    const { user, method, scopes } = identity;
    if (this.#tokens.size >= this.capacity) this.#tokens.clear();
    if (this.#users.size >= this.capacity) this.#users.clear();
    this.#tokens.set(digest, { userId: user.id, method, expiresAt, scopes });
    this.#users.set(user.id, user);
  }

  /** Drops a user and every token digest that leads to them. */
  forgetUser(userId: number): void {
    this.#users.delete(userId);
    for (const [digest, entry] of this.#tokens) if (entry.userId === userId) this.#tokens.delete(digest);
  }
}
