import { DomainError } from "@kiln/domain";

/** How many sign-in attempts the throttle lets through. */
export interface SignInLimits {
  /** Attempts (right or wrong) one client address may make per window: Rack::Attack's 10. */
  addressAttempts: number;
  /** The window of `addressAttempts`, in seconds: Rack::Attack's 60. */
  addressWindowSeconds: number;
  /** Failed attempts on one account before it is locked: Devise lockable's 10. */
  accountFailures: number;
  /** How long a locked account stays locked, in seconds: Devise lockable's 10 minutes. */
  lockSeconds: number;
  /** Failed git passwords (HTTP Basic) from one address that ban it: Rack::Attack's `maxretry` 10. */
  gitAddressFailures: number;
  /** The window of `gitAddressFailures`, in seconds: Rack::Attack's `findtime` 60. */
  gitAddressWindowSeconds: number;
  /** How long a banned address's git passwords are refused, in seconds: Rack::Attack's `bantime` 1 hour. */
  gitBanSeconds: number;
}

/** GitLab 8.x's limits (security-reliability §5.4, §5.5). */
export const GITLAB_SIGN_IN_LIMITS: Readonly<SignInLimits> = Object.freeze({
  addressAttempts: 10,
  addressWindowSeconds: 60,
  accountFailures: 10,
  lockSeconds: 600,
  gitAddressFailures: 10,
  gitAddressWindowSeconds: 60,
  gitBanSeconds: 3600,
});

/** The most entries each table keeps: past it the oldest are dropped, so memory stays bounded. */
const MAX_ENTRIES = 50_000;

interface Entry {
  count: number;
  /** Epoch ms when the entry stops mattering (window end, lock end, failures forgotten). */
  expiresAt: number;
}

/**
 * Counters whose expiry follows their last update: every update moves the entry to the end of
 * the map, so the entries expire in map order and a sweep stops at the first live one. All the
 * entries of one table must therefore last as long (a window, a lock, a ban: one table each).
 */
class ExpiringCounters {
  readonly #entries = new Map<string, Entry>();

  constructor(private readonly capacity: number) {}

  /** The live entry for `key`, or undefined; expired entries are swept first. */
  get(key: string, nowMs: number): Entry | undefined {
    this.#sweep(nowMs);
    return this.#entries.get(key);
  }

  set(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  /**
   * Counts one more event for `key` in a window of `windowMs` that starts with its first event;
   * answers the entry. Counted in place: the window keeps its end, and the table its order.
   */
  countInWindow(key: string, windowMs: number, nowMs: number): Entry {
    const entry = this.get(key, nowMs);
    if (entry) {
      entry.count += 1;
      return entry;
    }
    const first = { count: 1, expiresAt: nowMs + windowMs };
    this.set(key, first);
    return first;
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }

  #sweep(nowMs: number): void {
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt > nowMs) return;
      this.#entries.delete(key);
    }
  }
}

const secondsUntil = (atMs: number, nowMs: number): number => Math.max(1, Math.ceil((atMs - nowMs) / 1000));

/** The refusal of an attempt the throttle holds back until `untilMs`. */
const rateLimited = (
  reason: "sign_in_address_throttled" | "sign_in_account_locked" | "git_address_banned",
  untilMs: number,
  nowMs: number,
): DomainError =>
  new DomainError({ kind: "rate_limited", reason, retryAfterSeconds: secondsUntil(untilMs, nowMs) });

/**
 * Slows down password guessing, as GitLab 8.x did: per client address, at most
 * `addressAttempts` sign-ins per window, counted from the window's first attempt (Rack::Attack's
 * throttle of protected paths); per account, `accountFailures` failed attempts lock it for
 * `lockSeconds` (Devise lockable, unlocked by time), and a success forgets the failures. Failures
 * are forgotten too after `lockSeconds` without another (Devise keeps them until a success; a
 * table in memory must let go of them).
 *
 * Git over HTTP sends its password with every request of a clone, so its attempts are not
 * counted per address as sign-ins are; its failures are (Rack::Attack's `git_basic_auth`
 * Allow2Ban): `gitAddressFailures` of them within `gitAddressWindowSeconds` ban the address's git
 * passwords for `gitBanSeconds`. Successes neither count nor lift a ban.
 *
 * Kept in memory, per process, with a bounded number of entries: several servers sharing one
 * PostgreSQL database each count their own attempts.
 */
export class SignInThrottle {
  readonly #addresses = new ExpiringCounters(MAX_ENTRIES);
  readonly #accounts = new ExpiringCounters(MAX_ENTRIES);
  readonly #gitFailures = new ExpiringCounters(MAX_ENTRIES);
  readonly #gitBans = new ExpiringCounters(MAX_ENTRIES);

  constructor(
    readonly limits: Readonly<SignInLimits> = GITLAB_SIGN_IN_LIMITS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Counts an attempt from `address`; throws `rate_limited` when the address is over its limit. */
  countAttempt(address: string): void {
    const nowMs = this.clock();
    const windowMs = this.limits.addressWindowSeconds * 1000;
    const attempts = this.#addresses.countInWindow(address, windowMs, nowMs);
    if (attempts.count > this.limits.addressAttempts) {
      throw rateLimited("sign_in_address_throttled", attempts.expiresAt, nowMs);
    }
  }

  /** Throws `rate_limited` while the account named by `account` is locked. */
  checkAccount(account: string): void {
    const nowMs = this.clock();
    const entry = this.#accounts.get(account, nowMs);
    if (entry && entry.count >= this.limits.accountFailures) {
      throw rateLimited("sign_in_account_locked", entry.expiresAt, nowMs);
    }
  }

  /** Counts a failed attempt on the account; the one that reaches the limit starts the lock. */
  recordFailure(account: string): void {
    const nowMs = this.clock();
    const count = (this.#accounts.get(account, nowMs)?.count ?? 0) + 1;
    this.#accounts.set(account, { count, expiresAt: nowMs + this.limits.lockSeconds * 1000 });
  }

  /** Forgets the account's failures after a successful sign-in. */
  recordSuccess(account: string): void {
    this.#accounts.delete(account);
  }

  /** Throws `rate_limited` (`git_address_banned`) while `address` may not send git passwords. */
  checkGitAddress(address: string): void {
    const nowMs = this.clock();
    const ban = this.#gitBans.get(address, nowMs);
    if (ban) throw rateLimited("git_address_banned", ban.expiresAt, nowMs);
  }

  /**
   * Counts a wrong git password from `address`, in a window counted from its first failure; the
   * failure that reaches the limit bans the address.
   */
  recordGitFailure(address: string): void {
    const nowMs = this.clock();
    const windowMs = this.limits.gitAddressWindowSeconds * 1000;
    if (this.#gitFailures.countInWindow(address, windowMs, nowMs).count < this.limits.gitAddressFailures)
      return;
    this.#gitFailures.delete(address);
    this.#gitBans.set(address, { count: 1, expiresAt: nowMs + this.limits.gitBanSeconds * 1000 });
  }

  /** How many addresses and accounts are tracked (for tests of the memory bound). */
  get tracked(): { addresses: number; accounts: number; gitFailures: number; gitBans: number } {
    return {
      addresses: this.#addresses.size,
      accounts: this.#accounts.size,
      gitFailures: this.#gitFailures.size,
      gitBans: this.#gitBans.size,
    };
  }
}

/** No limits: for servers whose operator turned the throttle off (`KILN_SIGN_IN_THROTTLE=off`). */
export const NO_SIGN_IN_LIMITS: Readonly<SignInLimits> = Object.freeze({
  addressAttempts: Number.POSITIVE_INFINITY,
  addressWindowSeconds: 60,
  accountFailures: Number.POSITIVE_INFINITY,
  lockSeconds: 600,
  gitAddressFailures: Number.POSITIVE_INFINITY,
  gitAddressWindowSeconds: 60,
  gitBanSeconds: 3600,
});
