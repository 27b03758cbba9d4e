import type { Kysely } from "kysely";
import type { Database } from "../database.js";
import { now } from "../queries.js";

/** A user's two-factor state as stored: secrets sealed by the services, never in the clear. */
export interface StoredTwoFactor {
  /** The enrolled secret, sealed; null when the user has no two-factor authentication. */
  secretSealed: string | null;
  /** The secret of an enrolment not yet confirmed, sealed; null when none is under way. */
  pendingSecretSealed: string | null;
  /** The last TOTP step accepted, or null. */
  lastStep: number | null;
  enabledAt: string | null;
}

/** TOTP secrets and recovery codes of users (two-factor authentication). */
export class TwoFactorStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The user's two-factor state, or undefined if there is no such user. */
  async find(userId: number): Promise<StoredTwoFactor | undefined> {
    const row = await this.db
      .selectFrom("users")
      .select(["otp_secret_sealed", "otp_pending_secret_sealed", "otp_last_step", "two_factor_enabled_at"])
      .where("id", "=", userId)
      .executeTakeFirst();
    return (
      row && {
        secretSealed: row.otp_secret_sealed,
        pendingSecretSealed: row.otp_pending_secret_sealed,
        lastStep: row.otp_last_step === null ? null : Number(row.otp_last_step),
        enabledAt: row.two_factor_enabled_at,
      }
    );
  }

  /** Keeps a new pending secret (replacing any earlier one); the enrolled one stays in force. */
  async setPendingSecret(userId: number, sealed: string): Promise<void> {
    await this.db
      .updateTable("users")
      .set({ otp_pending_secret_sealed: sealed })
      .where("id", "=", userId)
      .execute();
  }

  /**
   * Puts the pending secret `sealed` in force, with `step` as the last step accepted (the code
   * that confirmed it), when that pending secret is still the one stored. False when it is not
   * (another enrolment replaced it meanwhile).
   */
  async enable(userId: number, sealed: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable("users")
      .set({
        otp_secret_sealed: sealed,
        otp_pending_secret_sealed: null,
        otp_last_step: step,
        two_factor_enabled_at: now(),
        updated_at: now(),
      })
      .where("id", "=", userId)
      .where("otp_pending_secret_sealed", "=", sealed)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Records that a code of `step` was accepted, unless that step or a later one already was: true
   * when recorded. One conditional update, so two requests with the same code cannot both pass.
   */
  async acceptStep(userId: number, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable("users")
      .set({ otp_last_step: step })
      .where("id", "=", userId)
      .where("otp_secret_sealed", "is not", null)
      .where((eb) => eb.or([eb("otp_last_step", "is", null), eb("otp_last_step", "<", step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Turns two-factor authentication off: secrets, steps and recovery codes are forgotten. */
  async disable(userId: number): Promise<void> {
    await this.db
      .updateTable("users")
      .set({
        otp_secret_sealed: null,
        otp_pending_secret_sealed: null,
        otp_last_step: null,
        two_factor_enabled_at: null,
        updated_at: now(),
      })
      .where("id", "=", userId)
      .execute();
    await this.db.deleteFrom("two_factor_recovery_codes").where("user_id", "=", userId).execute();
  }

  /** Replaces the user's recovery codes with new ones, given by their digests. */
  async replaceRecoveryCodes(userId: number, digests: readonly string[]): Promise<void> {
    await this.db.deleteFrom("two_factor_recovery_codes").where("user_id", "=", userId).execute();
    const created_at = now();
    await this.db
      .insertInto("two_factor_recovery_codes")
      .values(digests.map((code_digest) => ({ user_id: userId, code_digest, created_at, used_at: null })))
      .execute();
  }

  /** Spends the unused recovery code with this digest: true when there was one. */
  async useRecoveryCode(userId: number, digest: string): Promise<boolean> {
    const result = await this.db
      .updateTable("two_factor_recovery_codes")
      .set({ used_at: now() })
      .where("user_id", "=", userId)
      .where("code_digest", "=", digest)
      .where("used_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** How many of the user's recovery codes are unused. */
  async recoveryCodesLeft(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom("two_factor_recovery_codes")
      .select((eb) => eb.fn.countAll<number | string>().as("count"))
      .where("user_id", "=", userId)
      .where("used_at", "is", null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }
}
